import { mkdir, readdir, readFile, symlink } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, writeFiles } from "../../../helpers/temp.js";
import { agentSession } from "../../agent-check.js";
import { brokerFor, canaryFile, expectBrokerError, expectDenied } from "../helpers.js";

async function layout() {
  const base = await tempDir();
  const root = join(base, "ws");
  const outside = join(base, "outside");
  await mkdir(outside);
  await writeFiles(root, { "docs/guide.md": "# guide", "src/main.ts": "main" });
  return { base, root, outside, canary: await canaryFile(outside) };
}

/** The agent check for fs.write:docs: its hook writes a file there; what the file then holds. */
async function agentWrites(root: string, secrets: string[]): Promise<string> {
  const used = await agentSession({
    root,
    grants: ["fs.write:docs"],
    use: 'await api.fs.writeFile("docs/agent.md", "written by the agent\'s hook"); return "wrote";',
    secrets,
  });
  expect(used).toBe("wrote");
  return readFile(join(root, "docs/agent.md"), "utf8");
}

describe("a symlink inside a granted directory that leads out", () => {
  it("cannot be read, listed or stat-ed, even when it appears after the broker was made", async () => {
    const { root, outside, canary, base } = await layout();
    const { call } = brokerFor(root, ["fs.read:docs"]);
    expect(await call("fs.readFile", "docs/guide.md")).toBe("# guide");

    await symlink(canary.path, join(root, "docs/evil.md"));
    await symlink(outside, join(root, "docs/evil-dir"));
    await symlink(join(root, "src/main.ts"), join(root, "docs/sibling.ts"));

    await expectDenied(call("fs.readFile", "docs/evil.md"), "fs.read:docs/evil.md");
    await expectDenied(call("fs.readFile", "docs/evil-dir/canary.txt"), "fs.read:docs/evil-dir/canary.txt");
    await expectDenied(call("fs.readdir", "docs/evil-dir"), "fs.read:docs/evil-dir");
    await expectDenied(call("fs.stat", "docs/evil.md"), "fs.read:docs/evil.md");
    // Out of the grant but inside the workspace is still out of the grant.
    await expectDenied(call("fs.readFile", "docs/sibling.ts"), "fs.read:docs/sibling.ts");
    // Listing the granted directory shows the link's name, never what it leads to.
    expect(await call("fs.readdir", "docs")).toEqual(["evil-dir", "evil.md", "guide.md", "sibling.ts"]);
    const error = await call("fs.readFile", "docs/evil.md").catch((e: Error) => e);
    expect(String((error as Error).message)).not.toContain(base);
    const used = await agentSession({
      root,
      grants: ["fs.read:docs"],
      use: 'return api.fs.readFile("docs/guide.md");',
      secrets: [canary.content],
    });
    expect(used).toBe("# guide");
  });

  it("cannot be written through, to an existing file or into a linked directory", async () => {
    const { root, outside, canary } = await layout();
    const { call } = brokerFor(root, ["fs.write:docs"]);
    await symlink(canary.path, join(root, "docs/evil.md"));
    await symlink(outside, join(root, "docs/evil-dir"));

    await expectDenied(call("fs.writeFile", "docs/evil.md", "pwned"), "fs.write:docs/evil.md");
    await expectDenied(
      call("fs.writeFile", "docs/evil-dir/canary.txt", "pwned"),
      "fs.write:docs/evil-dir/canary.txt",
    );
    await expectDenied(
      call("fs.writeFile", "docs/evil-dir/new/file.txt", "pwned"),
      "fs.write:docs/evil-dir/new/file.txt",
    );
    expect(await canary.unchanged()).toBe(true);
    expect(await readdir(outside)).toEqual(["canary.txt"]);
    expect(await agentWrites(root, [canary.content])).toBe("written by the agent's hook");
  });

  it("that leads nowhere yet cannot be used to create a file outside", async () => {
    const { root, outside, canary } = await layout();
    const { call } = brokerFor(root, ["fs.write:docs"]);
    await symlink(join(outside, "planted.sh"), join(root, "docs/dangling"));
    await symlink(join(outside, "newdir"), join(root, "docs/dangling-dir"));

    await expectBrokerError(call("fs.writeFile", "docs/dangling", "pwned"), "BROKER_ERR_REFUSED");
    await expectBrokerError(call("fs.writeFile", "docs/dangling-dir/x.txt", "pwned"), "BROKER_ERR_REFUSED");
    expect(await readdir(outside)).toEqual(["canary.txt"]);
    expect(await agentWrites(root, [canary.content])).toBe("written by the agent's hook");
  });

  it("is followed when it stays inside the grant", async () => {
    const { root } = await layout();
    const { call } = brokerFor(root, ["fs.read:docs", "fs.write:docs"]);
    await symlink("guide.md", join(root, "docs/alias.md"));
    expect(await call("fs.readFile", "docs/alias.md")).toBe("# guide");
    expect(await call("fs.stat", "docs/alias.md")).toMatchObject({ type: "file" });
    expect(await call("fs.writeFile", "docs/alias.md", "# new")).toBeNull();
    expect(await readFile(join(root, "docs/guide.md"), "utf8")).toBe("# new");
  });

  it("is the user's to make: a granted path that is itself a link grants where it leads", async () => {
    const { root, outside, canary } = await layout();
    await symlink(outside, join(root, "shared"));
    const { call } = brokerFor(root, ["fs.read:shared"]);
    expect(await call("fs.readFile", "shared/canary.txt")).toBe(canary.content);
  });
});
