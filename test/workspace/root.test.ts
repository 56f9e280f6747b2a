import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findWorkspaceRoot, findWorkspaceRootSync } from "../../workspace/root.js";
import { tempDir, writeFiles } from "../helpers/temp.js";

/** Both finders, which must agree: the exec client uses the sync one, every other command the other. */
async function rootsFor(cwd: string): Promise<string[]> {
  return [await findWorkspaceRoot(cwd), findWorkspaceRootSync(cwd)];
}

describe("the workspace root", () => {
  it("is the nearest folder up from cwd with hookyard.json or .hookyard/", async () => {
    const home = await tempDir();
    await writeFiles(home, {
      "project/hookyard.json": "{}",
      "project/packages/web/.hookyard/store/.keep": "",
    });
    const deep = join(home, "project/packages/web/src/components");
    const beside = join(home, "project/docs/guide");
    await mkdir(deep, { recursive: true });
    await mkdir(beside, { recursive: true });

    expect(await rootsFor(deep)).toEqual([
      join(home, "project/packages/web"),
      join(home, "project/packages/web"),
    ]);
    expect(await rootsFor(beside)).toEqual([join(home, "project"), join(home, "project")]);
    expect(await rootsFor(join(home, "project"))).toEqual([join(home, "project"), join(home, "project")]);
  });

  it("is cwd itself when no folder above holds a workspace, so a first install makes one there", async () => {
    const home = await tempDir();
    const cwd = join(home, "a", "b");
    await mkdir(cwd, { recursive: true });
    // The OS temp dir's parents hold no workspace on the machines tests run on.
    expect(await rootsFor(`${cwd}/./`)).toEqual([cwd, cwd]);
  });
});
