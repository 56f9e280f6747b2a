import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../../helpers/temp.js";
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
    const { call } = brokerFor(await tempDir(), ["env:HOOKYARD_GRANTED_VAR", "env:HOOKYARD_UNSET_VAR"]);
    expect(await call("env.get", "HOOKYARD_GRANTED_VAR")).toBe("granted value");
    expect(await call("env.get", "HOOKYARD_UNSET_VAR")).toBeNull();
    await expectDenied(call("env.get", "HOOKYARD_SECRET_CANARY"), "env:HOOKYARD_SECRET_CANARY");
    const error = await call("env.get", "HOOKYARD_SECRET_CANARY").catch((e: Error) => e);
    expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).not.toContain(secret);
    // Names are exact: no case folding, no prefixes.
    await expectDenied(call("env.get", "hookyard_granted_var"), "env:hookyard_granted_var");
    await expectDenied(call("env.get", "HOOKYARD_GRANTED"), "env:HOOKYARD_GRANTED");
  });

  it("come from the env the broker was given, when given one", async () => {
    const { call } = brokerFor(await tempDir(), ["env:TOKEN"], { env: { TOKEN: "from options" } });
    expect(await call("env.get", "TOKEN")).toBe("from options");
  });

  it("refuses what is not a variable name", async () => {
    const { call } = brokerFor(await tempDir(), ["env:HOME"]);
    await expectBrokerError(call("env.get", "HOME=x"), "BROKER_ERR_BAD_ARGS");
    await expectBrokerError(call("env.get", ""), "BROKER_ERR_BAD_ARGS");
    await expectBrokerError(call("env.get", 42), "BROKER_ERR_BAD_ARGS");
  });
});
