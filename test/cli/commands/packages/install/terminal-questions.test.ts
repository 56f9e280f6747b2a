import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { onTerminal } from "../../../../helpers/terminal.js";
import { startRegistry } from "../../../../registry/helpers.js";
import { emptyWorkspace, publishGuard } from "./fixtures.js";

/** Issue 20: install at a terminal asks before pinning a registry's key, and keeps answers typed ahead. */
describe("hookyard install at a terminal", () => {
  it("asks to trust the registry's key, then each grant, using answers typed before the questions", async () => {
    const registry = await startRegistry();
    await publishGuard(registry, "1.0.0");
    const ws = await emptyWorkspace();
    const keyId = (await registry.call("/v1/keys")).json.keys[0].keyId as string;
    const origin = new URL(registry.url).origin;
    const { code, screen } = await onTerminal(["install", "guard", "--registry", registry.url], {
      cwd: ws,
      env: { HOOKYARD_CONFIG: join(ws, ".user-config.json") },
      typed: "y\ny\ny\n",
    });
    expect(code, screen).toBe(0);
    expect(screen).toContain(`${origin} signs its packages with key ${keyId}`);
    expect(screen).toContain(`trust ${origin}'s key ${keyId}? [y/N] `);
    expect(screen).toContain("grant guard@1.0.0: reads files under docs (low risk)");
    expect(screen).toContain("installed guard@1.0.0 (sandboxed)");
    const lock = JSON.parse(await readFile(join(ws, "hookyard.lock"), "utf8"));
    // Both grant answers were typed before either question was shown: neither was lost.
    expect(lock.packages.guard.grants).toEqual(["fs.read:docs", "net:api.example.com:443"]);
    const config = JSON.parse(await readFile(join(ws, "hookyard.json"), "utf8"));
    expect(config.keys[origin][0].keyId).toBe(keyId);
  });

  it("an untrusted key installs nothing and says how to go on", async () => {
    const registry = await startRegistry();
    await publishGuard(registry, "1.0.0");
    const ws = await emptyWorkspace();
    const { code, screen } = await onTerminal(["install", "guard", "--registry", registry.url], {
      cwd: ws,
      env: { HOOKYARD_CONFIG: join(ws, ".user-config.json") },
      typed: "n\n",
    });
    expect(code, screen).toBe(1);
    expect(screen).toMatch(
      /hookyard: CLI_ERR_KEY_NOT_TRUSTED: http:\/\/127\.0\.0\.1:\d+'s signing key ed25519:[0-9a-f]+ was not trusted, so nothing was installed; .*answer y \(or pass --yes\)/,
    );
    expect(screen).not.toContain("grant guard@1.0.0");
    expect(await readdir(ws)).not.toContain("hookyard.lock");
  });
});
