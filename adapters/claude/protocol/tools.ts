/**
 * Tool names both ways. The agent's file tools become ours, so one hook guards `write_file` in
 * our loop and Write, Edit and MultiEdit there; every other tool keeps its name, lower-cased.
 */
const toOurs: Record<string, string> = {
  Bash: "bash",
  Read: "read_file",
  Write: "write_file",
  Edit: "write_file",
  MultiEdit: "write_file",
  LS: "list_dir",
  Glob: "list_dir",
};

/** Ours back to theirs when nothing better is known (write_file → Write). */
const toTheirs: Record<string, string> = {
  bash: "Bash",
  read_file: "Read",
  write_file: "Write",
  list_dir: "LS",
};

/** That agent's other built-in tools, so a lower-cased name finds its spelling again. */
const otherTools = [
  "Grep",
  "WebFetch",
  "WebSearch",
  "Task",
  "Agent",
  "TodoWrite",
  "NotebookEdit",
  "NotebookRead",
  "BashOutput",
  "KillShell",
  "ExitPlanMode",
  "SlashCommand",
  "Skill",
];

/** Tools whose `file_path` argument is our `path`. */
const pathTools = new Set(["Read", "Write", "Edit", "MultiEdit"]);

export function claudeToolName(agentTool: string): string {
  return Object.hasOwn(toOurs, agentTool) ? (toOurs[agentTool] as string) : agentTool.toLowerCase();
}

/**
 * The agent's name for one of ours. `original` (the name the agent sent, kept in ctx.agent.tool)
 * wins when it maps to `tool`: write_file came from Edit, and goes back as Edit.
 */
export function agentToolName(tool: string, original?: string): string {
  if (original !== undefined && claudeToolName(original) === tool) return original;
  if (Object.hasOwn(toTheirs, tool)) return toTheirs[tool] as string;
  return otherTools.find((name) => name.toLowerCase() === tool) ?? tool;
}

/** The agent's tool_input as our args: `file_path` is `path` for the file tools; the rest as sent. */
export function argsFromAgent(agentTool: string, input: Record<string, unknown>): Record<string, unknown> {
  if (!pathTools.has(agentTool) || !("file_path" in input) || "path" in input) return input;
  const { file_path, ...rest } = input;
  return { path: file_path, ...rest };
}

/**
 * Our args as the agent's tool_input, for updatedInput: the inverse of argsFromAgent. Given the
 * input the agent sent, `path` goes back to `file_path` only if argsFromAgent renamed it.
 */
export function argsToAgent(
  agentTool: string,
  args: Record<string, unknown>,
  sent?: Record<string, unknown>,
): Record<string, unknown> {
  const renamed = sent === undefined || ("file_path" in sent && !("path" in sent));
  if (!renamed || !pathTools.has(agentTool) || !("path" in args) || "file_path" in args) return args;
  const { path, ...rest } = args;
  return { file_path: path, ...rest };
}
