import { describe, expectTypeOf, it } from "vitest";
import {
  type ChainOutcome,
  type CtxOf,
  type Decision,
  defineHook,
  type HookApi,
  type Hooks,
  loadHooks,
  type Point,
} from "../../index.js";

describe("the public hook API's types", () => {
  it("gives each handler the ctx of its own point", () => {
    defineHook({
      name: "typed",
      on: {
        tool_before(ctx, api) {
          expectTypeOf(ctx.tool).toBeString();
          expectTypeOf(ctx.args).toEqualTypeOf<Record<string, unknown>>();
          expectTypeOf(api).toEqualTypeOf<HookApi>();
          return { block: "no" };
        },
        tool_after(ctx) {
          expectTypeOf(ctx.result).toBeString();
        },
        llm_before(ctx) {
          expectTypeOf(ctx.messages[0]?.role).toEqualTypeOf<
            "system" | "user" | "assistant" | "tool" | undefined
          >();
          return { inject: "be brief" };
        },
        async turn_before(ctx) {
          expectTypeOf(ctx.prompt).toBeString();
          return undefined;
        },
      },
    });
  });

  it("refuses a handler for a point that does not exist, and a decision with a typo", () => {
    defineHook({
      name: "bad",
      on: {
        // @ts-expect-error: not a point
        tool_befor() {},
      },
    });
    defineHook({
      name: "bad-decision",
      on: {
        // @ts-expect-error: `blok` is not an effect
        tool_before: () => ({ blok: "typo" }),
      },
    });
  });

  it("types dispatch by point, and its outcome", () => {
    expectTypeOf(loadHooks).returns.resolves.toEqualTypeOf<Hooks>();
    type Dispatch = Hooks["dispatch"];
    expectTypeOf<Parameters<Dispatch>[0]>().toEqualTypeOf<Point>();
    expectTypeOf<ChainOutcome<CtxOf<"tool_before">>["ctx"]["args"]>().toEqualTypeOf<
      Record<string, unknown>
    >();
    expectTypeOf<Decision["block"]>().toEqualTypeOf<string | undefined>();
  });
});
