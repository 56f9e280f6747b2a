import { join } from "node:path";
import { ctxSchema, type Point } from "../../core/events.js";
import type { HookDefinition } from "../../core/hook.js";
import { Dispatcher } from "../../runner/chain/dispatch.js";
import { compileHook } from "../../runner/compile-hook.js";
import type { Hooks } from "../../runner/load/load-hooks.js";
import type { Logger } from "../../runner/logger.js";
import { StateStore } from "../../runner/state.js";
import { trustedApi } from "../../runner/trusted-api.js";

/** Trusted workspace hooks defined in the test itself, dispatched as loadHooks would (ctx validated). */
export function hooksOf(
  root: string,
  definitions: HookDefinition[],
  logger: Logger,
): Pick<Hooks, "dispatch"> {
  const hooks = definitions.map((definition) =>
    compileHook({ engine: "inprocess", definition, source: "test" }, { root, origin: "workspace" }),
  );
  const state = new StateStore(join(root, ".hookyard", "state"));
  const dispatcher = new Dispatcher(hooks, {
    logger,
    apiFor: (hook) => trustedApi({ hook: hook.name, root, state: state.forHook(hook.name), logger }),
  });
  return {
    dispatch: (point, ctx) => {
      ctxSchema(point as Point).parse(ctx);
      return dispatcher.dispatch(point, ctx);
    },
  };
}
