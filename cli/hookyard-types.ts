import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { HookyardTypes } from "../client/package-test/typecheck.js";
import { packageRoot } from "./package-root.js";

/** The `.d.ts` files of this hookyard's `hookyard` and `hookyard/testing` (its package.json `exports`). */
export async function hookyardTypes(): Promise<HookyardTypes> {
  const root = packageRoot();
  const { exports } = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as {
    exports: Record<string, { types: string }>;
  };
  return {
    index: join(root, exports["."]?.types ?? ""),
    testing: join(root, exports["./testing"]?.types ?? ""),
  };
}
