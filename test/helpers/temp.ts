import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";

const made: string[] = [];

afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh directory under the OS temp dir, removed after the test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "hookyard-test-"));
  made.push(dir);
  return dir;
}

/** Writes `{ relativePath: contents }` under root, making folders; objects are written as JSON. */
export async function writeFiles(root: string, files: Record<string, string | object>): Promise<void> {
  for (const [path, contents] of Object.entries(files)) {
    const file = join(root, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, typeof contents === "string" ? contents : JSON.stringify(contents, null, 2));
  }
}

/** A temp workspace holding `files`, removed after the test. */
export async function workspace(files: Record<string, string | object> = {}): Promise<string> {
  const root = await tempDir();
  await writeFiles(root, files);
  return root;
}
