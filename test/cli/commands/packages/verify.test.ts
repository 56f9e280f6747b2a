import { readFile, rm, symlink, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { computeIntegrity } from "../../../../package/integrity.js";
import { lockFileName } from "../../../../workspace/lockfile.js";
import { installFixture, noticeHook } from "../../../helpers/lock-fixture.js";
import { runCli } from "../../../helpers/run-cli.js";
import { tempDir, workspace } from "../../../helpers/temp.js";

async function verify(root: string, ...flags: string[]) {
  const config = join(await tempDir(), "config.json");
  return runCli(["verify", ...flags], { cwd: root, env: { HOOKYARD_CONFIG: config } });
}

/** A workspace with two installed packages, alpha 1.0.0 and beta 2.0.0. */
async function installed() {
  const root = await workspace({ "hookyard.json": {} });
  const fixture = await installFixture(root, [
    { name: "alpha", source: noticeHook("alpha", '"a"'), hookyard: { events: ["tool_before"] } },
    {
      name: "beta",
      version: "2.0.0",
      source: noticeHook("beta", '"b"'),
      hookyard: { events: ["tool_before"] },
      trust: "trusted",
    },
  ]);
  return { root, ...fixture };
}

describe("hookyard verify", () => {
  it("says each package is ok and exits 0 when the store matches the lock", async () => {
    const { root } = await installed();
    const result = await verify(root);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toMatch(/^alpha@1\.0\.0 +ok\nbeta@2\.0\.0 +ok\n2 packages verified\n$/);
  });

  it("names the changed file and both hashes, and exits 3", async () => {
    const { root, lock, bundle } = await installed();
    const file = bundle.beta as string;
    const bytes = await readFile(file);
    bytes[0] = (bytes[0] as number) ^ 0x20;
    await writeFile(file, bytes);
    const result = await verify(root);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain("alpha@1.0.0  ok");
    expect(result.stdout).toContain(
      `beta@2.0.0   ${file} changed: expected ${lock.packages.beta?.files["dist/hook.js"]} (hookyard.lock), found ${computeIntegrity(bytes)}`,
    );
    expect(result.stdout).not.toContain("verified");
    expect(result.stderr).toBe(
      "hookyard: CLI_ERR_INTEGRITY: 1 of 2 installed packages do not match hookyard.lock (beta): run `hookyard install` to restore the store from the registry\n",
    );
  });

  it("refuses a file the lock does not list, even a harmless one", async () => {
    const { root, store } = await installed();
    const extra = join(store.alpha as string, "dist", "extra.js");
    await writeFile(extra, "export {};\n");
    const result = await verify(root);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain(
      `alpha@1.0.0  ${extra} is not in hookyard.lock (found ${computeIntegrity(Buffer.from("export {};\n"))})`,
    );
    expect(result.stdout).toContain("beta@2.0.0   ok");
  });

  it("refuses a missing store folder and a missing file", async () => {
    const { root, store, lock } = await installed();
    await rm(store.alpha as string, { recursive: true });
    await unlink(join(store.beta as string, "README.md"));
    const result = await verify(root);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain(`alpha@1.0.0  store folder ${store.alpha} is missing`);
    expect(result.stdout).toContain(
      `beta@2.0.0   ${join(store.beta as string, "README.md")} is missing (expected ${lock.packages.beta?.files["README.md"]})`,
    );
    expect(result.stderr).toContain("2 of 2 installed packages do not match hookyard.lock (alpha, beta)");
  });

  it("refuses a symbolic link in place of a file, even one pointing at the right bytes", async () => {
    const { root, store } = await installed();
    const readme = join(store.alpha as string, "README.md");
    const copy = join(await tempDir(), "README.md");
    await writeFile(copy, await readFile(readme));
    await unlink(readme);
    await symlink(copy, readme);
    const result = await verify(root);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain(`alpha@1.0.0  ${readme} is not a regular file`);
  });

  it("--json lists every package with its problems", async () => {
    const { root, store, lock } = await installed();
    const extra = join(store.beta as string, "notes.txt");
    await writeFile(extra, "x");
    const result = await verify(root, "--json");
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toEqual({
      root,
      packages: [
        { name: "alpha", version: "1.0.0", store: store.alpha, ok: true, problems: [] },
        {
          name: "beta",
          version: "2.0.0",
          store: store.beta,
          ok: false,
          problems: [
            { kind: "extra", file: "notes.txt", path: extra, found: computeIntegrity(Buffer.from("x")) },
          ],
        },
      ],
    });
    expect(lock.packages.beta?.files["notes.txt"]).toBeUndefined();
  });

  it("exits 0 with a note when nothing is installed", async () => {
    const root = await workspace({ "hookyard.json": {} });
    const none = await verify(root);
    expect(none).toMatchObject({ code: 0, stderr: "" });
    expect(none.stdout).toBe(`nothing is installed: ${join(root, lockFileName)} lists no packages\n`);
    await writeFile(join(root, lockFileName), JSON.stringify({ lockfileVersion: 1, packages: {} }));
    expect(await verify(root)).toMatchObject({ code: 0, stdout: none.stdout });
    expect(JSON.parse((await verify(root, "--json")).stdout)).toEqual({ root, packages: [] });
  });

  it("exits 1 with RUN_ERR_LOCK_INVALID when hookyard.lock is not a lockfile", async () => {
    const root = await workspace({ "hookyard.json": {}, [lockFileName]: '{"lockfileVersion": 2}' });
    const result = await verify(root);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      new RegExp(
        `^hookyard: RUN_ERR_LOCK_INVALID: ${join(root, lockFileName).replaceAll("/", "\\/")}: lockfileVersion`,
      ),
    );
  });
});
