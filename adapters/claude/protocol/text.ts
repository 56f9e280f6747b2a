import type { Attributed } from "../../../runner/chain/outcome.js";

/** That agent's limit on hook output that reaches its context; every string hookyard writes for it is held to it. */
export const outputCap = 10_000;

/** `text`, cut to `cap` characters with a note saying so (never half a surrogate pair). */
export function capText(text: string, cap = outputCap): string {
  if (text.length <= cap) return text;
  const note = `\n[cut by hookyard at ${cap} characters]`;
  let end = Math.max(0, cap - note.length);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}${note}`.slice(0, cap);
}

/** Injected text, each block tagged with its hook as the agent loop tags it; a block cannot close another's tag. */
export function injectText(injects: readonly Attributed[]): string {
  return injects
    .map(
      (i) =>
        `<hookyard-inject hook="${i.hook}">\n${i.text.replace(/<(\/?hookyard-inject)/gi, "&lt;$1")}\n</hookyard-inject>`,
    )
    .join("\n\n");
}

/** `"a", "b"`: hook names as a message lists them. */
export function hookNames(names: Iterable<string>): string {
  return [...new Set(names)].map((name) => `"${name}"`).join(", ");
}
