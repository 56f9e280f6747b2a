import type { Point } from "../../../core/events.js";
import type { ChainOutcome } from "../../../runner/chain/outcome.js";
import {
  type ClaudeAnswer,
  type ClaudeOutcomeOptions,
  claudeOutcome,
  claudePointOutput,
  type PointOutput,
} from "../../claude/protocol/output.js";
import { capText, hookNames } from "../../claude/protocol/text.js";

/**
 * Where Codex reads Claude Code's JSON differently. It has no `ask` at PreToolUse (it reads one as
 * an invalid answer, and runs the call). It takes no `updatedToolOutput` for its own tools (only
 * `updatedMCPToolOutput`, and a shell result is a string): what it does take is a PostToolUse
 * `decision: "block"`, whose `reason` replaces the result the model is sent. So a rewritten result
 * goes back as that reason, for every tool.
 */
const codexPointOutput: PointOutput = {
  tool_before(draft, outcome, options) {
    claudePointOutput.tool_before?.(draft, outcome, options);
    const { specific } = draft;
    if (specific.permissionDecision === "ask") {
      specific.permissionDecision = "deny";
      specific.permissionDecisionReason = capText(
        `Codex cannot ask you from a hook, so this call is refused: ${String(specific.permissionDecisionReason)}`,
      );
    }
  },
  tool_after(draft, outcome) {
    if (draft.rewriters.length === 0) return;
    const text = outcome.ctx.result as string;
    // An empty reason is an invalid answer to Codex, which would then send the original result.
    draft.body.decision = "block";
    draft.body.reason = capText(
      text.trim() === "" ? `[the result was removed by hook ${hookNames(draft.rewriters)}]` : text,
    );
  },
};

/**
 * A chain's outcome as Codex reads it: Claude Code's answer (adapters/claude/protocol/output.ts)
 * with the points above its own, always as JSON on stdout (Codex reads plain text as context
 * only at some events), a blocked prompt still exit 2 with the reason on stderr.
 */
export function codexOutcome(
  point: Point,
  outcome: ChainOutcome,
  input: unknown,
  options: ClaudeOutcomeOptions = {},
): ClaudeAnswer {
  const answer = claudeOutcome(point, outcome, input, {
    ...options,
    title: "Codex",
    pointOutput: codexPointOutput,
  });
  if (answer.exitCode === 0 && Object.keys(answer.body).length > 0) {
    answer.stdout = `${JSON.stringify(answer.body)}\n`;
  }
  return answer;
}
