import type { SandboxErrorCode } from "../errors.js";
import type { HookAnswer } from "../wire/types.js";

/** The codes a guest may report about itself; anything else in an envelope is refused. */
const guestCodes: ReadonlySet<string> = new Set<SandboxErrorCode>([
  "SANDBOX_ERR_THREW",
  "SANDBOX_ERR_RESULT",
  "SANDBOX_ERR_NO_HANDLER",
  "SANDBOX_ERR_OPTIONS",
]);

/** Room for the envelope's own framing around the decision and ctx. */
const framing = 64;

/** What most hooks answer: no decision, ctx unchanged. Known by its text, it needs no parsing. */
const nothing = '{"d":null}';

/**
 * A guest's envelope (see guest/bootstrap.js) as an answer. The length is checked before parsing
 * (a string's UTF-8 size is at least its length), the exact byte size right after.
 */
export function readEnvelope(
  hook: string,
  envelope: unknown,
  maxResultBytes: number,
  ms: number,
): HookAnswer {
  if (envelope === nothing) return { hook, status: "ok", decision: undefined, ms };
  const refuse = (message: string): HookAnswer => ({
    hook,
    status: "error",
    code: "SANDBOX_ERR_RESULT",
    message,
    ms,
  });
  if (typeof envelope !== "string") return refuse("the hook's result did not come back as text");
  if (envelope.length > maxResultBytes + framing || Buffer.byteLength(envelope) > maxResultBytes + framing) {
    return refuse(`the result is larger than maxResultBytes (${maxResultBytes} bytes)`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(envelope);
  } catch {
    return refuse("the hook's result is not JSON");
  }
  if (!isPlainObject(parsed)) return refuse("the hook's result is malformed");
  if (Object.hasOwn(parsed, "x")) {
    const [code, message] = Array.isArray(parsed.x) ? parsed.x : [];
    if (typeof code === "string" && guestCodes.has(code) && typeof message === "string") {
      return { hook, status: "error", code: code as SandboxErrorCode, message, ms };
    }
    return refuse("the hook's result is malformed");
  }
  const decision = parsed.d;
  if (decision !== null && !isPlainObject(decision)) {
    return refuse("the decision is not an object");
  }
  if (!Object.hasOwn(parsed, "c")) return { hook, status: "ok", decision: decision ?? undefined, ms };
  if (!isPlainObject(parsed.c)) return refuse("the changed ctx is not an object");
  return { hook, status: "ok", decision: decision ?? undefined, ctx: parsed.c, ms };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
