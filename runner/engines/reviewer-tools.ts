import { realpath } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { RunnerError } from "../../core/errors.js";
import { listDirTool, readFileTool, type Tool, ToolFailure } from "../agent/tools.js";

/** The tools a reviewing sub-agent may have: it looks, it never changes anything. */
const readOnly: Record<string, Tool> = { read_file: readFileTool, list_dir: listDirTool };
/** Tools of hookyard's agent loop that change things: named here so the refusal can say why. */
const writing = new Set(["write_file", "bash"]);

export const defaultReviewerTools = Object.keys(readOnly);

/**
 * The hook's `tools` as tools confined to the workspace. A tool that writes or runs commands is
 * refused (RUN_ERR_TOOL_NOT_READONLY), as is a name hookyard has no tool for.
 */
export function reviewerTools(names: readonly string[], root: string, hook: string): Tool[] {
  return names.map((name) => {
    if (writing.has(name)) {
      throw new RunnerError(
        "RUN_ERR_TOOL_NOT_READONLY",
        `tools: "${name}" changes files or runs commands, and a reviewer is read-only; allowed: ${defaultReviewerTools.join(", ")}`,
        { hook },
      );
    }
    const tool = readOnly[name];
    if (!tool) {
      throw new RunnerError(
        "RUN_ERR_TOOL_UNKNOWN",
        `tools: "${name}" is not a tool hookyard has; allowed: ${defaultReviewerTools.join(", ")}`,
        { hook },
      );
    }
    return confined(tool, root);
  });
}

/** A reviewer's model may be remote: it reads inside the workspace only, links included. */
function confined(tool: Tool, root: string): Tool {
  return {
    spec: tool.spec,
    run: async (args, context) => {
      const path = typeof args.path === "string" ? args.path : ".";
      const inside = async (target: string) => {
        const base = await realpath(root);
        const real = await realpath(target).catch(() => resolve(base, relative(root, target)));
        const rel = relative(base, real);
        return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
      };
      if (!(await inside(resolve(root, path)))) {
        throw new ToolFailure(`${path} is outside the workspace; a reviewer reads only inside it`);
      }
      return tool.run(args, context);
    },
  };
}
