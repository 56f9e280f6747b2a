/**
 * Tool names both ways. OpenCode's shell and file tools become ours, so one hook guards `bash` or
 * `write_file` in every agent; every other tool keeps its name.
 */
const toOurs: Record<string, string> = {
  bash: "bash",
  read: "read_file",
  write: "write_file",
  edit: "write_file",
  list: "list_dir",
  glob: "list_dir",
};

/** The file tools, whose `filePath` argument is our `path`. */
const filePathTools = new Set(["read", "write", "edit"]);

export function opencodeToolName(agentTool: string): string {
  return Object.hasOwn(toOurs, agentTool) ? (toOurs[agentTool] as string) : agentTool;
}

/** OpenCode's tool arguments as our args: the file tools' `filePath` is `path`; the rest as sent. */
export function opencodeArgsFromAgent(
  agentTool: string,
  input: Record<string, unknown>,
): Record<string, unknown> {
  if (!filePathTools.has(agentTool) || !("filePath" in input) || "path" in input) return input;
  const { filePath, ...rest } = input;
  return { path: filePath, ...rest };
}

/** Our args as OpenCode's: the inverse of opencodeArgsFromAgent, given what was sent. */
export function opencodeArgsToAgent(
  agentTool: string,
  args: Record<string, unknown>,
  sent: Record<string, unknown>,
): Record<string, unknown> {
  const renamed = filePathTools.has(agentTool) && "filePath" in sent && !("path" in sent);
  if (!renamed || !("path" in args) || "filePath" in args) return args;
  const { path, ...rest } = args;
  return { filePath: path, ...rest };
}
