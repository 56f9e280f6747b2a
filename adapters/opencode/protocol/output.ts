import type { Point } from "../../../core/events.js";
import type { ChainOutcome } from "../../../runner/chain/outcome.js";
import { capText, hookNames, injectText } from "../../claude/protocol/text.js";
import { askReasonsOf, blockReasonOf, rewritersOf, userLines } from "../../outcome-text.js";
import type { EventAnswer } from "../../profile.js";
import { opencodeArgsToAgent } from "./tools.js";

/**
 * The answer hookyard's OpenCode plugin reads (integrations/opencode/), one JSON object on stdout:
 * - `block`: the reason; the plugin throws it, so the tool does not run (the model gets it as the
 *   tool's error) or the prompt is not sent;
 * - `args`: the tool's whole argument object, rewritten (the plugin replaces OpenCode's with it);
 * - `output`: the tool's result, rewritten (what the model gets instead);
 * - `inject`: text for the next model request: the plugin appends it to this tool's result, or to
 *   the next prompt or tool result of the session;
 * - `message`: for the user (notices, hook failures, what OpenCode cannot do); the plugin logs it.
 * `{}` is "nothing to say": the plugin reads any answer that is not a JSON object as a failure.
 */
export interface OpencodeAnswer {
  block?: string;
  args?: Record<string, unknown>;
  output?: string;
  inject?: string;
  message?: string;
}

export function opencodeAnswer(body: OpencodeAnswer, exitCode = 0, stderr = ""): EventAnswer {
  return { exitCode, stdout: `${JSON.stringify(body)}\n`, stderr };
}

/** A chain's outcome as the plugin reads it. */
export function opencodeOutcome(point: Point, outcome: ChainOutcome, input: unknown): EventAnswer {
  const sent = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const body: OpencodeAnswer = {};
  const notes: string[] = [];
  const rewriters = rewritersOf(outcome);
  const blockReason = blockReasonOf(outcome);
  if (blockReason !== undefined) {
    body.block = blockReason;
  } else if (outcome.verdict === "ask" && point === "tool_before") {
    // A plugin cannot ask OpenCode's user: with nobody to ask, the call is refused (DESIGN §3).
    const asks = askReasonsOf(outcome);
    body.block = capText(
      `Refused: a hook asks for confirmation, which OpenCode's plugin cannot ask: ${asks}`,
    );
  } else if (rewriters.length > 0) {
    if (point === "tool_before") {
      const tool = typeof sent.tool === "string" ? sent.tool : "";
      const args = (sent.args ?? {}) as Record<string, unknown>;
      body.args = opencodeArgsToAgent(tool, outcome.ctx.args as Record<string, unknown>, args);
    } else if (point === "tool_after") {
      body.output = outcome.ctx.result as string;
    } else {
      notes.push(
        `hookyard: hook ${hookNames(rewriters)} rewrote ${point}, which OpenCode's plugin cannot change`,
      );
    }
  }
  if (body.block === undefined && outcome.injects.length > 0)
    body.inject = capText(injectText(outcome.injects));
  if (outcome.continues.length > 0) {
    const hooks = hookNames(outcome.continues.map((c) => c.hook));
    notes.push(
      `hookyard: continue from hook ${hooks} ignored: hookyard's OpenCode plugin does not start another turn`,
    );
  }
  const message = [...userLines(outcome), ...notes].join("\n");
  if (message) body.message = capText(message);
  return opencodeAnswer(body);
}
