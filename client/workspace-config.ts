import {
  type ConfigFile,
  ConfigFileError,
  type InstallFields,
  installFieldsSchema,
  readConfigFile,
} from "../workspace/config-file.js";
import { ClientError } from "./errors.js";

/** hookyard.json as `install` reads and rewrites it: its install fields checked, every other field kept as it is. */
export interface WorkspaceConfigFile extends ConfigFile {
  data: Record<string, unknown> & InstallFields;
}

export async function readWorkspaceConfigFile(root: string): Promise<WorkspaceConfigFile> {
  let config: ConfigFile;
  try {
    config = await readConfigFile(root);
  } catch (error) {
    if (error instanceof ConfigFileError && error.reason === "invalid")
      throw new ClientError("CLI_ERR_WORKSPACE_INVALID", error.message, { cause: error });
    throw error;
  }
  const parsed = installFieldsSchema.safeParse(config.data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(top)"}: ${i.message}`).join("; ");
    throw new ClientError("CLI_ERR_WORKSPACE_INVALID", `${config.file}: ${issues}`);
  }
  return config as WorkspaceConfigFile;
}
