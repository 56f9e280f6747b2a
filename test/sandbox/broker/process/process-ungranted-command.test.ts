import { chmod } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { workspace } from "../../../helpers/temp.js";
import { agentSession } from "../../agent-check.js";
import { brokerFor, expectBrokerError, expectDenied } from "../helpers.js";

const echoPath = "/usr/bin/echo";

describe("a command that was not granted", () => {
  it("is denied, naming the grant it would take", async () => {
    const root = await workspace();
    const { call, audit } = brokerFor(root, ["process:echo"]);
    await expectDenied(call("process.exec", "ls", ["-la", "/"]), "process:ls");
    await expectDenied(call("process.exec", "/usr/bin/ls", []), "process:/usr/bin/ls");
    expect(audit.entries).toMatchObject([
      { method: "process.exec", target: "ls -la /", allowed: false, needs: "process:ls" },
      { method: "process.exec", target: "/usr/bin/ls", allowed: false, needs: "process:/usr/bin/ls" },
    ]);
    expect(await agentRuns(root, ["process:echo"], "echo")).toBe("ran\n");
  });

  it("runs when granted, called by its bare name or by the path it resolved to, and by nothing else", async () => {
    const root = await workspace();
    const { call } = brokerFor(root, ["process:echo"], { env: { PATH: "/usr/bin" } });
    expect(await call("process.exec", "echo", ["by name"])).toMatchObject({ stdout: "by name\n" });
    expect(await call("process.exec", echoPath, ["by path"])).toMatchObject({ stdout: "by path\n" });
    // /bin/echo may be the same file, through a symlinked /bin; it is still another spelling.
    await expectDenied(call("process.exec", "/bin/echo", []), "process:/bin/echo");
    await expectBrokerError(call("process.exec", "./echo", []), "BROKER_ERR_BAD_ARGS");
    await expectBrokerError(call("process.exec", "bin/echo", []), "BROKER_ERR_BAD_ARGS");
    expect(await agentRuns(root, ["process:echo"], "echo")).toBe("ran\n");
  });

  it("granted but found nowhere on PATH fails as not found", async () => {
    const root = await workspace();
    const { call } = brokerFor(root, ["process:no-such-command-hookyard"], { env: { PATH: "/usr/bin" } });
    await expectBrokerError(call("process.exec", "no-such-command-hookyard", []), "BROKER_ERR_NOT_FOUND");
  });

  it("cannot be smuggled in through write access to a granted command: that pair of grants is refused", async () => {
    const root = await workspace({ "tools/lint.sh": "#!/bin/sh\necho lint\n", "docs/a.md": "" });
    await chmod(join(root, "tools/lint.sh"), 0o755);
    const lint = join(root, "tools/lint.sh");
    for (const grants of [
      [`process:${lint}`, "fs.write:tools"],
      [`process:${lint}`, "fs.write:tools/lint.sh"],
      [`process:${lint}`, "fs.write:."],
      ["process:echo", "fs.write:/usr/bin"],
      ["process:echo", "fs.write:/usr"],
    ]) {
      expect(() => brokerFor(root, grants, { env: { PATH: "/usr/bin" } }), grants.join(" ")).toThrow(
        expect.objectContaining({
          code: "BROKER_ERR_OPTIONS",
          message: expect.stringContaining("run anything"),
        }),
      );
    }
    const { call } = brokerFor(root, [`process:${lint}`, "fs.write:docs"]);
    expect(await call("process.exec", lint, [])).toMatchObject({ code: 0, stdout: "lint\n" });
    expect(await agentRuns(root, [`process:${lint}`, "fs.write:docs"], lint)).toBe("lint\n");
  });
});

/** The agent check: a hook holding the attack's grants runs `command` with the argument "ran" in a real session; its stdout. */
function agentRuns(root: string, grants: string[], command: string): Promise<string> {
  return agentSession({
    root,
    grants,
    use: `return (await api.process.exec(${JSON.stringify(command)}, ["ran"])).stdout;`,
  });
}
