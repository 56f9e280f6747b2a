import { chmod, readFile, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { registryUser } from "../../../helpers/registry-user.js";
import { runCli } from "../../../helpers/run-cli.js";
import { startRegistry, type TestRegistry, tokenFor } from "../../../registry/helpers.js";

/** What the registry says of a token now: 200, or its 401 code. */
async function tokenState(reg: TestRegistry, token: string): Promise<string> {
  const answer = await reg.call("/v1/whoami", { token });
  return answer.status === 200 ? "ok" : answer.json.error.code;
}

/** A user logged in with `hookyard login`: their token is in their user config. */
async function loggedIn(reg: TestRegistry, owner = "alice") {
  const user = await registryUser(reg, owner);
  const login = await runCli(["login", "--registry", reg.url], {
    cwd: user.cwd,
    env: { HOOKYARD_CONFIG: user.config },
    input: `${user.token}\n`,
  });
  expect(login.code).toBe(0);
  return user;
}

describe("hookyard whoami", () => {
  it("names the token's owner, scope and id, from the user config `hookyard login` wrote", async () => {
    const reg = await startRegistry();
    const alice = await loggedIn(reg);
    const result = await alice.run(["whoami"], {});
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`^logged in to ${reg.url} as alice\ntoken [0-9a-f]{16}: publish scope, never expires\n$`),
    );
    expect(result.stdout).not.toContain(alice.token);
    const json = JSON.parse((await alice.run(["whoami", "--json"], {})).stdout);
    expect(json).toMatchObject({ registry: reg.url, owner: "alice", scope: "publish", revokedAt: null });
    expect(JSON.stringify(json)).not.toContain(alice.token);
  });

  it("says an admin token is the admin's", async () => {
    const reg = await startRegistry();
    const alice = await registryUser(reg, "alice");
    const result = await alice.run(["whoami"], { HOOKYARD_TOKEN: reg.admin });
    expect(result.stdout).toMatch(/as admin\ntoken \S+( "[^"]*")?: admin scope/);
  });

  it("without a token says not logged in and names hookyard login (exit 1); a refused token names its code", async () => {
    const reg = await startRegistry();
    const alice = await registryUser(reg, "alice");
    const none = await alice.run(["whoami"], {});
    expect(none.code).toBe(1);
    expect(none.stdout).toBe("");
    expect(none.stderr).toContain(`CLI_ERR_TOKEN_MISSING: not logged in: no token for ${reg.url}`);
    expect(none.stderr).toContain(`hookyard login --registry ${reg.url}`);

    const wrong = await alice.run(["whoami"], { HOOKYARD_TOKEN: "hyk_wrong-secret" });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("REG_ERR_TOKEN_INVALID");
    expect(wrong.stderr).toContain("hookyard login");
    expect(wrong.stderr).not.toContain("wrong-secret");
  });
});

describe("hookyard logout", () => {
  it("revokes the saved token on the registry, removes it from the user config, and says both; whoami then says not logged in", async () => {
    const reg = await startRegistry();
    const alice = await loggedIn(reg);
    const result = await alice.run(["logout"], {});
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(
        `^removed the token for ${reg.url} from ${alice.config}\nrevoked it on ${reg.url} \\(token [0-9a-f]{16}\\): it no longer works anywhere\n$`,
      ),
    );
    expect(JSON.parse(await readFile(alice.config, "utf8"))).toEqual({ tokens: {} });
    expect(await tokenState(reg, alice.token)).toBe("REG_ERR_TOKEN_REVOKED");
    const whoami = await alice.run(["whoami"], {});
    expect(whoami.code).toBe(1);
    expect(whoami.stderr).toContain("not logged in");

    const again = await alice.run(["logout"], {});
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(
      `not logged in to ${reg.url}: ${alice.config} holds no token for it; nothing was removed\n`,
    );
  });

  it("--no-revoke only forgets it: the token still works, and the output says so", async () => {
    const reg = await startRegistry();
    const alice = await loggedIn(reg);
    const result = await alice.run(["logout", "--no-revoke"], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`it still works on ${reg.url} (--no-revoke)`);
    expect(await tokenState(reg, alice.token)).toBe("ok");
    expect(JSON.parse(await readFile(alice.config, "utf8")).tokens).toEqual({});
  });

  it("removes a token the registry already revoked, and one it cannot reach (warning it may still work)", async () => {
    const reg = await startRegistry();
    const alice = await loggedIn(reg);
    const id = (await reg.call("/v1/whoami", { token: alice.token })).json.id;
    await reg.call(`/v1/tokens/${id}`, { method: "DELETE", token: reg.admin });
    const dead = await alice.run(["logout"], {});
    expect(dead.code).toBe(0);
    expect(dead.stdout).toContain(`${reg.url} no longer accepted it (REG_ERR_TOKEN_REVOKED)`);

    const bob = await loggedIn(reg, "bob");
    await reg.close();
    const unreachable = await bob.run(["logout"], {});
    expect(unreachable.code).toBe(0);
    expect(unreachable.stderr).toContain("warning: the token could not be revoked");
    expect(unreachable.stderr).toContain("CLI_ERR_REGISTRY_UNREACHABLE");
    expect(unreachable.stderr).toContain("hookyard token revoke <id>");
    expect(unreachable.stdout).toContain(`removed the token for ${reg.url} from ${bob.config}`);
    expect(unreachable.stdout + unreachable.stderr).not.toContain(bob.token);
    expect(JSON.parse(await readFile(bob.config, "utf8")).tokens).toEqual({});
  });

  it("keeps other registries' tokens, says HOOKYARD_TOKEN is still set, and refuses a config others may read (exit 3)", async () => {
    const reg = await startRegistry();
    const alice = await loggedIn(reg);
    const other = { "https://hooks.example.com": "hyk_other" };
    await writeFile(
      alice.config,
      JSON.stringify({ editor: "kept", tokens: { ...other, [reg.url]: alice.token } }),
      {
        mode: 0o600,
      },
    );
    const result = await alice.run(["logout"], { HOOKYARD_TOKEN: "hyk_from-env" });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("HOOKYARD_TOKEN is still set in your environment");
    expect(JSON.parse(await readFile(alice.config, "utf8"))).toEqual({ editor: "kept", tokens: other });

    await chmod(alice.config, 0o644);
    const unsafe = await alice.run(["logout"], {});
    expect(unsafe.code).toBe(3);
    expect(unsafe.stderr).toContain("CLI_ERR_TOKEN_FILE");
  });
});

describe("hookyard token list and revoke", () => {
  it("lists the caller's tokens with the one in use marked, never a secret", async () => {
    const reg = await startRegistry();
    const alice = await registryUser(reg, "alice");
    const second = await tokenFor(reg, "alice", "read");
    await tokenFor(reg, "bob");
    const result = await alice.run(["token", "list"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const current = (await reg.call("/v1/whoami", { token: alice.token })).json.id;
    expect(result.stdout).toContain(`tokens on ${reg.url} (* the one this command used):`);
    expect(result.stdout).toMatch(new RegExp(`${current} \\*\\s+alice\\s+publish`));
    expect(result.stdout).toMatch(/alice\s+read/);
    expect(result.stdout).not.toContain("bob");
    expect(result.stdout).not.toContain(alice.token);
    expect(result.stdout).not.toContain(second);
    const json = JSON.parse((await alice.run(["token", "list", "--json"])).stdout);
    expect(json.current).toBe(current);
    expect(json.tokens).toHaveLength(2);
  });

  it("revokes a token by id: it gets 401 from then on; an unknown id names hookyard token list", async () => {
    const reg = await startRegistry();
    const alice = await registryUser(reg, "alice");
    const ci = await reg.call("/v1/tokens", {
      method: "POST",
      token: alice.token,
      json: { description: "ci" },
    });
    const result = await alice.run(["token", "revoke", ci.json.id]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `revoked token ${ci.json.id} of alice on ${reg.url}: it fails there from now on`,
    );
    expect(result.stdout).toContain(`token ${ci.json.id} "ci": publish scope, revoked `);
    expect(await tokenState(reg, ci.json.token)).toBe("REG_ERR_TOKEN_REVOKED");
    expect(await tokenState(reg, alice.token)).toBe("ok");

    const unknown = await alice.run(["token", "revoke", "0123456789abcdef"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("REG_ERR_TOKEN_NOT_FOUND");
    expect(unknown.stderr).toContain("`hookyard token list` shows the ids of yours; nothing was revoked");
  });

  it("another owner's token is unknown to you and stays valid; your own current one can be revoked, and says so", async () => {
    const reg = await startRegistry();
    const alice = await registryUser(reg, "alice");
    const bob = await registryUser(reg, "bob");
    const bobsId = (await reg.call("/v1/whoami", { token: bob.token })).json.id;
    const refused = await alice.run(["token", "revoke", bobsId]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("REG_ERR_TOKEN_NOT_FOUND");
    expect(await tokenState(reg, bob.token)).toBe("ok");

    const own = await bob.run(["token", "revoke", bobsId]);
    expect(own.code).toBe(0);
    expect(own.stdout).toContain("it was the token this command used");
    expect(await tokenState(reg, bob.token)).toBe("REG_ERR_TOKEN_REVOKED");
    const after = await bob.run(["token", "list"]);
    expect(after.code).toBe(1);
    expect(after.stderr).toContain("REG_ERR_TOKEN_REVOKED");
  });

  it("refuses a secret given as the id without sending or printing it, and a malformed id (exit 2)", async () => {
    const reg = await startRegistry();
    const alice = await registryUser(reg, "alice");
    const secret = await alice.run(["token", "revoke", alice.token]);
    expect(secret.code).toBe(2);
    expect(secret.stderr).toContain("that is a token's secret, not its id");
    expect(secret.stdout + secret.stderr).not.toContain(alice.token);
    expect(await tokenState(reg, alice.token)).toBe("ok");
    const malformed = await alice.run(["token", "revoke", "../admin"]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain("CLI_ERR_USAGE");
  });
});
