/** A string as one shell word: as it is when that is safe, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

const variable = /^\$(\{CLAUDE_PLUGIN_ROOT\}|CLAUDE_PLUGIN_ROOT(?![A-Za-z0-9_]))/;

/**
 * `command` with `${CLAUDE_PLUGIN_ROOT}` (or `$CLAUDE_PLUGIN_ROOT`) replaced by `root`, as that
 * agent replaces it, but quoted for where it stands: escaped for the double or single quotes
 * around it, else made one shell word. A folder with a space in its name stays one argument.
 */
export function expandPluginRoot(command: string, root: string): string {
  let out = "";
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < command.length; i++) {
    const match = variable.exec(command.slice(i));
    if (match) {
      out +=
        quote === '"'
          ? root.replace(/["$`\\]/g, "\\$&")
          : quote === "'"
            ? root.replace(/'/g, `'\\''`)
            : shellWord(root);
      i += match[0].length - 1;
      continue;
    }
    const char = command[i] as string;
    out += char;
    if (char === "\\" && quote !== "'" && i + 1 < command.length) out += command[++i];
    else if (char === quote) quote = undefined;
    else if (quote === undefined && (char === "'" || char === '"')) quote = char;
  }
  return out;
}
