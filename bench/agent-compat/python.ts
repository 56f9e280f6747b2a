import { execFile } from "node:child_process";
import { promisify } from "node:util";

export interface Python {
  /** The interpreter itself, not a launcher such as a pyenv shim (which would add its own start-up). */
  executable: string;
  version: string;
}

/** The python3 a user's PATH names, or undefined when there is none. */
export async function findPython(): Promise<Python | undefined> {
  try {
    const { stdout } = await promisify(execFile)(
      "python3",
      ["-c", "import sys; print(sys.executable); print(sys.version.split()[0])"],
      { timeout: 30_000 },
    );
    const [executable, version] = stdout.trim().split("\n");
    return executable && version ? { executable, version } : undefined;
  } catch {
    return undefined;
  }
}
