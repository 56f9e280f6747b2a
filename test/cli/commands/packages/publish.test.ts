import { readFile, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { computeIntegrity } from "../../../../package/integrity.js";
import { runCli } from "../../../helpers/run-cli.js";
import { tempDir } from "../../../helpers/temp.js";
import { hookPackage, startRegistry, type TestRegistry, tokenFor } from "../../../registry/helpers.js";

/** A fresh `hookyard new` package named `name` in a temp folder, and a user config file that does not exist. */
async function scaffold(name = "guard"): Promise<{ root: string; dir: string; env: NodeJS.ProcessEnv }> {
  const root = await tempDir();
  const env = { HOOKYARD_CONFIG: join(root, "user", "config.json") };
  const made = await runCli(["new", name], { cwd: root, env });
  expect(made.code).toBe(0);
  return { root, dir: join(root, name.replace(/^@[^/]+\//, "")), env };
}

async function versionOnRegistry(reg: TestRegistry, name: string, version: string) {
  const answer = await reg.call(`/v1/packages/${encodeURIComponent(name)}`);
  expect(answer.status).toBe(200);
  return answer.json.versions[version];
}

describe("hookyard publish", () => {
  it("publishes a folder: the registry holds the version with the integrity pack printed", async () => {
    const reg = await startRegistry();
    const token = await tokenFor(reg, "alice");
    const { dir, env } = await scaffold();
    const packed = await runCli(["pack", "--json"], { cwd: dir, env });
    const { integrity } = JSON.parse(packed.stdout) as { integrity: string };

    const result = await runCli(["publish", "--registry", reg.url, "--token", token], { cwd: dir, env });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`published guard@0.1.0 to ${reg.url} (integrity ${integrity})\n`);
    expect((await versionOnRegistry(reg, "guard", "0.1.0")).integrity).toBe(integrity);
    expect(result.stdout + result.stderr).not.toContain(token);
  });

  it("publishes a .tgz byte for byte, from anywhere, with --json", async () => {
    const reg = await startRegistry();
    const token = await tokenFor(reg, "alice");
    const { root, dir, env } = await scaffold("@alice/guard");
    const tgz = join(root, "guard.tgz");
    expect((await runCli(["pack", dir, "--out", tgz], { cwd: root, env })).code).toBe(0);
    const bytes = await readFile(tgz);

    const result = await runCli(["publish", tgz, "--json", "--registry", reg.url], {
      cwd: await tempDir(),
      env: { ...env, HOOKYARD_TOKEN: token },
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      name: "@alice/guard",
      version: "0.1.0",
      registry: reg.url,
      integrity: computeIntegrity(bytes),
      size: bytes.length,
    });
    const version = await versionOnRegistry(reg, "@alice/guard", "0.1.0");
    expect(version.integrity).toBe(computeIntegrity(bytes));
    const download = await reg.call(version.tarball.replace(/^\/?/, "/"));
    expect(download.bytes).toEqual(bytes);
  });

  it("without a token names the three places one comes from, and bundles nothing", async () => {
    const reg = await startRegistry();
    const { dir, env } = await scaffold();
    const result = await runCli(["publish", "--registry", reg.url], { cwd: dir, env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("CLI_ERR_TOKEN_MISSING");
    for (const source of ["--token", "HOOKYARD_TOKEN", "hookyard login"])
      expect(result.stderr).toContain(source);
    await expect(stat(join(dir, "dist"))).rejects.toThrow("ENOENT");
  });

  it("with a token the registry does not know shows its REG code, and never the token", async () => {
    const reg = await startRegistry();
    const { dir, env } = await scaffold();
    const token = "hyk_this-token-is-secret-and-unknown";
    for (const how of [
      { args: ["--token", token], env },
      { args: [], env: { ...env, HOOKYARD_TOKEN: token } },
    ]) {
      const result = await runCli(["publish", "--registry", reg.url, ...how.args], {
        cwd: dir,
        env: how.env,
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("REG_ERR_TOKEN_INVALID");
      expect(result.stderr).toContain("hookyard login");
      expect(result.stdout + result.stderr).not.toContain("secret");
    }
    const debug = await runCli(["publish", "--registry", reg.url, "--token", token, "--debug"], {
      cwd: dir,
      env,
    });
    expect(debug.stdout + debug.stderr).not.toContain("secret");
  });

  it("refuses a token that cannot be sent without quoting it", async () => {
    const reg = await startRegistry();
    const { dir, env } = await scaffold();
    for (const token of ["two-line\nsecret", "sécret", "with secret space"]) {
      const result = await runCli(["publish", "--registry", reg.url, "--token", token], { cwd: dir, env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("is not a registry token");
      expect(result.stdout + result.stderr).not.toMatch(/secret|sécret/);
    }
  });

  it("publishing the same version twice exits 1 with REG_ERR_VERSION_EXISTS and says once which version to use", async () => {
    const reg = await startRegistry();
    const token = await tokenFor(reg, "alice");
    const { dir, env } = await scaffold();
    const args = ["publish", "--registry", reg.url, "--token", token];
    expect((await runCli(args, { cwd: dir, env })).code).toBe(0);
    const again = await runCli(args, { cwd: dir, env });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^hookyard: CLI_ERR_REGISTRY_REFUSED: .*\(REG_ERR_VERSION_EXISTS\)/);
    expect(again.stderr).toBe(
      `hookyard: CLI_ERR_REGISTRY_REFUSED: guard@0.1.0 is already on ${reg.url}, and versions are immutable (even yanked ones) (REG_ERR_VERSION_EXISTS): set "version" in package.json to 0.1.1 (npm version patch) and publish again\n`,
    );
  });

  it("refuses, before uploading, a .tgz that is not a package and one whose manifest is invalid", async () => {
    const reg = await startRegistry();
    const token = await tokenFor(reg, "alice");
    const root = await tempDir();
    const env = { HOOKYARD_CONFIG: join(root, "config.json"), HOOKYARD_TOKEN: token };
    await writeFile(join(root, "junk.tgz"), "this is not gzip");
    const junk = await runCli(["publish", "junk.tgz", "--registry", reg.url], { cwd: root, env });
    expect(junk.code).toBe(1);
    expect(junk.stderr).toMatch(/CLI_ERR_TARBALL_INVALID: .*junk\.tgz: .*\(TARBALL_ERR_CORRUPT\)/);

    const bad = await hookPackage({ name: "bad", manifest: { version: "1.0" } });
    await writeFile(join(root, "bad.tgz"), bad);
    const invalid = await runCli(["publish", "bad.tgz", "--registry", reg.url], { cwd: root, env });
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(
      /CLI_ERR_MANIFEST_INVALID: .*bad\.tgz: .*version: .*\(PKG_ERR_MANIFEST_INVALID\)/,
    );
    expect((await reg.call("/v1/packages/bad")).status).toBe(404);

    const redos = await hookPackage({
      name: "redos",
      manifest: { hookyard: { main: "dist/hook.js", events: ["tool_before"], matcher: { args: "(a+)+$" } } },
    });
    await writeFile(join(root, "redos.tgz"), redos);
    const unsafe = await runCli(["publish", "redos.tgz", "--registry", reg.url], { cwd: root, env });
    expect(unsafe.code).toBe(1);
    expect(unsafe.stderr).toMatch(
      /CLI_ERR_UNSAFE_MATCHER: .*redos\.tgz: .*hookyard\.matcher\.args: the pattern "\(a\+\)\+\$" repeats a group .*\(PKG_ERR_UNSAFE_MATCHER\)/,
    );
    expect((await reg.call("/v1/packages/redos")).status).toBe(404);
  });

  it("never sends HOOKYARD_TOKEN to a registry only the project's hookyard.json names", async () => {
    const seen: string[] = [];
    const sniffer = createServer((request, response) => {
      seen.push(`${request.method} ${request.headers.authorization ?? ""}`);
      response.end("{}");
    });
    await new Promise<void>((listening) => sniffer.listen(0, "127.0.0.1", listening));
    const url = `http://127.0.0.1:${(sniffer.address() as AddressInfo).port}`;
    try {
      const { dir, env } = await scaffold();
      await writeFile(join(dir, "hookyard.json"), JSON.stringify({ registry: url }));
      const result = await runCli(["publish"], {
        cwd: dir,
        env: { ...env, HOOKYARD_TOKEN: "hyk_ci_secret" },
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        `HOOKYARD_TOKEN is not sent to ${url}, which this project's hookyard.json names`,
      );
      expect(seen).toEqual([]);
    } finally {
      sniffer.close();
    }
  });

  it("says the registry cannot be reached when nothing listens there", async () => {
    const { dir, env } = await scaffold();
    const result = await runCli(["publish", "--registry", "http://127.0.0.1:9", "--token", "hyk_x"], {
      cwd: dir,
      env,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("CLI_ERR_REGISTRY_UNREACHABLE");
  });
});
