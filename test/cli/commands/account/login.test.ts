import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { type Io, main } from "../../../../cli/main.js";
import { runCli } from "../../../helpers/run-cli.js";
import { tempDir } from "../../../helpers/temp.js";
import { startRegistry, tokenFor } from "../../../registry/helpers.js";

/** A user config path in a folder that does not exist yet, as on a first login. */
async function userConfig(): Promise<{ root: string; file: string; env: NodeJS.ProcessEnv }> {
  const root = await tempDir();
  const file = join(root, "home", ".config", "hookyard", "config.json");
  return { root, file, env: { HOOKYARD_CONFIG: file } };
}

function login(registry: string, token: string, cwd: string, env: NodeJS.ProcessEnv) {
  return runCli(["login", "--registry", registry], { cwd, env, input: `${token}\nsecond line is ignored\n` });
}

describe("hookyard login", () => {
  it("saves the checked token under the registry's origin, mode 0600 in a 0700 folder, never printing it", async () => {
    const reg = await startRegistry();
    const token = await tokenFor(reg, "alice");
    const { root, file, env } = await userConfig();
    const result = await login(`${reg.url}/`, token, root, env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`saved the token for ${reg.url} in ${file} (readable by you only)\n`);
    expect(result.stdout).not.toContain(token);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ tokens: { [reg.url]: token } });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(file))).mode & 0o777).toBe(0o700);
  });

  it("merges the token into an existing config, keeping every other field and token", async () => {
    const reg = await startRegistry();
    const token = await tokenFor(reg, "alice");
    const { root, file, env } = await userConfig();
    await mkdir(dirname(file), { recursive: true });
    const existing = {
      registry: "https://hooks.example.com",
      tokens: { "https://hooks.example.com": "hyk_other", [reg.url]: "hyk_old" },
      editor: "kept as it is",
    };
    await writeFile(file, JSON.stringify(existing), { mode: 0o600 });
    expect((await login(reg.url, token, root, env)).code).toBe(0);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({
      ...existing,
      tokens: { "https://hooks.example.com": "hyk_other", [reg.url]: token },
    });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("writes nothing for a token the registry does not accept: unknown, revoked, or none at all", async () => {
    const reg = await startRegistry();
    const { root, file, env } = await userConfig();
    const unknown = await login(reg.url, "hyk_unknown-secret", root, env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("REG_ERR_TOKEN_INVALID");
    expect(unknown.stderr).toContain("nothing was saved");
    expect(unknown.stdout + unknown.stderr).not.toContain("unknown-secret");

    const revoked = await reg.call("/v1/tokens", {
      method: "POST",
      token: reg.admin,
      json: { owner: "bob" },
    });
    await reg.call(`/v1/tokens/${revoked.json.id}`, { method: "DELETE", token: reg.admin });
    const refused = await login(reg.url, revoked.json.token, root, env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("REG_ERR_TOKEN_REVOKED");
    expect(refused.stdout + refused.stderr).not.toContain(revoked.json.token);

    const empty = await runCli(["login", "--registry", reg.url], { cwd: root, env, input: "\n" });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("CLI_ERR_TOKEN_MISSING");

    await expect(stat(dirname(file))).rejects.toThrow("ENOENT");
  });

  it("then publish needs no --token; a config others may read is refused with exit 3", async () => {
    const reg = await startRegistry();
    const token = await tokenFor(reg, "alice");
    const { root, file, env } = await userConfig();
    expect((await runCli(["new", "guard"], { cwd: root, env })).code).toBe(0);
    expect((await login(reg.url, token, root, env)).code).toBe(0);

    const published = await runCli(["publish", "guard", "--registry", reg.url], { cwd: root, env });
    expect(published.stderr).toBe("");
    expect(published.stdout).toMatch(/^published guard@0\.1\.0 to /);

    await chmod(file, 0o644);
    const unsafe = await runCli(["publish", "guard", "--registry", reg.url], { cwd: root, env });
    expect(unsafe.code).toBe(3);
    expect(unsafe.stderr).toContain("CLI_ERR_TOKEN_FILE");
    expect(unsafe.stderr).toContain(`chmod 600 ${file}`);
    expect(unsafe.stdout + unsafe.stderr).not.toContain(token);
  });

  it("on a terminal asks for the token without echoing it", async () => {
    const reg = await startRegistry();
    const token = await tokenFor(reg, "alice");
    const { root, file, env } = await userConfig();
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    const out: string[] = [];
    const err: string[] = [];
    // Real streams, so a readline that echoed to them could.
    const sink = (into: string[]) =>
      new Writable({
        write(chunk, _encoding, done) {
          into.push(chunk.toString());
          done();
        },
      }) as Io["stdout"];
    const running = main(["login", "--registry", reg.url], {
      stdin,
      stdout: sink(out),
      stderr: sink(err),
      env: { NO_COLOR: "1", ...env },
      cwd: root,
    });
    // Typed one key at a time, then Enter, as a person would.
    for (const key of `${token}\r`) stdin.write(key);
    expect(await running).toBe(0);
    expect(err.join("")).toContain(`token for ${reg.url}: `);
    expect(out.join("") + err.join("")).not.toContain(token.slice(4));
    expect(JSON.parse(await readFile(file, "utf8")).tokens[reg.url]).toBe(token);
  });
});
