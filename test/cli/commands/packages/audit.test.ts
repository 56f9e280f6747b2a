import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lockEntryRegistry } from "../../../../client/access/lock-registry.js";
import { formatLockfile, type LockEntry, lockfileSchema } from "../../../../workspace/lockfile.js";
import { runCli } from "../../../helpers/run-cli.js";
import { tempDir, workspace } from "../../../helpers/temp.js";
import {
  hookPackage,
  type Json,
  publish,
  startRegistry,
  type TestRegistry,
} from "../../../registry/helpers.js";

/** Publishes name@version and returns the lock entry `hookyard install` would have written for it. */
async function published(reg: TestRegistry, name: string, version = "1.0.0"): Promise<LockEntry> {
  const answer = await publish(reg, reg.admin, await hookPackage({ name, version }), name, version);
  expect(answer.status, answer.bytes.toString()).toBe(201);
  const v = answer.json;
  return {
    version,
    resolved: `${reg.url}${v.tarball}`,
    integrity: v.integrity,
    keyId: v.keyId,
    signature: v.signature,
    trust: "sandboxed",
    grants: [],
    requested: v.capabilities,
    main: "dist/hook.js",
    files: { "dist/hook.js": v.integrity },
  };
}

/** A workspace whose hookyard.lock holds `packages`, checked against the lockfile schema. */
async function lockedWorkspace(packages: Record<string, LockEntry>): Promise<string> {
  const text = formatLockfile({ lockfileVersion: 1, packages });
  lockfileSchema.parse(JSON.parse(text));
  return workspace({ "hookyard.lock": text });
}

async function audit(cwd: string, ...args: string[]) {
  const home = await tempDir();
  return runCli(["audit", ...args], { cwd, env: { HOOKYARD_CONFIG: join(home, "config.json") } });
}

async function post(reg: TestRegistry, path: string, json: Json): Promise<void> {
  const answer = await reg.call(path, { method: "POST", token: reg.admin, json });
  expect([200, 201], answer.bytes.toString()).toContain(answer.status);
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** clean@1.0.0; vuln@1.0.0 under a high advisory fixed in 1.1.0; old@1.0.0 yanked. */
async function mixedWorkspace(reg: TestRegistry): Promise<string> {
  const packages = {
    clean: await published(reg, "clean"),
    vuln: await published(reg, "vuln"),
    old: await published(reg, "old"),
  };
  await published(reg, "vuln", "1.1.0");
  await post(reg, "/v1/advisories", {
    package: "vuln",
    range: "<1.1.0",
    severity: "high",
    text: "leaks env",
  });
  // Names clean, but not the installed version: must not be reported.
  await post(reg, "/v1/advisories", {
    package: "clean",
    range: ">=2.0.0",
    severity: "critical",
    text: "future breakage",
  });
  await post(reg, "/v1/packages/old/1.0.0/yank", { reason: "blocks every tool call" });
  return lockedWorkspace(packages);
}

describe("hookyard audit", () => {
  it("lists advisories that apply and yanked versions, grouped by package, with what to do", async () => {
    const reg = await startRegistry();
    const cwd = await mixedWorkspace(reg);
    const result = await audit(cwd);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    const out = result.stdout;
    const vuln = out.slice(out.indexOf("vuln@1.0.0"));
    expect(vuln.startsWith(`vuln@1.0.0 (${reg.url})\n`)).toBe(true);
    expect(vuln).toMatch(/^ {2}high +advisory \d+ \(versions <1\.1\.0\): leaks env$/m);
    expect(vuln).toContain(
      "  what to do: hookyard update vuln (1.1.0 is not yanked and no advisory names it)\n",
    );
    const old = out.slice(out.indexOf("old@1.0.0"));
    expect(old).toMatch(/^ {2}moderate +yanked: blocks every tool call$/m);
    expect(old).toContain("what to do: no fixed version yet");
    expect(out).not.toContain("clean@1.0.0");
    expect(out).not.toContain("future breakage");
    expect(out.trimEnd().split("\n").at(-1)).toBe(
      "3 packages audited: 2 findings in 2 packages (1 high, 1 moderate)",
    );
  });

  it("--level sets the severity that fails: critical passes, high fails", async () => {
    const reg = await startRegistry();
    const cwd = await mixedWorkspace(reg);
    const critical = await audit(cwd, "--level", "critical");
    expect(critical.code).toBe(0);
    expect(critical.stdout).toContain("leaks env");
    expect(critical.stdout).toContain("; none at or above --level critical\n");
    expect((await audit(cwd, "--level", "high")).code).toBe(1);
    expect((await audit(cwd, "--level", "moderate")).code).toBe(1);
    const bogus = await audit(cwd, "--level", "severe");
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain("severe");
  });

  it("--json lists every package with its findings and a summary", async () => {
    const reg = await startRegistry();
    const cwd = await mixedWorkspace(reg);
    const result = await audit(cwd, "--json");
    expect(result.code).toBe(1);
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({
      level: "low",
      failed: true,
      summary: { packages: 3, findings: 2, bySeverity: { low: 0, moderate: 1, high: 1, critical: 0 } },
    });
    const byName = Object.fromEntries(json.packages.map((p: Json) => [p.name, p]));
    expect(byName.clean).toMatchObject({ version: "1.0.0", registry: reg.url, findings: [], fixedIn: null });
    expect(byName.vuln.findings).toEqual([
      { kind: "advisory", severity: "high", id: expect.any(Number), range: "<1.1.0", text: "leaks env" },
    ]);
    expect(byName.vuln.fixedIn).toBe("1.1.0");
    expect(byName.old.findings).toEqual([
      { kind: "yanked", severity: "moderate", reason: "blocks every tool call" },
    ]);
  });

  it("a deprecated version is shown but is not a finding", async () => {
    const reg = await startRegistry();
    const cwd = await lockedWorkspace({ clean: await published(reg, "clean") });
    await post(reg, "/v1/packages/clean/1.0.0/deprecate", { message: "use clean2" });
    const result = await audit(cwd);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ {2}note +deprecated: use clean2$/m);
    expect(result.stdout).not.toContain("what to do");
    expect(result.stdout.trimEnd().endsWith("1 package audited: no findings")).toBe(true);
  });

  it("asks each package's own registry, whatever HOOKYARD_REGISTRY says", async () => {
    const home = await startRegistry();
    const other = await startRegistry();
    await published(home, "vuln");
    const cwd = await lockedWorkspace({ vuln: await published(other, "vuln") });
    await post(other, "/v1/advisories", { package: "vuln", range: "*", severity: "critical", text: "rce" });
    const result = await runCli(["audit", "--json"], {
      cwd,
      env: { HOOKYARD_REGISTRY: home.url, HOOKYARD_CONFIG: join(await tempDir(), "config.json") },
    });
    expect(result.code).toBe(1);
    const [vuln] = JSON.parse(result.stdout).packages;
    expect(vuln).toMatchObject({ registry: other.url, findings: [{ severity: "critical", text: "rce" }] });
  });

  it("with no lockfile, or an empty one, says nothing is installed and exits 0", async () => {
    const none = await audit(await workspace());
    expect(none).toMatchObject({ code: 0, stderr: "" });
    expect(none.stdout).toContain("no community hooks are installed");
    const empty = await audit(await lockedWorkspace({}));
    expect(empty.code).toBe(0);
    expect(empty.stdout).toContain("no community hooks are installed");
    expect(JSON.parse((await audit(await lockedWorkspace({}), "--json")).stdout)).toMatchObject({
      failed: false,
      packages: [],
    });
  });

  it("an unreachable registry is an error (exit 1), never a clean report", async () => {
    const reg = await startRegistry();
    const entry = await published(reg, "clean");
    const port = await closedPort();
    const cwd = await lockedWorkspace({
      clean: { ...entry, resolved: `http://127.0.0.1:${port}/v1/packages/clean/1.0.0/tarball` },
    });
    for (const args of [[], ["--json"], ["--level", "critical"]]) {
      const result = await audit(cwd, ...args);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(/^hookyard: CLI_ERR_REGISTRY_UNREACHABLE: .*127\.0\.0\.1:\d+/);
    }
  });

  it("an installed version its registry does not have is an error, not a pass", async () => {
    const reg = await startRegistry();
    const entry = await published(reg, "clean");
    const cwd = await lockedWorkspace({ clean: { ...entry, version: "9.9.9" } });
    const result = await audit(cwd);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^hookyard: CLI_ERR_NOT_FOUND: clean@9\.9\.9 .*is not in the registry at /);
  });

  it("a resolved URL that is not an http(s) registry tarball URL is refused", async () => {
    const reg = await startRegistry();
    const entry = await published(reg, "clean");
    for (const resolved of ["file:///v1/packages/clean/1.0.0/tarball", `${reg.url}/clean-1.0.0.tgz`]) {
      const result = await audit(await lockedWorkspace({ clean: { ...entry, resolved } }));
      expect(result.code, resolved).toBe(1);
      expect(result.stderr, resolved).toMatch(/^hookyard: RUN_ERR_LOCK_INVALID: hookyard\.lock: clean's/);
    }
  });

  it("an invalid hookyard.lock is RUN_ERR_LOCK_INVALID, exit 1", async () => {
    const result = await audit(await workspace({ "hookyard.lock": "{ not json" }));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^hookyard: RUN_ERR_LOCK_INVALID: /);
  });
});

describe("lockEntryRegistry", () => {
  it("is the resolved URL up to /v1/packages/, keeping a path prefix and dropping query and fragment", () => {
    const at = (resolved: string) => lockEntryRegistry("x", { resolved });
    expect(at("http://127.0.0.1:4873/v1/packages/x/1.0.0/tarball")).toBe("http://127.0.0.1:4873");
    expect(at("https://hooks.example.com/reg/v1/packages/%40acme%2Fguard/1.0.0/tarball?a=1#b")).toBe(
      "https://hooks.example.com/reg",
    );
    expect(at("https://example.com/v1/packages/v1/packages/x/1.0.0/tarball")).toBe(
      "https://example.com/v1/packages",
    );
    expect(() => at("https://user:pw@example.com/v1/packages/x/1.0.0/tarball")).toThrow(/credentials/);
  });
});
