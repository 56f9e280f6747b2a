import { describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "./harness.js";

const bomb = "const hoard = []; for (;;) hoard.push(new Array(100_000).fill(1.5));";

describe("memory bomb", () => {
  it.each([
    ["while the handler runs", bomb],
    ["after an await on a host call", `await api.state.get("k"); ${bomb}`],
    ["in the bundle's top-level code", null],
  ])("%s: the isolate is disposed, the agent's process survives, the next hook runs", async (_name, body) => {
    const h = await harness({ limits: { memoryMb: 32, cpuMs: 2_000 } });
    const source =
      body === null ? `${bomb}\nexport default defineHook({ on: {} });` : handler(body, { async: true });
    const hook = h.hook("bomb", source);
    const answer = await h.runOne(hook);
    expect(answer).toMatchObject({
      status: "error",
      code: "SANDBOX_ERR_MEMORY",
      message: "ran past memoryMb (32 MB)",
    });
    await expectStillAnswers(h);
    // The same hook gets a fresh isolate, and fails the same way, without taking anything down.
    expect(await h.runOne(hook)).toMatchObject({ status: "error", code: "SANDBOX_ERR_MEMORY" });
    await expectStillAnswers(h);
  });
});
