import { writeFile } from "node:fs/promises";
import { join } from "node:path";

/** What `.hookyard/` holds that is this machine's, not the project's: the store comes back with `hookyard install`. */
const ignored = ["cache/", "state/", "logs/", "store/", ""].join("\n");

/** Writes `.hookyard/.gitignore` unless there is one; true when it was written. */
export async function writeHookyardGitignore(root: string): Promise<boolean> {
  try {
    await writeFile(join(root, ".hookyard", ".gitignore"), ignored, { flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}
