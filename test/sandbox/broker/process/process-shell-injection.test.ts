import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { workspace } from "../../../helpers/temp.js";
import { agentSession } from "../../agent-check.js";
import { brokerFor, expectBrokerError, expectDenied } from "../helpers.js";

describe("shell metacharacters in a command's arguments", () => {
  it("arrive as literal arguments: nothing is run by a shell", async () => {
    const root = await workspace();
    const { call } = brokerFor(root, ["process:echo"]);
    const payloads = [
      "; touch pwned-semicolon",
      "$(touch pwned-subshell)",
      "`touch pwned-backtick`",
      "| touch pwned-pipe",
      "&& touch pwned-and",
      "> pwned-redirect",
      "$HOME",
      "*",
      "'\"\\",
      "\ntouch pwned-newline",
    ];
    expect(await call("process.exec", "echo", payloads)).toEqual({
      code: 0,
      stdout: `${payloads.join(" ")}\n`,
      stderr: "",
    });
    for (const name of ["semicolon", "subshell", "backtick", "pipe", "and", "redirect", "newline"]) {
      expect(existsSync(join(root, `pwned-${name}`)), name).toBe(false);
    }
    expect(await agentEchoes(root)).toBe("echoed\n");
  });

  it("in the command itself do not split it into a command and arguments", async () => {
    const root = await workspace();
    const { call } = brokerFor(root, ["process:echo"]);
    await expectBrokerError(call("process.exec", "echo; touch pwned"), "BROKER_ERR_BAD_ARGS");
    await expectBrokerError(call("process.exec", "echo $(touch pwned)", []), "BROKER_ERR_BAD_ARGS");
    await expectDenied(call("process.exec", "sh", ["-c", "touch pwned"]), "process:sh");
    expect(existsSync(join(root, "pwned"))).toBe(false);
    expect(await agentEchoes(root)).toBe("echoed\n");
  });

  it("must be strings: numbers, objects and NUL bytes are refused", async () => {
    const root = await workspace();
    const { call } = brokerFor(root, ["process:echo"]);
    await expectBrokerError(call("process.exec", "echo", [1]), "BROKER_ERR_BAD_ARGS");
    await expectBrokerError(call("process.exec", "echo", [{ toString: "x" }]), "BROKER_ERR_BAD_ARGS");
    await expectBrokerError(call("process.exec", "echo", "not an array"), "BROKER_ERR_BAD_ARGS");
    await expectBrokerError(call("process.exec", "echo", ["a\0b"]), "BROKER_ERR_BAD_ARGS");
    expect(await agentEchoes(root)).toBe("echoed\n");
  });
});

/** The agent check: a hook granted process:echo runs it in a real session; what it printed. */
function agentEchoes(root: string): Promise<string> {
  return agentSession({
    root,
    grants: ["process:echo"],
    use: 'return (await api.process.exec("echo", ["echoed"])).stdout;',
  });
}
