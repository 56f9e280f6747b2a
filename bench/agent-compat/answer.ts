import { BenchError } from "../errors.js";
import type { Expected } from "./event.js";
import { guardReason } from "./guards.js";

/**
 * Reads an answer to a PreToolUse as that agent does, strictly: a deny is exit 2 with the reason on
 * stderr, or `hookSpecificOutput.permissionDecision: "deny"` with its reason; an allow is no
 * decision at all (exit 0 and no output, or `{}` over HTTP). Anything else (a systemMessage saying
 * a hook failed, plain text, another exit) is not the guard's answer, and the bench stops.
 */

export interface CommandAnswer {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

interface Verdict {
  decision: Expected | "other";
  reason: string;
}

const other: Verdict = { decision: "other", reason: "" };

function jsonVerdict(text: string): Verdict {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return other;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return other;
  const keys = Object.keys(body);
  if (keys.length === 0) return { decision: "allow", reason: "" };
  const specific = (body as { hookSpecificOutput?: Record<string, unknown> }).hookSpecificOutput;
  if (keys.length === 1 && specific?.permissionDecision === "deny") {
    return { decision: "deny", reason: String(specific.permissionDecisionReason ?? "") };
  }
  return other;
}

function commandVerdict(answer: CommandAnswer): Verdict {
  if (answer.exitCode === 2) return { decision: "deny", reason: answer.stderr.trim() };
  if (answer.exitCode !== 0) return other;
  const stdout = answer.stdout.trim();
  if (stdout === "") return { decision: "allow", reason: "" };
  return stdout.startsWith("{") ? jsonVerdict(stdout) : other;
}

function check(label: string, expected: Expected, verdict: Verdict, shown: () => string): void {
  const right =
    verdict.decision === expected && (expected === "allow" || verdict.reason.includes(guardReason));
  if (right) return;
  throw new BenchError(
    "AGENT_BENCH_ERR_WRONG_ANSWER",
    `${label} should ${expected === "deny" ? `deny with "${guardReason}"` : "allow (no decision)"}, but answered ${shown()}`,
  );
}

export function checkCommandAnswer(label: string, expected: Expected, answer: CommandAnswer): void {
  check(label, expected, commandVerdict(answer), () => {
    const exit = answer.signal ? `killed by ${answer.signal}` : `exit ${answer.exitCode}`;
    return `${exit}, stdout ${JSON.stringify(answer.stdout.slice(0, 2_000))}, stderr ${JSON.stringify(answer.stderr.slice(-2_000))}`;
  });
}

export function checkHttpAnswer(label: string, expected: Expected, status: number, body: string): void {
  const verdict = status === 200 ? jsonVerdict(body) : other;
  check(label, expected, verdict, () => `${status} ${JSON.stringify(body.slice(0, 2_000))}`);
}
