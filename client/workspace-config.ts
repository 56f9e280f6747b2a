import { describeIssues, RunnerError } from "../core/errors.js";
import {
  type ConfigFile,
  type InstallFields,
  installFieldsSchema,
  readConfigFile,
} from "../workspace/config-file.js";

/** hookyard.json as `install` reads and rewrites it: its install fields checked, every other field kept as it is. */
export interface WorkspaceConfigFile extends ConfigFile {
  data: Record<string, unknown> & InstallFields;
}

/**
 * Throws RunnerError (RUN_ERR_CONFIG_*), not ClientError: a broken hookyard.json is one failure
 * with one code whichever command read it (`list` and `install` alike).
 */
export async function readWorkspaceConfigFile(root: string): Promise<WorkspaceConfigFile> {
  const config = await readConfigFile(root);
  const parsed = installFieldsSchema.safeParse(config.data);
  if (!parsed.success)
    throw new RunnerError("RUN_ERR_CONFIG_INVALID", `${config.file}: ${describeIssues(parsed.error)}`);
  return config as WorkspaceConfigFile;
}
