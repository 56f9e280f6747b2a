import { mkdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, writeFiles } from "../../../helpers/temp.js";
import { agentSession } from "../../agent-check.js";
import { brokerFor, canaryFile, expectBrokerError, expectDenied } from "../helpers.js";

/** A workspace with docs/ inside, and a directory next to it (outside the workspace) holding a canary. */
async function layout() {
  const base = await tempDir();
  const root = join(base, "ws");
  const outside = join(base, "outside");
  await mkdir(outside);
  await writeFiles(root, { "docs/guide.md": "# guide", "src/main.ts": "main" });
  return { base, root, outside, canary: await canaryFile(outside) };
}

/** What a hook granted fs.read:. and fs.write:. does with them in the agent check. */
const readAndWrite = `await api.fs.writeFile("notes/agent.md", "noted");
  return (await api.fs.readFile("docs/guide.md")) + " / " + (await api.fs.readFile("notes/agent.md"));`;

describe("a hook climbing out of its grants by path", () => {
  it("reads, lists and stats what fs.read grants, and gets plain JSON back", async () => {
    const { root } = await layout();
    const { call } = brokerFor(root, ["fs.read:docs"]);
    expect(await call("fs.readFile", "docs/guide.md")).toBe("# guide");
    expect(await call("fs.readdir", "docs")).toEqual(["guide.md"]);
    expect(await call("fs.stat", "docs/guide.md")).toEqual({
      type: "file",
      size: 7,
      mtimeMs: expect.any(Number),
    });
    expect(await call("fs.stat", "./docs/")).toMatchObject({ type: "directory" });
  });

  it("cannot climb out with ..; the message does not show where the workspace is", async () => {
    const { root, base, canary } = await layout();
    const { call } = brokerFor(root, ["fs.read:.", "fs.write:."]);
    for (const path of ["../outside/canary.txt", "docs/../../outside/canary.txt", ".."]) {
      await expectBrokerError(call("fs.readFile", path), "BROKER_ERR_BAD_ARGS", [base]);
      await expectBrokerError(call("fs.writeFile", path, "pwned"), "BROKER_ERR_BAD_ARGS", [base]);
    }
    expect(await canary.unchanged()).toBe(true);
    const used = await agentSession({
      root,
      grants: ["fs.read:.", "fs.write:."],
      use: readAndWrite,
      secrets: [canary.content],
    });
    expect(used).toBe("# guide / noted");
  });

  it("checks a path that climbs and comes back (docs/../src) as where it lands", async () => {
    const { root } = await layout();
    const { call } = brokerFor(root, ["fs.read:docs"]);
    await expectDenied(call("fs.readFile", "docs/../src/main.ts"), "fs.read:src/main.ts");
    const used = await agentSession({
      root,
      grants: ["fs.read:docs"],
      use: 'return api.fs.readFile("docs/guide.md");',
    });
    expect(used).toBe("# guide");
  });

  it("matches an absolute path only against absolute grants", async () => {
    const { root, outside, canary } = await layout();
    const { call } = brokerFor(root, ["fs.read:.", "fs.write:."]);
    await expectDenied(call("fs.readFile", canary.path), `fs.read:${canary.path}`);
    // Even the workspace's own files, by absolute path, need an absolute grant.
    await expectDenied(
      call("fs.readFile", join(root, "docs/guide.md")),
      `fs.read:${join(root, "docs/guide.md")}`,
    );
    await expectDenied(
      call("fs.writeFile", join(outside, "new.txt"), "x"),
      `fs.write:${join(outside, "new.txt")}`,
    );

    const absolute = brokerFor(root, [`fs.read:${outside}`]);
    expect(await absolute.call("fs.readFile", canary.path)).toBe(canary.content);
    await expectDenied(absolute.call("fs.readFile", "docs/guide.md"), "fs.read:docs/guide.md");
    const used = await agentSession({
      root,
      grants: ["fs.read:.", "fs.write:."],
      use: readAndWrite,
      secrets: [canary.content],
    });
    expect(used).toBe("# guide / noted");
  });

  it("refuses a NUL byte in a path, which would cut the path short in C", async () => {
    const { root, canary } = await layout();
    const { call } = brokerFor(root, ["fs.read:.", "fs.write:."]);
    await expectBrokerError(call("fs.readFile", "docs/guide.md\0.png"), "BROKER_ERR_BAD_ARGS");
    await expectBrokerError(call("fs.writeFile", "docs/x\0", "data"), "BROKER_ERR_BAD_ARGS");
    await expectBrokerError(call("fs.stat", "\0"), "BROKER_ERR_BAD_ARGS");
    const used = await agentSession({
      root,
      grants: ["fs.read:.", "fs.write:."],
      use: readAndWrite,
      secrets: [canary.content],
    });
    expect(used).toBe("# guide / noted");
  });

  it("keeps fs.write and fs.read apart: neither implies the other", async () => {
    const { root } = await layout();
    const writer = brokerFor(root, ["fs.write:docs"]);
    await expectDenied(writer.call("fs.readFile", "docs/guide.md"), "fs.read:docs/guide.md");
    await expectDenied(writer.call("fs.readdir", "docs"), "fs.read:docs");
    await expectDenied(writer.call("fs.stat", "docs"), "fs.read:docs");
    expect(await writer.call("fs.writeFile", "docs/guide.md", "rewritten")).toBeNull();

    const reader = brokerFor(root, ["fs.read:docs"]);
    await expectDenied(reader.call("fs.writeFile", "docs/guide.md", "pwned"), "fs.write:docs/guide.md");
    expect(await readFile(join(root, "docs/guide.md"), "utf8")).toBe("rewritten");
    const used = await agentSession({
      root,
      grants: ["fs.read:docs"],
      use: 'return api.fs.readFile("docs/guide.md");',
    });
    expect(used).toBe("rewritten");
  });

  it("writes create missing directories inside the grant, and nothing outside it", async () => {
    const { root } = await layout();
    const { call } = brokerFor(root, ["fs.write:out/reports"]);
    expect(await call("fs.writeFile", "out/reports/2024/summary.md", "ok")).toBeNull();
    expect(await readFile(join(root, "out/reports/2024/summary.md"), "utf8")).toBe("ok");
    await expectDenied(call("fs.writeFile", "out/elsewhere.md", "x"), "fs.write:out/elsewhere.md");
    await expect(stat(join(root, "out/elsewhere.md"))).rejects.toMatchObject({ code: "ENOENT" });
    const used = await agentSession({
      root,
      grants: ["fs.write:out/reports"],
      use: 'await api.fs.writeFile("out/reports/agent.md", "from the agent\'s hook"); return "wrote";',
    });
    expect(used).toBe("wrote");
    expect(await readFile(join(root, "out/reports/agent.md"), "utf8")).toBe("from the agent's hook");
  });

  it("never writes hookyard's own files or .git through a broad grant, only through one that names them", async () => {
    const { root } = await layout();
    await writeFiles(root, { "hookyard.json": "{}", ".git/config": "[core]" });
    const { call } = brokerFor(root, ["fs.write:.", "fs.read:."]);
    await expectDenied(call("fs.writeFile", "hookyard.json", "{}"), "fs.write:hookyard.json");
    await expectDenied(call("fs.writeFile", "hookyard.lock", "{}"), "fs.write:hookyard.lock");
    await expectDenied(call("fs.writeFile", ".hookyard/store/x.js", "x"), "fs.write:.hookyard/store/x.js");
    await expectDenied(
      call("fs.writeFile", ".git/hooks/pre-commit", "rm -rf ~"),
      "fs.write:.git/hooks/pre-commit",
    );
    expect(await readFile(join(root, "hookyard.json"), "utf8")).toBe("{}");
    await expect(stat(join(root, ".git/hooks"))).rejects.toMatchObject({ code: "ENOENT" });
    // Reading them is what fs.read:. means.
    expect(await call("fs.readFile", ".git/config")).toBe("[core]");

    const named = brokerFor(root, ["fs.write:.git/hooks"]);
    expect(await named.call("fs.writeFile", ".git/hooks/pre-commit", "#!/bin/sh")).toBeNull();
    const used = await agentSession({
      root,
      grants: ["fs.write:.", "fs.read:."],
      use: 'await api.fs.writeFile("notes/agent.md", "noted"); return api.fs.readFile(".git/config");',
    });
    expect(used).toBe("[core]");
    expect(await readFile(join(root, "notes/agent.md"), "utf8")).toBe("noted");
  });

  it("caps what it reads and writes", async () => {
    const { root } = await layout();
    await writeFiles(root, { "docs/big.txt": "x".repeat(2000) });
    const { call } = brokerFor(root, ["fs.read:docs", "fs.write:docs"], {
      limits: { readBytes: 1000, writeBytes: 1000 },
    });
    await expectBrokerError(call("fs.readFile", "docs/big.txt"), "BROKER_ERR_TOO_LARGE");
    await expectBrokerError(call("fs.writeFile", "docs/new.txt", "y".repeat(1001)), "BROKER_ERR_TOO_LARGE");
    await expect(stat(join(root, "docs/new.txt"))).rejects.toMatchObject({ code: "ENOENT" });
    expect(await call("fs.writeFile", "docs/new.txt", "y".repeat(1000))).toBeNull();
    const used = await agentSession({
      root,
      grants: ["fs.read:docs", "fs.write:docs"],
      use: 'return api.fs.readFile("docs/new.txt");',
    });
    expect(used).toBe("y".repeat(1000));
  });

  it("says what is wrong in words, not with host errors", async () => {
    const { root, base } = await layout();
    const { call } = brokerFor(root, ["fs.read:docs", "fs.write:docs"]);
    const missing = await expectBrokerError(call("fs.readFile", "docs/missing.md"), "BROKER_ERR_NOT_FOUND", [
      base,
    ]);
    expect(missing.message).toBe("cannot read docs/missing.md: no such file or directory");
    await expectBrokerError(call("fs.readFile", "docs"), "BROKER_ERR_WRONG_TYPE", [base]);
    await expectBrokerError(call("fs.readdir", "docs/guide.md"), "BROKER_ERR_WRONG_TYPE", [base]);
    await expectBrokerError(call("fs.writeFile", "docs", "x"), "BROKER_ERR_WRONG_TYPE", [base]);
    const used = await agentSession({
      root,
      grants: ["fs.read:docs", "fs.write:docs"],
      use: 'await api.fs.writeFile("docs/missing.md", "found"); return api.fs.readFile("docs/missing.md");',
    });
    expect(used).toBe("found");
  });
});
