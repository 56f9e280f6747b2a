import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hookPackage, publish, startRegistry, type TestRegistry } from "../../../../registry/helpers.js";
import { cli, emptyWorkspace } from "./fixtures.js";

/** Issue 14, part 5: rewrite grants per field, as install, info, grant, revoke and update show and keep them. */

async function publishRewriter(
  registry: TestRegistry,
  version: string,
  capabilities: Record<string, unknown>,
  events = ["tool_before", "tool_after"],
): Promise<void> {
  const tarball = await hookPackage({
    name: "rewriter",
    version,
    manifest: { hookyard: { main: "dist/hook.js", events, capabilities, effects: ["rewrite"] } },
  });
  const answer = await publish(registry, registry.admin, tarball, "rewriter", version);
  if (answer.status !== 201) throw new Error(`publish rewriter@${version}: ${answer.status} ${answer.bytes}`);
}

async function grantsOf(ws: string): Promise<string[]> {
  return JSON.parse(await readFile(join(ws, "hookyard.lock"), "utf8")).packages.rewriter.grants;
}

const asks = { rewrite: ["tool_before.args"], redact: ["tool_after.result"] };

describe("rewrite grants at install, info, grant and revoke", () => {
  it("info rates a rewrite of tool arguments high risk and a redaction low", async () => {
    const registry = await startRegistry();
    await publishRewriter(registry, "1.0.0", asks);
    const ws = await emptyWorkspace();
    const info = await cli(ws, "info", "rewriter", "--registry", registry.url);
    expect(info.code, info.stderr).toBe(0);
    expect(info.stdout).toMatch(
      /^ {2}high +can rewrite the arguments of tool calls \(tool_before\.args\), and so change what a tool runs \(a command, a file path, what is written\) +rewrite:tool_before\.args$/m,
    );
    expect(info.stdout).toMatch(
      /^ {2}low +can hide text in tool results \(tool_after\.result\), only replacing it with markers such as \[redacted\] +redact:tool_after\.result$/m,
    );
    expect(info.stdout).toContain("Risk level: high");
  });

  it("install without any rewrite grant warns that the hook will do nothing, with the command that fixes it", async () => {
    const registry = await startRegistry();
    await publishRewriter(registry, "1.0.0", asks);
    const ws = await emptyWorkspace();
    const install = await cli(ws, "install", "rewriter", "--registry", registry.url, "--yes");
    expect(install.code, install.stderr).toBe(0);
    const fix = "hookyard grant rewriter rewrite:tool_before.args redact:tool_after.result";
    expect(install.stderr).toContain(
      `hookyard: warning: rewriter@1.0.0 asks to change what the agent sees (rewrite:tool_before.args, redact:tool_after.result) and was granted none of it: it will run, but its changes are undone, so it does nothing; to let it: ${fix}`,
    );
    const grant = await cli(ws, ...fix.split(" ").slice(1));
    expect(grant.code, grant.stderr).toBe(0);
    expect(await grantsOf(ws)).toEqual(["rewrite:tool_before.args", "redact:tool_after.result"]);

    // One rewrite granted is enough for it to do something: no warning.
    const other = await emptyWorkspace();
    const narrow = await cli(
      other,
      ...["install", "rewriter", "--registry", registry.url, "--yes", "--grant", "redact:tool_after.result"],
    );
    expect(narrow.code, narrow.stderr).toBe(0);
    expect(narrow.stderr).not.toContain("does nothing");
  });

  it("install grants a narrower field, says the wider one is high risk, and the lock keeps them", async () => {
    const registry = await startRegistry();
    await publishRewriter(registry, "1.0.0", asks);
    const ws = await emptyWorkspace();
    const install = await cli(
      ws,
      ...["install", "rewriter", "--registry", registry.url, "--yes"],
      ...["--grant", "rewrite:tool_before.args.timeout", "--grant", "redact:tool_after.result"],
    );
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toContain(
      "  granted:     can rewrite the timeout argument of tool calls (tool_before.args.timeout) (medium risk) [rewrite:tool_before.args.timeout]\n",
    );
    expect(install.stdout).toContain(
      "  not granted: can rewrite the arguments of tool calls (tool_before.args), and so change what a tool runs (a command, a file path, what is written) (high risk) [rewrite:tool_before.args]\n",
    );
    expect(await grantsOf(ws)).toEqual(["rewrite:tool_before.args.timeout", "redact:tool_after.result"]);

    const command = await cli(ws, "grant", "rewriter", "rewrite:tool_before.args.command");
    expect(command.code, command.stderr).toBe(0);
    expect(command.stdout).toContain("(high risk) [rewrite:tool_before.args.command]");
    expect(await grantsOf(ws)).toContain("rewrite:tool_before.args.command");

    const wider = await cli(ws, "grant", "rewriter", "rewrite:tool_after.result");
    expect(wider.code).toBe(2);
    expect(wider.stderr).toContain(
      "does not request rewrite:tool_after.result, so it cannot be granted (it requests rewrite:tool_before.args, redact:tool_after.result)",
    );
    const bad = await cli(ws, "grant", "rewriter", "rewrite:tool_after.args");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '"rewrite:tool_after.args": args is not rewritable at tool_after (only result is; tool_before.args is)',
    );
    const covered = await cli(ws, "grant", "rewriter", "rewrite:tool_before.args.timeout.seconds");
    expect(covered.stderr).toContain(
      "already has rewrite:tool_before.args.timeout, which covers rewrite:tool_before.args.timeout.seconds",
    );

    const revoked = await cli(ws, "revoke", "rewriter", "rewrite:tool_before.args.command");
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(await grantsOf(ws)).toEqual(["rewrite:tool_before.args.timeout", "redact:tool_after.result"]);
  });

  it("an update of an old package granted bare rewrite to one that names its field narrows the grant", async () => {
    const registry = await startRegistry();
    await publishRewriter(registry, "1.0.0", {}, ["tool_before"]);
    const ws = await emptyWorkspace();
    const install = await cli(
      ws,
      "install",
      "rewriter",
      "--registry",
      registry.url,
      "--grant",
      "rewrite",
      "--yes",
    );
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toContain(
      "  granted:     can rewrite anything it sees, at every point: prompts, model replies, tool results, and tool arguments, so what a command runs (high risk) [rewrite]\n",
    );
    await publishRewriter(registry, "1.1.0", { rewrite: ["tool_before.args.timeout"] }, ["tool_before"]);
    const update = await cli(ws, "update", "--yes");
    expect(update.code, update.stderr).toBe(0);
    expect(await grantsOf(ws)).toEqual(["rewrite:tool_before.args.timeout"]);
  });
});
