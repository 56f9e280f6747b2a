/**
 * Tool names both ways. Pi's built-in file tools become ours, so one hook guards `bash` or
 * `write_file` in every agent; every other tool keeps its name. Pi's file tools already call
 * their path argument `path`, so arguments need no renaming.
 */
const toOurs: Record<string, string> = {
  bash: "bash",
  read: "read_file",
  write: "write_file",
  edit: "write_file",
  ls: "list_dir",
  find: "list_dir",
};

export function piToolName(agentTool: string): string {
  return Object.hasOwn(toOurs, agentTool) ? (toOurs[agentTool] as string) : agentTool;
}
