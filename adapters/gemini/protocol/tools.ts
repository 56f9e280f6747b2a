/**
 * Tool names both ways. Gemini CLI's shell and file tools become ours, so one hook guards `bash`
 * or `write_file` in every agent; every other tool keeps its name (already snake_case there).
 */
const toOurs: Record<string, string> = {
  run_shell_command: "bash",
  read_file: "read_file",
  write_file: "write_file",
  replace: "write_file",
  list_directory: "list_dir",
  glob: "list_dir",
};

/** Ours back to theirs when nothing better is known. */
const toTheirs: Record<string, string> = {
  bash: "run_shell_command",
  read_file: "read_file",
  write_file: "write_file",
  list_dir: "list_directory",
};

/** Tools whose `file_path` (or, for list_directory, `dir_path`) argument is our `path`. */
const pathArg: Record<string, string> = {
  read_file: "file_path",
  write_file: "file_path",
  replace: "file_path",
  list_directory: "dir_path",
};

export function geminiToolName(agentTool: string): string {
  return Object.hasOwn(toOurs, agentTool) ? (toOurs[agentTool] as string) : agentTool;
}

/** The agent's name for one of ours; `original` (ctx.agent.tool) wins when it maps to `tool`. */
export function geminiAgentToolName(tool: string, original?: string): string {
  if (original !== undefined && geminiToolName(original) === tool) return original;
  return Object.hasOwn(toTheirs, tool) ? (toTheirs[tool] as string) : tool;
}

/** The agent's tool_input as our args: the file tools' path argument is `path`; the rest as sent. */
export function geminiArgsFromAgent(
  agentTool: string,
  input: Record<string, unknown>,
): Record<string, unknown> {
  const field = Object.hasOwn(pathArg, agentTool) ? pathArg[agentTool] : undefined;
  if (field === undefined || !(field in input) || "path" in input) return input;
  const { [field]: path, ...rest } = input;
  return { path, ...rest };
}

/** Our args as the agent's tool_input: the inverse of geminiArgsFromAgent, given what was sent. */
export function geminiArgsToAgent(
  agentTool: string,
  args: Record<string, unknown>,
  sent?: Record<string, unknown>,
): Record<string, unknown> {
  const field = Object.hasOwn(pathArg, agentTool) ? pathArg[agentTool] : undefined;
  if (field === undefined || !("path" in args) || field in args) return args;
  const renamed = sent === undefined || (field in sent && !("path" in sent));
  if (!renamed) return args;
  const { path, ...rest } = args;
  return { [field]: path, ...rest };
}
