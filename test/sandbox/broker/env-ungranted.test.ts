import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../../helpers/temp.js";
import { agentSession } from "../agent-check.js";
import { brokerFor, expectBrokerError, expectDenied } from "./helpers.js";

const secret = `env-canary-${process.pid}`;
beforeEach(() => {
  process.env.HOOKYARD_GRANTED_VAR = "granted value";
  process.env.HOOKYARD_SECRET_CANARY = secret;
});
afterEach(() => {
  delete process.env.HOOKYARD_GRANTED_VAR;
  delete process.env.HOOKYARD_SECRET_CANARY;
});

describe("environment variables", () => {
  it("a granted one is read; any other is denied by name, its value never shown", async () => {
    const root = await tempDir();
    const grants = ["env:HOOKYARD_GRANTED_VAR", "env:HOOKYARD_UNSET_VAR"];
    const { call } = brokerFor(root, grants);
    expect(await call("env.get", "HOOKYARD_GRANTED_VAR")).toBe("granted value");
    expect(await call("env.get", "HOOKYARD_UNSET_VAR")).toBeNull();
    await expectDenied(call("env.get", "HOOKYARD_SECRET_CANARY"), "env:HOOKYARD_SECRET_CANARY");
    const error = await call("env.get", "HOOKYARD_SECRET_CANARY").catch((e: Error) => e);
    expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).not.toContain(secret);
    // Names are exact: no case folding, no prefixes.
    await expectDenied(call("env.get", "hookyard_granted_var"), "env:hookyard_granted_var");
    await expectDenied(call("env.get", "HOOKYARD_GRANTED"), "env:HOOKYARD_GRANTED");
    const used = await agentSession({
      root,
      grants,
      use: 'return [await api.env.get("HOOKYARD_GRANTED_VAR"), await api.env.get("HOOKYARD_UNSET_VAR")].join();',
      secrets: [secret],
    });
    expect(used).toBe("granted value,");
  });

  it("come from the env the broker was given, when given one", async () => {
    const { call } = brokerFor(await tempDir(), ["env:TOKEN"], { env: { TOKEN: "from options" } });
    expect(await call("env.get", "TOKEN")).toBe("from options");
  });

  it("refuses what is not a variable name", async () => {
    const root = await tempDir();
    const { call } = brokerFor(root, ["env:HOME"]);
    await expectBrokerError(call("env.get", "HOME=x"), "BROKER_ERR_BAD_ARGS");
    await expectBrokerError(call("env.get", ""), "BROKER_ERR_BAD_ARGS");
    await expectBrokerError(call("env.get", 42), "BROKER_ERR_BAD_ARGS");
    const used = await agentSession({ root, grants: ["env:HOME"], use: 'return api.env.get("HOME");' });
    expect(used).toBe(process.env.HOME);
  });
});
