import { AdapterError } from "../adapters/errors.js";
import { ClientError } from "../client/errors.js";
import { errorText, RunnerError } from "../core/errors.js";
import { PackageError } from "../package/errors.js";
import { TarballError } from "../package/tarball/errors.js";
import { RegistryError } from "../registry/errors.js";
import { BrokerError } from "../sandbox/broker/errors.js";
import { SandboxError } from "../sandbox/errors.js";
import { CliError, clientExitCode, exitCodes } from "./errors.js";

/** What to do about each failure: the one place where codes become advice. */
const remedies: Record<string, string> = {
  CLI_ERR_USAGE: "add --help to the command to see its usage",
  CLI_ERR_MODEL_SPEC: "use --model scripted:<file.json> or --model openai:<model-name>",
  CLI_ERR_NOT_A_DIRECTORY: "pass an existing directory to --cwd",
  CLI_ERR_EXAMPLE_MISSING: "reinstall hookyard; the package is incomplete",
  CLI_ERR_FILESYSTEM: "check that the path exists, is of the right kind, and that you may write there",
  CLI_ERR_NOT_FOUND: "check the name and the registry; `hookyard search <words>` finds names",
  CLI_ERR_NO_MATCHING_VERSION: "name one of the versions listed, or a wider range",
  CLI_ERR_MANIFEST_INVALID:
    "fix package.json and pack again (docs/cli/packages/pack.md describes its fields)",
  CLI_ERR_UNSAFE_MATCHER:
    "simplify the pattern as the message says and pack again (docs/writing-a-hook.md#matchers lists what is refused)",
  CLI_ERR_BUNDLE: "docs/cli/packages/pack.md says what a hook package may import",
  CLI_ERR_TARBALL_INVALID: "publish the .tgz that `hookyard pack` wrote, or the package's folder",
  RUN_ERR_CONFIG_INVALID: "fix hookyard.json (docs/configuration.md describes it)",
  RUN_ERR_CONFIG_UNREADABLE: "check the file's permissions",
  RUN_ERR_SCRIPT_INVALID: "docs/agent.md describes a script's format",
  RUN_ERR_MODEL_FAILED: "check --base-url, the API key (OPENAI_API_KEY) and that the server is running",
  RUN_ERR_STATE_CORRUPT: "fix or delete the state file",
  RUN_ERR_RUN_NOT_FOUND: "check the id and --cwd",
  RUN_ERR_RUN_CORRUPT: "restore the record or delete the run's folder (docs/errors.md)",
  RUN_ERR_RUN_RECORD: "free disk space or fix the permissions of .hookyard/runs",
};

export interface Rendered {
  line: string;
  exitCode: number;
}

/** Errors from the file system that are about the user's files, not a bug in hookyard. */
const filesystemCodes = new Set([
  "EACCES",
  "EEXIST",
  "EISDIR",
  "ENOENT",
  "ENOSPC",
  "ENOTDIR",
  "EPERM",
  "EROFS",
]);

/**
 * Every error family of hookyard: each has a stable `code` (documented in docs/errors.md, or for
 * the registry and the sandbox on their own pages), shown as it is. Anything else is a bug.
 */
const codedFamilies = [
  CliError,
  ClientError,
  AdapterError,
  RunnerError,
  RegistryError,
  TarballError,
  PackageError,
  SandboxError,
  BrokerError,
];

/** One clear line: code, what went wrong, what to do. Stacks only under --debug. */
export function renderError(thrown: unknown, debug = false): Rendered {
  const errno = (thrown as NodeJS.ErrnoException | null)?.code;
  const error =
    thrown instanceof Error && typeof errno === "string" && filesystemCodes.has(errno)
      ? new CliError("CLI_ERR_FILESYSTEM", thrown.message, exitCodes.error, { cause: thrown })
      : thrown;
  if (codedFamilies.some((family) => error instanceof family)) {
    const coded = error as Error & { code: string };
    const remedy = remedies[coded.code];
    return {
      line: `hookyard: ${coded.code}: ${coded.message}${remedy ? ` (${remedy})` : ""}`,
      exitCode:
        error instanceof CliError
          ? error.exitCode
          : error instanceof ClientError
            ? clientExitCode(error)
            : exitCodes.error,
    };
  }
  const text = errorText(error);
  return {
    line: `hookyard: unexpected error: ${text} (${debug ? "" : "run again with --debug for details, and "}please report it)`,
    exitCode: exitCodes.error,
  };
}
