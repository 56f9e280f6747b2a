import type ts from "typescript";

export interface Position {
  /** 1-based, as editors count. */
  line: number;
  column: number;
}

/**
 * Where `path` (`["rules", 0, "command"]`) is in a JSON text: its deepest part that exists, so a
 * missing field points at the object that lacks it. TypeScript's JSON parser keeps positions, and
 * typescript is a dependency already (`hookyard test`).
 */
export async function jsonPosition(text: string, path: ReadonlyArray<string | number>): Promise<Position> {
  const { default: typescript } = await import("typescript");
  const source = typescript.parseJsonText("file.json", text);
  let value: ts.Node | undefined = source.statements[0]?.expression;
  let found: ts.Node | undefined = value;
  for (const part of path) {
    const next = child(typescript, value, part);
    if (!next) break;
    [value, found] = next;
  }
  if (!found) return { line: 1, column: 1 };
  const at = source.getLineAndCharacterOfPosition(found.getStart(source));
  return { line: at.line + 1, column: at.character + 1 };
}

/** The value at `part` and where to point for it: a field's key (where an editor marks it), an element itself. */
function child(
  typescript: typeof ts,
  node: ts.Node | undefined,
  part: string | number,
): [ts.Node, ts.Node] | undefined {
  if (node && typescript.isObjectLiteralExpression(node)) {
    const property = node.properties.find(
      (p): p is ts.PropertyAssignment =>
        typescript.isPropertyAssignment(p) &&
        (typescript.isStringLiteral(p.name) || typescript.isIdentifier(p.name)) &&
        p.name.text === String(part),
    );
    return property ? [property.initializer, property] : undefined;
  }
  if (node && typescript.isArrayLiteralExpression(node) && typeof part === "number") {
    const element = node.elements[part];
    return element ? [element, element] : undefined;
  }
  return undefined;
}

/** "rules[0].command: …" → ["rules", 0, "command"]: the path describeIssues puts before a message. */
export function leadingPath(message: string): Array<string | number> | undefined {
  const match = /^([^\s:]+): /.exec(message);
  if (!match?.[1]) return undefined;
  const parts: Array<string | number> = [];
  for (const piece of match[1].split(".")) {
    const [name, ...indexes] = piece.split(/\[(\d+)\]/).filter((s) => s !== "");
    if (name !== undefined && !/^\d+$/.test(name)) parts.push(name);
    else if (name !== undefined) parts.push(Number(name));
    for (const index of indexes) parts.push(Number(index));
  }
  return parts;
}

/** JSON.parse's "… at position 12 (line 2 column 3)" (Node 22 and later say both). */
export function parseErrorPosition(message: string): Position {
  const match = /line (\d+) column (\d+)/.exec(message);
  return match ? { line: Number(match[1]), column: Number(match[2]) } : { line: 1, column: 1 };
}
