import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StateStore } from "../../runner/state.js";
import { trustedApi } from "../../runner/trusted-api.js";
import { recordingLogger } from "../helpers/logger.js";
import { workspace } from "../helpers/temp.js";

async function apiIn(files: Record<string, string> = {}) {
  const root = await workspace(files);
  const logger = recordingLogger();
  const state = new StateStore(join(root, ".hookyard", "state"));
  return { root, logger, api: trustedApi({ hook: "tester", root, state: state.forHook("tester"), logger }) };
}

describe("the trusted hook API", () => {
  it("reads and writes files relative to the workspace root, creating parent folders", async () => {
    const { root, api } = await apiIn({ "docs/a.md": "# A" });
    expect(await api.fs.readFile("docs/a.md")).toBe("# A");
    await api.fs.writeFile("out/deep/b.txt", "B");
    expect(await readFile(join(root, "out/deep/b.txt"), "utf8")).toBe("B");
    expect(await api.fs.readdir("docs")).toEqual(["a.md"]);
    expect(await api.fs.stat("docs")).toMatchObject({ type: "directory" });
    expect(await api.fs.stat("docs/a.md")).toMatchObject({ type: "file", size: 3 });
  });

  it("runs a command without a shell: metacharacters arrive as plain arguments", async () => {
    const { root, api } = await apiIn();
    const result = await api.process.exec("echo", ["$(touch pwned)", "a;b", "|c"]);
    expect(result).toEqual({ code: 0, stdout: "$(touch pwned) a;b |c\n", stderr: "" });
    expect(existsSync(join(root, "pwned"))).toBe(false);
  });

  it("gives a command its input on stdin, its exit code back, and runs in the workspace", async () => {
    const { root, api } = await apiIn();
    expect(await api.process.exec("cat", [], { input: "hello" })).toMatchObject({ code: 0, stdout: "hello" });
    expect(await api.process.exec("sh", ["-c", "pwd; exit 4"])).toMatchObject({
      code: 4,
      stdout: `${root}\n`,
    });
  });

  it("reports a missing command as a failed exec, not a crash", async () => {
    const { api } = await apiIn();
    const result = await api.process.exec("no-such-command-hookyard");
    expect(result.code).toBeNull();
    expect(result.stderr).toContain("ENOENT");
  });

  it("fetches over HTTP and returns status, headers and body", async () => {
    const { api } = await apiIn();
    const server = createServer((req, res) => {
      res.writeHead(201, { "x-seen": req.method ?? "" });
      req.pipe(res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await api.net.fetch(`http://127.0.0.1:${port}/x`, { method: "POST", body: "ping" });
      expect(result).toMatchObject({
        status: 201,
        body: "ping",
        headers: expect.objectContaining({ "x-seen": "POST" }),
      });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("reads env vars and logs tagged with the hook's name", async () => {
    const { api, logger } = await apiIn();
    process.env.HOOKYARD_TEST_VALUE = "42";
    try {
      expect(await api.env.get("HOOKYARD_TEST_VALUE")).toBe("42");
    } finally {
      delete process.env.HOOKYARD_TEST_VALUE;
    }
    api.log("checked", 3, "files");
    expect(logger.infos).toEqual(["[tester] checked 3 files"]);
  });

  it("tells the user when a state write a hook did not await fails", async () => {
    const { api, logger } = await apiIn();
    void api.state.set("count", 1n);
    await api.state.set("ok", 1);
    expect(logger.errors).toEqual([
      expect.stringMatching(/hook "tester": state "count" was not saved: .*JSON/),
    ]);
    expect(await api.state.get("ok")).toBe(1);
  });
});
