// @ts-check
/**
 * The code that runs in each hook's context before the hook's bundle. It is not a module: the
 * sandbox process reads this file as text at start-up (child/hook-isolate.ts) and runs it as the body
 * of a closure (isolated-vm's evalClosure) that ends `return bootstrap($0, $1)`: $0 is the one host
 * Reference (the bridge), $1 the settings as JSON. bootstrap returns [attach, run, take, wait], the
 * entry points the host calls. It imports nothing and sees no Node: only the isolate's own builtins.
 *
 * Everything here runs among hook code that may have replaced any builtin, so:
 * - builtins are captured before the bundle runs, and only the captured ones are used afterwards;
 * - the bridge Reference and the option objects isolated-vm reads stay in this closure, never on
 *   globalThis or any object the hook can reach (a leaked Reference is full host access);
 * - option objects have a null prototype and are frozen (isolated-vm reads them with full property
 *   lookups, so Object.prototype pollution would otherwise steer them);
 * - entry points never throw: every failure becomes a JSON string, because isolated-vm reads a
 *   thrown object's `message` and `stack` on the host thread with no time limit;
 * - the result is stringified here, inside the timed call, so no getter, Proxy trap or toJSON of
 *   the hook's ever runs while the host reads it.
 *
 * Envelopes (the only thing an entry point returns): `{"d":<decision>}`, `{"d":<decision>,"c":<ctx>}`
 * when the ctx copy changed, `{"x":["<code>","<message>"]}` on failure, "" for "not settled yet".
 * API calls go out as (method, JSON arguments, the number of the call that made them); the host
 * replies `[0, value]`, `[2]` for undefined, or `[1, name, code, message, needs]`.
 */
// biome-ignore lint/suspicious/noRedundantUseStrict: not a module: the isolate runs this file as a sloppy closure's body, which this makes strict
"use strict";

/**
 * @param {{ apply: Function, applySync: Function }} bridge the host bridge (an isolated-vm Reference)
 * @param {string} settingsJson the hook's settings: name, limits, config
 * @returns {[Function, Function, Function, Function]} attach, run, take, wait
 */
// biome-ignore lint/correctness/noUnusedVariables: called by the closure this file is the body of
function bootstrap(bridge, settingsJson) {
  const settings = JSON.parse(settingsJson);

  const { parse, stringify } = JSON;
  const { freeze, defineProperty, keys, setPrototypeOf } = Object;
  const { apply } = Reflect;
  const isArray = Array.isArray;
  const NativePromise = Promise;
  const NativeError = Error;
  const NativeTypeError = TypeError;
  const toText = String;
  const sliceText = String.prototype.slice;
  const bridgeApply = bridge.apply;
  const bridgeApplySync = bridge.applySync;

  const asyncCall = freeze({
    __proto__: null,
    arguments: freeze({ __proto__: null, copy: true }),
    result: freeze({ __proto__: null, copy: true, promise: true }),
  });
  const syncCall = freeze({
    __proto__: null,
    arguments: freeze({ __proto__: null, copy: true }),
    result: freeze({ __proto__: null, copy: true }),
  });
  const promiseConstructor = freeze({ __proto__: null, value: NativePromise });

  const maxMessage = 2000;
  let definition = null;
  let logLines = 0;
  let logChars = 0;
  let logFull = false;
  let settled = "";
  let waiter = null;
  let callToken = 0;

  function clip(text, max) {
    return text.length > max ? apply(sliceText, text, [0, max]) : text;
  }

  /** A thrown value as text; never throws (the value may be a Proxy, or have a throwing getter). */
  function describe(error) {
    try {
      if (error instanceof NativeError) {
        const name = error.name;
        const message = toText(error.message);
        return clip(
          typeof name === "string" && name !== "" && name !== "Error" ? name + ": " + message : message,
          maxMessage,
        );
      }
      return clip(toText(error), maxMessage);
    } catch {
      return "(a thrown value that cannot be shown as text)";
    }
  }

  function fail(code, message) {
    return '{"x":[' + stringify(code) + "," + stringify(message) + "]}";
  }

  function rejectNonJson(key, value) {
    const type = typeof value;
    if (type === "function" || type === "symbol") {
      throw new NativeTypeError((key === "" ? "the value" : "its field " + stringify(key)) + " is a " + type);
    }
    return value;
  }

  /**
   * At most this many values go into a snapshot: a ctx made of more (a 2 MiB ctx can hold hundreds of
   * thousands) is compared as JSON instead, so that the snapshot never weighs on the isolate's memory
   * limit.
   */
  const maxSnapshotValues = 50000;

  /**
   * What ctx held before the handler ran, to tell whether the handler changed it without turning the
   * whole ctx into JSON again (most hooks change nothing): every value of ctx in the order JSON
   * writes them, each object followed by its keys (an array by its length). One flat array with no
   * prototype, made once and reused, so that taking a snapshot allocates little and nothing the hook
   * put on a prototype runs while it is made; strings are shared, not copied.
   */
  const shot = setPrototypeOf([], null);
  let shotLength = 0;
  let shotAt = 0;
  const noSnapshot = {};

  /** Appends value (and all it holds) to the snapshot; throws noSnapshot past maxSnapshotValues. */
  function snapshot(value) {
    if (shotLength >= maxSnapshotValues) throw noSnapshot;
    shot[shotLength++] = value;
    if (typeof value !== "object" || value === null) return;
    if (isArray(value)) {
      const length = value.length;
      shot[shotLength++] = length;
      for (let i = 0; i < length; i++) snapshot(value[i]);
      return;
    }
    const names = keys(value);
    shot[shotLength++] = names;
    for (let i = 0; i < names.length; i++) snapshot(value[names[i]]);
  }

  /**
   * True only if value would turn into the same JSON as the snapshot from shotAt on: the very objects
   * ctx was parsed into, with no toJSON, the same keys in the same order, the same array lengths, the
   * same primitives. Anything else (a new object, a hole, an extra key that JSON would skip) counts
   * as a change, and the JSON itself then decides.
   */
  function unchanged(value) {
    const was = shot[shotAt++];
    if (value !== was) return false;
    if (typeof was !== "object" || was === null) return true;
    if (value.toJSON !== undefined) return false;
    const shape = shot[shotAt++];
    if (typeof shape === "number") {
      if (value.length !== shape) return false;
      for (let i = 0; i < shape; i++) if (!unchanged(value[i])) return false;
      return true;
    }
    const names = keys(value);
    if (names.length !== shape.length) return false;
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      if (name !== shape[i] || !unchanged(value[name])) return false;
    }
    return true;
  }

  /** Lets go of what the snapshot held, so that no ctx outlives its call in the isolate. */
  function forgetSnapshot() {
    for (let i = 0; i < shotLength; i++) shot[i] = undefined;
    shotLength = 0;
  }

  /** Whether ctx may differ from ctxJson; a snapshot that could not be made or compared says yes. */
  function mayHaveChanged(ctx, before) {
    if (before === noSnapshot) return true;
    shotAt = 0;
    try {
      return !unchanged(ctx);
    } catch {
      return true;
    } finally {
      forgetSnapshot();
    }
  }

  function finish(value, ctx, ctxJson, before) {
    if (value !== undefined && value !== null) {
      const type = typeof value;
      if (type !== "object") {
        return fail(
          "SANDBOX_ERR_RESULT",
          "the handler returned a " + type + "; return a decision object, or nothing",
        );
      }
      if (isArray(value))
        return fail(
          "SANDBOX_ERR_RESULT",
          "the handler returned an array; return a decision object, or nothing",
        );
    }
    let decision;
    let after;
    try {
      decision = value === undefined || value === null ? "null" : stringify(value, rejectNonJson);
    } catch (error) {
      return fail("SANDBOX_ERR_RESULT", "the decision is not JSON: " + describe(error));
    }
    if (typeof decision !== "string") return fail("SANDBOX_ERR_RESULT", "the decision has no JSON form");
    let changed = false;
    if (mayHaveChanged(ctx, before)) {
      try {
        after = stringify(ctx);
        // Only a changed ctx can hold what JSON would silently drop; checking costs a second pass.
        if (after !== ctxJson) after = stringify(ctx, rejectNonJson);
      } catch (error) {
        return fail("SANDBOX_ERR_RESULT", "the changed ctx is not JSON: " + describe(error));
      }
      if (typeof after !== "string") return fail("SANDBOX_ERR_RESULT", "the changed ctx has no JSON form");
      changed = after !== ctxJson;
    }
    if (decision.length + (changed ? after.length : 0) > settings.maxResultBytes) {
      return fail(
        "SANDBOX_ERR_RESULT",
        "the result is larger than maxResultBytes (" + settings.maxResultBytes + " bytes)",
      );
    }
    return changed ? '{"d":' + decision + ',"c":' + after + "}" : '{"d":' + decision + "}";
  }

  /** Awaits the handler's promise without reading its (possibly replaced) then or constructor. */
  async function settleLater(result, ctx, ctxJson, before) {
    try {
      defineProperty(result, "constructor", promiseConstructor);
    } catch {
      // A frozen or foreign thenable: await falls back to calling its then, which is the hook's own.
    }
    let value;
    try {
      value = await result;
    } catch (error) {
      return settle(fail("SANDBOX_ERR_THREW", describe(error)));
    }
    settle(finish(value, ctx, ctxJson, before));
  }

  function settle(envelope) {
    if (settled !== "") return;
    settled = envelope;
    if (waiter !== null) {
      const wake = waiter;
      waiter = null;
      wake(envelope);
    }
  }

  function hostError(name, code, message, needs) {
    const error = new NativeError(message);
    defineProperty(
      error,
      "name",
      /** @type {PropertyDescriptor} */ ({
        __proto__: null,
        value: name,
        writable: true,
        configurable: true,
      }),
    );
    defineProperty(
      error,
      "code",
      /** @type {PropertyDescriptor} */ ({
        __proto__: null,
        value: code,
        writable: true,
        configurable: true,
        enumerable: true,
      }),
    );
    if (needs !== null) {
      defineProperty(
        error,
        "needs",
        /** @type {PropertyDescriptor} */ ({
          __proto__: null,
          value: needs,
          writable: true,
          configurable: true,
          enumerable: true,
        }),
      );
    }
    return error;
  }

  async function call(method, args) {
    let json;
    try {
      json = stringify(args);
    } catch (error) {
      throw new NativeTypeError("the arguments of api." + method + " are not JSON: " + describe(error));
    }
    if (typeof json !== "string" || json.length > settings.maxCallBytes) {
      throw new NativeTypeError(
        "the arguments of api." +
          method +
          " are not JSON, or larger than " +
          settings.maxCallBytes +
          " characters",
      );
    }
    const pending = apply(bridgeApply, bridge, [undefined, [method, json, callToken], asyncCall]);
    // With its own constructor set to the real Promise, await adopts it without reading a
    // (possibly replaced) Promise.prototype.then or constructor.
    defineProperty(pending, "constructor", promiseConstructor);
    const reply = parse(await pending);
    if (reply[0] === 0) return reply[1];
    if (reply[0] === 2) return undefined;
    throw hostError(reply[1], reply[2], reply[3], reply[4]);
  }

  function log(parts) {
    if (logFull) return;
    let text = "";
    for (let i = 0; i < parts.length; i++) {
      let part;
      try {
        part = typeof parts[i] === "string" ? parts[i] : toText(parts[i]);
      } catch {
        part = "(a value that cannot be shown as text)";
      }
      text = i === 0 ? part : text + " " + part;
    }
    logLines++;
    logChars += text.length;
    // The host counts exactly and says what was dropped; past the caps, one more line tells it so.
    if (logLines > settings.maxLogLines || logChars > settings.maxLogBytes) logFull = true;
    apply(bridgeApplySync, bridge, [undefined, ["log", clip(text, settings.maxLogBytes + 1)], syncCall]);
  }

  /** The user's config, parsed inside the isolate (so it is the isolate's own objects) and frozen all the way down. */
  function deepFreeze(value) {
    if (value !== null && typeof value === "object") {
      const names = keys(value);
      for (let i = 0; i < names.length; i++) deepFreeze(value[names[i]]);
      freeze(value);
    }
    return value;
  }

  const api = {
    hook: settings.name,
    config: deepFreeze(settings.config),
    fs: freeze({
      readFile: (path) => call("fs.readFile", [path]),
      writeFile: (path, data) => call("fs.writeFile", [path, data]),
      readdir: (path) => call("fs.readdir", [path]),
      stat: (path) => call("fs.stat", [path]),
    }),
    net: freeze({ fetch: (url, init) => call("net.fetch", [url, init]) }),
    process: freeze({ exec: (command, args, options) => call("process.exec", [command, args, options]) }),
    env: freeze({ get: (name) => call("env.get", [name]) }),
    log: (...parts) => log(parts),
    state: freeze({
      get: (key) => call("state.get", [key]),
      set: (key, value) => call("state.set", [key, value]),
    }),
  };
  const plainApi = freeze({ ...api });

  // WebAssembly memory is allocated outside isolated-vm's memory limit (a hook filled 250 MB under a
  // 32 MB limit), so hooks get no WebAssembly.
  delete globalThis.WebAssembly;
  // Atomics.waitAsync with a timeout aborts the whole process that holds the isolate (V8 under
  // isolated-vm 5 on Node 20, the first line it was seen on: "terminate called without an active exception"), so it is not offered.
  delete Atomics.waitAsync;

  defineProperty(
    globalThis,
    "defineHook",
    /** @type {PropertyDescriptor} */ ({
      __proto__: null,
      value: freeze((hook) => hook),
      writable: true,
      configurable: true,
    }),
  );

  /** Takes the module namespace once, after the bundle ran; "" or what is wrong with its default export. */
  function attach(namespace) {
    try {
      const hook = namespace.default;
      if (hook === null || typeof hook !== "object") {
        return "the bundle has no default export object: end it with export default defineHook({ ... })";
      }
      const on = hook.on;
      if (on === null || typeof on !== "object") return "the default export has no `on` object of handlers";
      definition = hook;
      return "";
    } catch (error) {
      return "reading the default export threw: " + describe(error);
    }
  }

  /** One call: an envelope, or "" when the handler's promise has not settled by the end of this task. */
  function run(point, ctxJson, outcomeJson, token) {
    // A call that ended without comparing (it threw, or was rejected) left its snapshot behind.
    forgetSnapshot();
    callToken = token;
    logLines = 0;
    logChars = 0;
    logFull = false;
    settled = "";
    waiter = null;
    let handler;
    try {
      const on = definition.on;
      handler = on === null || on === undefined ? undefined : on[point];
    } catch (error) {
      return fail("SANDBOX_ERR_THREW", "reading its handler threw: " + describe(error));
    }
    if (typeof handler !== "function")
      return fail("SANDBOX_ERR_NO_HANDLER", "the hook has no handler for " + point);
    let ctx;
    let hookApi = plainApi;
    try {
      ctx = parse(ctxJson);
      if (outcomeJson !== "") hookApi = freeze({ ...api, outcome: freeze(parse(outcomeJson)) });
    } catch {
      return fail("SANDBOX_ERR_OPTIONS", "ctx is not JSON");
    }
    let before = shot;
    try {
      snapshot(ctx);
    } catch {
      // Too many values, or too deep to walk here: the JSON comparison after the call still works.
      forgetSnapshot();
      before = noSnapshot;
    }
    let result;
    let then;
    try {
      result = apply(handler, definition, [ctx, hookApi]);
      then =
        result !== null && (typeof result === "object" || typeof result === "function")
          ? result.then
          : undefined;
    } catch (error) {
      return fail("SANDBOX_ERR_THREW", describe(error));
    }
    if (typeof then !== "function") return finish(result, ctx, ctxJson, before);
    settleLater(result, ctx, ctxJson, before);
    return settled;
  }

  /** After run returned "": the envelope if the handler settled in that task's microtasks, else "". */
  function take() {
    return settled;
  }

  /** The envelope, once the handler's promise settles (the host's watchdog bounds the wait). */
  function wait() {
    if (settled !== "") return settled;
    return new NativePromise((wake) => {
      waiter = wake;
    });
  }

  return [attach, run, take, wait];
}
