// node:util/types, not node:util: a bundle reading node:util's exports loads some thirty modules.
import { isProxy } from "node:util/types";

/**
 * How deep ctx values and model tool-call arguments may nest. Far beyond any real tool call; far
 * below the depth (a few thousand) at which structuredClone and JSON.stringify overflow the stack.
 */
export const maxJsonDepth = 100;

/**
 * Why `value` (named `root` in the answer) is not plain JSON data, or undefined when it is: what
 * the ctx holds must reach command and http hooks, the model and the audit log as JSON, and must
 * not run code when read.
 * Refused: cycles, nesting past `maxDepth`, functions, bigints, symbols, getters and setters,
 * Proxies, and objects other than plain objects and arrays (a Map, a Date, a class instance).
 */
export function jsonDataIssue(value: unknown, root = "value", maxDepth = maxJsonDepth): string | undefined {
  // Height of each object already checked, so shared subtrees are walked once.
  const heights = new Map<object, number>();
  const open = new Set<object>();
  let issue: string | undefined;
  const walk = (node: unknown, path: string, depth: number): number => {
    switch (typeof node) {
      case "string":
      case "number":
      case "boolean":
      case "undefined":
        return 0;
      case "object":
        break;
      default:
        issue = `${path}: a ${typeof node} is not JSON data`;
        return 0;
    }
    if (node === null) return 0;
    const known = heights.get(node);
    if (known !== undefined) {
      if (depth + known > maxDepth) issue = `${path}: nested deeper than ${maxDepth} levels`;
      return known;
    }
    if (open.has(node)) {
      issue = `${path}: a cycle is not JSON data`;
      return 0;
    }
    if (depth >= maxDepth) {
      issue = `${path}: nested deeper than ${maxDepth} levels`;
      return 0;
    }
    if (isProxy(node)) {
      issue = `${path}: a Proxy is not JSON data`;
      return 0;
    }
    const proto = Object.getPrototypeOf(node) as unknown;
    const plain = Array.isArray(node)
      ? proto === Array.prototype
      : proto === Object.prototype || proto === null;
    if (!plain) {
      issue = `${path}: ${describe(node)} is not JSON data`;
      return 0;
    }
    open.add(node);
    let height = 0;
    for (const key of Object.keys(node)) {
      const own = Object.getOwnPropertyDescriptor(node, key);
      const at = `${path}.${key}`;
      if (!own || !("value" in own)) {
        issue = `${at}: a getter or setter is not JSON data`;
        break;
      }
      height = Math.max(height, 1 + walk(own.value, at, depth + 1));
      if (issue) break;
    }
    open.delete(node);
    heights.set(node, height);
    return height;
  };
  walk(value, root, 0);
  return issue;
}

function describe(node: object): string {
  try {
    const name = (node as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name === "string" && name) return `a ${name}`;
  } catch {
    // a constructor getter that throws
  }
  return "an object that is not plain";
}
