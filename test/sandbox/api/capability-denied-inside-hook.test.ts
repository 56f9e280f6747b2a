import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { canaryEnvName, expectStillAnswers, handler, harness } from "../harness.js";

describe("the granted api inside a hook", () => {
  it("a denied call throws CapabilityDenied inside the hook, naming the grant that would allow it", async () => {
    const h = await harness();
    const answer = await h.runOne(
      h.hook(
        "denied",
        handler(
          `
          const seen = [];
          for (const attempt of [
            () => api.fs.readFile("docs/readme.md"),
            () => api.fs.writeFile("notes/out.txt", "x"),
            () => api.env.get(${JSON.stringify(canaryEnvName)}),
            () => api.fs.readFile(${JSON.stringify(h.canaryFile)}),
            () => api.process.exec("git", ["status"]),
            () => api.net.fetch("https://example.com/"),
          ]) {
            try { await attempt(); seen.push("allowed"); }
            catch (error) { seen.push({ name: error.name, code: error.code, needs: error.needs, message: error.message, isError: error instanceof Error }); }
          }
          return { notice: JSON.stringify(seen) };
          `,
          { async: true },
        ),
      ),
    );
    expect(answer.status).toBe("ok");
    const seen = JSON.parse((answer as { decision: { notice: string } }).decision.notice);
    const denied = (needs: string) => ({
      name: "CapabilityDenied",
      code: "CAPABILITY_DENIED",
      needs,
      isError: true,
    });
    expect(seen).toMatchObject([
      { ...denied("fs.read:docs/readme.md"), message: "needs fs.read:docs/readme.md" },
      denied("fs.write:notes/out.txt"),
      denied(`env:${canaryEnvName}`),
      { name: "CapabilityDenied", code: "CAPABILITY_DENIED" },
      denied("process:git"),
      { name: "CapabilityDenied", code: "CAPABILITY_DENIED" },
    ]);
    await expectStillAnswers(h);
    // Each check went to the audit log (the agent's hook made none).
    await h.sandbox.close();
    const audit = await readFile(join(h.root, ".hookyard", "logs", "capabilities.jsonl"), "utf8");
    expect(audit.trim().split("\n")).toHaveLength(6);
  });

  it("granted calls work, state persists per hook, api.hook is the name, api.outcome is given to background calls", async () => {
    const h = await harness();
    const hook = h.hook(
      "granted",
      handler(
        `
        const count = ((await api.state.get("count")) ?? 0) + 1;
        await api.state.set("count", count);
        await api.fs.writeFile("notes/seen.txt", "seen " + count);
        const docs = await api.fs.readFile("docs/readme.md");
        const listing = await api.fs.readdir("docs");
        const home = await api.env.get("HOOKYARD_UNSET_NAME");
        return { notice: [api.hook, count, docs, listing.join(), typeof home, JSON.stringify(api.outcome ?? null), Object.isFrozen(api)].join("|") };
        `,
        { async: true },
      ),
      { grants: ["fs.read:docs", "fs.write:notes", "env:HOOKYARD_UNSET_NAME"] },
    );
    expect(await h.runOne(hook)).toMatchObject({
      status: "ok",
      decision: { notice: "granted|1|workspace docs|readme.md|undefined|null|true" },
    });
    const outcome = { verdict: "block", hook: "guard", reason: "no" };
    expect(await h.runOne(hook, { outcome })).toMatchObject({
      decision: { notice: `granted|2|workspace docs|readme.md|undefined|${JSON.stringify(outcome)}|true` },
    });
    expect(await readFile(join(h.root, "notes", "seen.txt"), "utf8")).toBe("seen 2");
  });

  it("what a hook logs reaches ParentServices.log under its id", async () => {
    const h = await harness();
    const hook = h.hook("logger", handler('api.log("one", 2, { three: 3 }, null); api.log();'));
    await h.runOne(hook);
    expect(h.logs).toEqual([
      [hook.id, "one 2 [object Object] null"],
      [hook.id, ""],
    ]);
  });
});
