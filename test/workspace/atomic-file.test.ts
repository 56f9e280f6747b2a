import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeFileAtomic } from "../../workspace/atomic-file.js";
import { repoRoot } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";

/** A version of a file that is recognisably whole: one letter repeated, `size` bytes. */
const version = (letter: string, size: number) => letter.repeat(size);

describe("a file replaced atomically (hookyard.lock, hookyard.json, agent settings)", () => {
  it("is never seen half-written: while writers replace it, every read is one whole version", async () => {
    const dir = await tempDir();
    const file = join(dir, "hookyard.lock");
    const size = 1 << 20;
    await writeFile(file, version("a", size));

    let writing = true;
    const writers = (async () => {
      for (const letter of "bcdefghijk") await writeFileAtomic(file, version(letter, size));
      writing = false;
    })();
    const seen = new Set<string>();
    for (let reads = 0; writing && reads < 10_000; reads++) {
      const text = await readFile(file, "utf8");
      expect(text.length).toBe(size);
      expect(text).toBe(version(text[0] ?? "?", size));
      seen.add(text[0] ?? "?");
    }
    await writers;

    expect(await readFile(file, "utf8")).toBe(version("k", size));
    // More than one version read: the reads overlapped the replacing, not just preceded it.
    expect(seen.size).toBeGreaterThan(1);
    expect(await readdir(dir)).toEqual(["hookyard.lock"]);
  });

  it("keeps the old file whole when the writing process is killed mid-write", async () => {
    const dir = await tempDir();
    const file = join(dir, "settings.json");
    await writeFile(file, version("a", 1000));
    // The child writes a file too large to finish before it is killed (it would take seconds).
    const script = `
      import { writeFileAtomic } from ${JSON.stringify(join(repoRoot, "dist/workspace/atomic-file.js"))};
      const big = Buffer.alloc(2 ** 30, "b");
      process.stdout.write("writing\\n");
      await writeFileAtomic(${JSON.stringify(file)}, big);
      process.stdout.write("done\\n");
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const output: string[] = [];
    const closed = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("close", (_code, signal) => resolve(signal)),
    );
    const started = new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    child.stdout.on("data", (chunk) => output.push(String(chunk)));
    await started;
    // Kill once its temp file has bytes in it: the write has begun, and cannot have finished.
    let begun = false;
    for (let tries = 0; !begun && tries < 1_000; tries++) {
      const temp = (await readdir(dir)).find((name) => name.endsWith(".tmp"));
      begun = temp !== undefined && ((await stat(join(dir, temp)).catch(() => undefined))?.size ?? 0) > 0;
      if (!begun) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    child.kill("SIGKILL");

    expect(begun).toBe(true);
    expect(await closed).toBe("SIGKILL");
    expect(output.join("")).not.toContain("done");
    expect(await readFile(file, "utf8")).toBe(version("a", 1000));
  });

  it("leaves no temp file behind when the file cannot be replaced, and says why", async () => {
    const dir = await tempDir();
    const target = join(dir, "hookyard.json");
    await mkdir(join(target, "in-the-way"), { recursive: true });

    await expect(writeFileAtomic(target, "{}\n")).rejects.toMatchObject({
      code: expect.stringMatching(/^E/),
    });
    expect(await readdir(dir)).toEqual(["hookyard.json"]);
    expect((await stat(target)).isDirectory()).toBe(true);
  });
});
