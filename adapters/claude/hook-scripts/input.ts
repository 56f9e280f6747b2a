import { isAbsolute, resolve } from "node:path";
import type { AnyCtx, Point } from "../../../core/events.js";
import { claudeInputFromCtx } from "../protocol/reverse.js";

/**
 * The JSON a script written for that agent's command hooks reads on stdin at `point`: the claude
 * profile's input mapping in reverse, from the ctx as the chain left it (so the script sees earlier
 * hooks' rewrites). Tool paths are made absolute, as that agent always sends them: our own loop's
 * are relative to the workspace root.
 */
export function claudeHookInput(point: Point, ctx: AnyCtx, root: string): Record<string, unknown> {
  const input = claudeInputFromCtx(point, ctx, { cwd: root });
  if (input === undefined) throw new Error(`the claude profile has no event for ${point}`);
  const toolInput = input.tool_input;
  if (typeof toolInput === "object" && toolInput !== null) {
    const fields = { ...(toolInput as Record<string, unknown>) };
    for (const field of ["file_path", "path"]) {
      const value = fields[field];
      if (typeof value === "string" && value !== "" && !isAbsolute(value))
        fields[field] = resolve(root, value);
    }
    input.tool_input = fields;
  }
  return input;
}
