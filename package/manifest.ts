// One function of semver, not its 47 modules: the manifest is read at every exec that loads a community hook.
import validSemver from "semver/functions/valid.js";
import * as z from "zod";
import { effects, type Point, points } from "../core/events.js";
import { hookSettingsSchema, type Matcher } from "../core/hook.js";
import { patternIssue } from "../core/regex.js";
import { capabilityRequestSchema, formatField } from "../sandbox/capabilities.js";

/**
 * A community hook package's manifest: its package.json, with the usual npm fields and a
 * `hookyard` field (DESIGN §6). The runner defines what a hook is; the registry validates
 * published tarballs with this schema and the CLI writes it.
 */

/** npm's rules: lower case, URL-safe, an optional @scope/, at most 214 characters. */
export const packageNameSchema = z
  .string()
  .max(214, "a package name is at most 214 characters")
  .regex(
    /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/,
    "a package name is lower case a-z 0-9 . _ ~ -, optionally @scope/name, starting with a letter or digit",
  );

export const packageVersionSchema = z
  .string()
  .max(256)
  .refine((v) => validSemver(v) === v, "the version must be valid semver, such as 1.0.0");

/** A path inside the package: relative, forward slashes, no `..`. */
const packagePathSchema = z
  .string()
  .min(1)
  .max(255)
  .refine(
    (p) => !p.startsWith("/") && !p.includes("\\") && !p.includes("\0") && !p.split("/").includes(".."),
    "must be a relative path inside the package (no leading /, no .., no \\)",
  );

export const hookManifestSchema = hookSettingsSchema
  .extend({
    /** The bundled ES module, one file with no imports, relative to the package root. */
    main: packagePathSchema,
    events: z
      .array(z.enum(points as [Point, ...Point[]]))
      .min(1, "list at least one event")
      .refine((e) => new Set(e).size === e.length, "events must not repeat"),
    capabilities: capabilityRequestSchema.default({}),
    effects: z
      .array(z.enum(effects))
      .default([])
      .refine((e) => new Set(e).size === e.length, "effects must not repeat"),
  })
  .superRefine((manifest, ctx) => {
    // A field a hook asks to rewrite must be one it can: at a point it runs at, with the effect declared.
    for (const kind of ["rewrite", "redact"] as const) {
      for (const [i, field] of (manifest.capabilities[kind] ?? []).entries()) {
        if (!manifest.effects.includes("rewrite")) {
          ctx.addIssue({
            code: "custom",
            path: ["effects"],
            message: `capabilities.${kind} asks to change ${formatField(field)}: list "rewrite" in effects too`,
          });
          return;
        }
        if (!(manifest.events as readonly string[]).includes(field.point)) {
          ctx.addIssue({
            code: "custom",
            path: ["capabilities", kind, i],
            message: `${formatField(field)} is at ${field.point}, which is not in events`,
          });
        }
      }
    }
  });
export type HookManifest = z.output<typeof hookManifestSchema>;

const repositorySchema = z.union([
  z.string().max(1024),
  z.looseObject({ type: z.string().max(64).optional(), url: z.string().max(1024) }),
]);

export const packageManifestSchema = z.looseObject({
  name: packageNameSchema,
  version: packageVersionSchema,
  description: z.string().max(1024).optional(),
  license: z.string().max(256).optional(),
  keywords: z.array(z.string().max(64)).max(32).optional(),
  repository: repositorySchema.optional(),
  homepage: z.string().max(1024).optional(),
  author: z.union([z.string().max(512), z.looseObject({ name: z.string().max(256) })]).optional(),
  hookyard: hookManifestSchema,
});
export type PackageManifest = z.output<typeof packageManifestSchema>;

/**
 * The first `hookyard.matcher` pattern the regex policy (core/regex.ts) refuses, as a message that
 * names its field, shows the pattern and says why and what to do; undefined when every one passes.
 * The registry refuses such a package at publish and `hookyard pack` before it, so no agent ever
 * installs a matcher its runner would refuse (RUN_ERR_BAD_MATCHER) or that could stall it.
 */
export function unsafeMatcher(hookyard: { matcher?: Matcher | undefined }): string | undefined {
  for (const [field, pattern] of Object.entries(hookyard.matcher ?? {})) {
    const reason = patternIssue(pattern);
    if (reason === undefined) continue;
    const shown = pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern;
    return `hookyard.matcher.${field}: the pattern ${JSON.stringify(shown)} ${reason}`;
  }
  return undefined;
}
