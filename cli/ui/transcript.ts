import type { AgentEvent } from "../../runner/agent/loop.js";

const codes = { dim: 2, bold: 1, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36 } as const;
type Style = keyof typeof codes;

const clip = (text: string, max = 400) => {
  const one = text.replace(/\s+$/, "");
  return one.length > max ? `${one.slice(0, max)}… (${one.length} chars)` : one;
};
const indent = (text: string, pad: string) => text.split("\n").join(`\n${pad}`);

/** A readable transcript: every model message, tool call and hook decision, marked with the hook's name and trust. */
export function transcriptWriter(write: (text: string) => void, color: boolean): (event: AgentEvent) => void {
  const paint = (style: Style, text: string) => (color ? `\u001b[${codes[style]}m${text}\u001b[0m` : text);
  const nested = new Map<string, (event: AgentEvent) => void>();
  return (event) => {
    switch (event.type) {
      case "nested": {
        // A sub-agent's events, every line marked with the hook that ran it: not the user's run.
        const key = `${event.hook}\u0000${event.depth}`;
        let inner = nested.get(key);
        if (!inner) {
          const mark = paint("dim", `  ┊ ${event.hook}[${event.depth}] `);
          inner = transcriptWriter(
            (text) => write(text.replace(/[^\n]*\n/g, (line) => `${mark}${line}`)),
            color,
          );
          nested.set(key, inner);
        }
        inner(event.event);
        break;
      }
      case "session":
        write(paint("dim", `session ${event.sessionId} · model ${event.model}\n`));
        break;
      case "user":
        write(`${paint("bold", "user")}   ${indent(event.text, "       ")}\n`);
        break;
      case "model":
        if (event.content) write(`${paint("blue", "model")}  ${indent(clip(event.content), "       ")}\n`);
        break;
      case "tool_call":
        write(`${paint("cyan", "  → ")}${event.tool} ${clip(JSON.stringify(event.args), 200)}\n`);
        break;
      case "tool_result":
        write(
          `${paint(event.ok ? "green" : "red", "  ← ")}${indent(clip(event.text || "(no output)"), "    ")}\n`,
        );
        break;
      case "hook": {
        // A hook that ran and changed nothing: --json has it, the transcript stays about effects.
        if (event.effect === "none") break;
        const who = `${event.hook} (${event.origin}, ${event.trust})`;
        const what = event.text ? `: ${indent(clip(event.text, 300), "      ")}` : "";
        const style: Style =
          event.effect === "block" || event.effect === "error" || event.effect === "timeout"
            ? "red"
            : event.effect === "ask"
              ? "yellow"
              : "magenta";
        write(`${paint(style, `  ⚑ ${event.effect}`)} at ${event.point} by ${who}${what}\n`);
        break;
      }
      case "note":
        write(paint("dim", `  (${event.text})\n`));
        break;
      case "compacted":
        write(paint("dim", `  (history compacted: ${event.removed} messages)\n`));
        break;
      case "error":
        write(`${paint("red", "error")}  ${indent(event.message, "       ")}\n`);
        break;
      case "answer":
        write(`${paint("bold", "answer")} ${indent(event.text || "(empty)", "       ")}\n`);
        break;
      case "end": {
        const s = event.stats;
        write(
          paint(
            "dim",
            `end: ${event.reason} · ${s.turns} turn(s) · ${s.modelCalls} model call(s) · ${s.toolCalls} tool call(s) · ${s.durationMs} ms\n`,
          ),
        );
        break;
      }
    }
  };
}
