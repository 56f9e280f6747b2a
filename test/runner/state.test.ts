import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StateStore } from "../../runner/state.js";
import { toolBefore } from "../helpers/ctx.js";
import { tempDir } from "../helpers/temp.js";
import { harness } from "./helpers.js";

async function onDisk(dir: string, hook: string): Promise<unknown> {
  return JSON.parse(await readFile(join(dir, `${hook}.json`), "utf8"));
}

describe("StateStore", () => {
  it("three concurrent sets from three hooks all reach disk", async () => {
    const dir = await tempDir();
    const store = new StateStore(dir);
    await Promise.all(["a", "b", "c"].map((hook, i) => store.forHook(hook).set("count", i)));
    await store.flush();
    expect(await onDisk(dir, "a")).toEqual({ count: 0 });
    expect(await onDisk(dir, "b")).toEqual({ count: 1 });
    expect(await onDisk(dir, "c")).toEqual({ count: 2 });
  });

  it("a scoped community hook's state is one file, not a folder per scope", async () => {
    const dir = await tempDir();
    const store = new StateStore(dir);
    await store.forHook("@acme/quiet").set("seen", 1);
    await store.flush();
    expect(await onDisk(dir, "@acme%2Fquiet")).toEqual({ seen: 1 });
    expect(await new StateStore(dir).forHook("@acme/quiet").get("seen")).toBe(1);
  });

  it("three concurrent sets from one hook to different keys all reach disk", async () => {
    const dir = await tempDir();
    const store = new StateStore(dir);
    const state = store.forHook("audit");
    await Promise.all([state.set("x", 1), state.set("y", [2]), state.set("z", { deep: { v: 3 } })]);
    await store.flush();
    expect(await onDisk(dir, "audit")).toEqual({ x: 1, y: [2], z: { deep: { v: 3 } } });
  });

  it("sets to one key land in call order, so the last one wins on disk", async () => {
    const dir = await tempDir();
    const store = new StateStore(dir);
    const state = store.forHook("counter");
    await Promise.all([state.set("n", 1), state.set("n", 2), state.set("n", 3)]);
    await store.flush();
    expect(await onDisk(dir, "counter")).toEqual({ n: 3 });
    expect(await state.get("n")).toBe(3);
  });

  it("flush waits for sets nobody awaited, even while the state file is still being read", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "late.json"), JSON.stringify({ kept: true }));
    const store = new StateStore(dir);
    void store.forHook("late").set("added", 1);
    await store.flush();
    expect(await onDisk(dir, "late")).toEqual({ kept: true, added: 1 });
  });

  it("sets hooks fire without awaiting during dispatch are on disk after flush", async () => {
    const fired = (name: string) => ({
      name,
      on: {
        tool_before: (_ctx: unknown, api: { state: { set(k: string, v: unknown): unknown } }) => {
          void api.state.set("seen", name);
        },
      },
    });
    const { dispatcher, state, root } = await harness([fired("one"), fired("two"), fired("three")]);
    await dispatcher.dispatch("tool_before", toolBefore());
    await state.flush();
    const dir = join(root, ".hookyard", "state");
    for (const name of ["one", "two", "three"]) expect(await onDisk(dir, name)).toEqual({ seen: name });
  });

  it("a get right after a set nobody awaited sees the new value", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "h.json"), JSON.stringify({ n: 1 }));
    const store = new StateStore(dir);
    const state = store.forHook("h");
    void state.set("n", 2);
    expect(await state.get("n")).toBe(2);
    await store.flush();
  });

  it("get returns a copy, so changing it does not change the state", async () => {
    const store = new StateStore(await tempDir());
    const state = store.forHook("h");
    await state.set("list", [1]);
    (await state.get<number[]>("list"))?.push(2);
    expect(await state.get("list")).toEqual([1]);
  });

  it("setting undefined removes the key", async () => {
    const dir = await tempDir();
    const store = new StateStore(dir);
    const state = store.forHook("h");
    await state.set("a", 1);
    await state.set("b", 2);
    await state.set("a", undefined);
    expect(await state.get("a")).toBeUndefined();
    expect(await onDisk(dir, "h")).toEqual({ b: 2 });
  });

  it.each([
    ["a BigInt", () => 10n],
    [
      "a circular object",
      () => {
        const loop: Record<string, unknown> = {};
        loop.self = loop;
        return loop;
      },
    ],
    ["a function", () => () => 1],
  ])("setting %s rejects with RUN_ERR_STATE_INVALID and stores nothing", async (_what, value) => {
    const dir = await tempDir();
    const store = new StateStore(dir);
    const state = store.forHook("h");
    await state.set("ok", 1);
    await expect(state.set("bad", value())).rejects.toMatchObject({
      name: "RunnerError",
      code: "RUN_ERR_STATE_INVALID",
    });
    await store.flush();
    expect(await state.get("bad")).toBeUndefined();
    expect(await onDisk(dir, "h")).toEqual({ ok: 1 });
  });

  it.each([
    ["broken JSON", "{ not json"],
    ["a JSON array", "[1, 2]"],
  ])("a state file holding %s gives RUN_ERR_STATE_CORRUPT and is left alone", async (_what, text) => {
    const dir = await tempDir();
    await writeFile(join(dir, "h.json"), text);
    const state = new StateStore(dir).forHook("h");
    await expect(state.get("a")).rejects.toMatchObject({ code: "RUN_ERR_STATE_CORRUPT" });
    await expect(state.set("a", 1)).rejects.toMatchObject({ code: "RUN_ERR_STATE_CORRUPT" });
    expect(await readFile(join(dir, "h.json"), "utf8")).toBe(text);
  });

  it("a fresh StateStore over the same directory reads the values back", async () => {
    const dir = await tempDir();
    const first = new StateStore(dir);
    await first.forHook("h").set("config", { level: 2, tags: ["a", "b"] });
    await first.forHook("other").set("n", 7);
    await first.flush();
    const second = new StateStore(dir);
    expect(await second.forHook("h").get("config")).toEqual({ level: 2, tags: ["a", "b"] });
    expect(await second.forHook("other").get("n")).toBe(7);
    expect(await second.forHook("nobody").get("n")).toBeUndefined();
  });
});
