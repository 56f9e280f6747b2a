import * as z from "zod";
import type { FetchResult } from "../sandbox/broker/net.js";
import type { ExecResult } from "../sandbox/broker/process.js";
import type { FileStat } from "../sandbox/file-stat.js";
import { closestName } from "./closest-name.js";
import type { CtxOf, Point } from "./events.js";
import { points } from "./events.js";

/**
 * How a hook runs: in-process with every right hookyard has (builtin and workspace hooks, and a
 * community hook installed with --trust), or sandboxed in an isolate with only its grants.
 */
export type Trust = "trusted" | "sandboxed";

/**
 * What a hook may hand back. Every field is optional; at most one decision object per call.
 * `rewrite` lets a hook that works on a copy (command, http, sandbox) return changed fields;
 * trusted in-process hooks may simply mutate ctx.
 */
export const decisionSchema = z.strictObject({
  block: z.string().min(1).optional(),
  ask: z.string().min(1).optional(),
  continue: z.string().min(1).optional(),
  inject: z.string().min(1).optional(),
  notice: z.string().min(1).optional(),
  rewrite: z.record(z.string(), z.unknown()).optional(),
});
export type Decision = z.infer<typeof decisionSchema>;

export type { FileStat } from "../sandbox/file-stat.js";

// What api.net.fetch and api.process.exec resolve to is the broker's answer, for every trust level.
export type { ExecResult, FetchResult };

/** The host API a hook gets. Trusted hooks get it unrestricted; sandboxed hooks get it checked per grant. */
export interface HookApi {
  readonly hook: string;
  /** The hook's settings from hookyard.json (`hooks.<name>.config`), read-only; `{}` when none. */
  readonly config: Readonly<Record<string, unknown>>;
  fs: {
    readFile(path: string): Promise<string>;
    writeFile(path: string, data: string): Promise<void>;
    readdir(path: string): Promise<string[]>;
    stat(path: string): Promise<FileStat>;
  };
  net: {
    fetch(
      url: string,
      /** `timeoutMs` may shorten the limit (30 s trusted; in the sandbox the broker's cap, 5 s by default). */
      init?: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number },
    ): Promise<FetchResult>;
  };
  process: {
    exec(
      command: string,
      args?: string[],
      options?: { cwd?: string; input?: string; timeoutMs?: number },
    ): Promise<ExecResult>;
  };
  /** Async like every other capability, so the same hook runs trusted and sandboxed (where the host checks the grant). */
  env: { get(name: string): Promise<string | undefined> };
  log(...parts: unknown[]): void;
  state: {
    get<T = unknown>(key: string): Promise<T | undefined>;
    set(key: string, value: unknown): Promise<void>;
  };
  /** Only for background hooks: what the synchronous chain decided before they ran. */
  readonly outcome?: ChainVerdict;
}

export interface ChainVerdict {
  verdict: "allow" | "ask" | "block";
  hook?: string;
  reason?: string;
}

export type Handler<P extends Point> = (
  ctx: CtxOf<P>,
  api: HookApi,
) => Decision | undefined | void | Promise<Decision | undefined | void>;

export type Handlers = { [P in Point]?: Handler<P> };

export const matcherSchema = z.record(z.string(), z.string());
export type Matcher = z.infer<typeof matcherSchema>;

/** Settings shared by every hook, whatever its engine; hookyard.json may override them per name. */
export const hookSettingsSchema = z.object({
  priority: z.number().finite().optional(),
  matcher: matcherSchema.optional(),
  onError: z.enum(["open", "block"]).optional(),
  mode: z.enum(["sync", "background"]).optional(),
  timeoutMs: z.number().int().positive().max(600_000).optional(),
});
export type HookSettings = z.infer<typeof hookSettingsSchema>;

export interface HookDefinition extends HookSettings {
  name: string;
  description?: string;
  on: Handlers;
}

export const hookNameSchema = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9._-]{0,63}$/,
    "a hook name is 1-64 of a-z 0-9 . _ -, starting with a letter or digit",
  );

export const hookDefinitionSchema = hookSettingsSchema.extend({
  name: hookNameSchema,
  description: z.string().optional(),
  on: z
    .record(z.string(), z.unknown())
    .refine((on) => Object.keys(on).length > 0, "`on` must handle at least one point")
    .superRefine((on, context) => {
      // Each key that is not a point by name, with the point it most likely meant.
      for (const key of Object.keys(on).filter((k) => !(points as string[]).includes(k))) {
        const meant = closestName(key, points);
        context.addIssue({
          code: "custom",
          path: [key],
          message: `${JSON.stringify(key)} is not a point${meant ? `: did you mean ${meant}?` : ""} (the points: ${points.join(", ")})`,
        });
      }
    })
    .refine(
      (on) => Object.values(on).every((v) => typeof v === "function"),
      "every `on` entry must be a function",
    ),
});

/** Identity at run time; it exists so hook files get types, and is the same inside the sandbox. */
export function defineHook<const H extends HookDefinition>(hook: H): H {
  return hook;
}
