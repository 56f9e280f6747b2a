import * as z from "zod";
import { ownerNamePattern } from "../../package/names.js";

/** Path and query pieces shared by several routes. Names are checked by the handlers, for their own codes. */
export const nameParam = z
  .string()
  .max(300)
  .describe("package name; a scoped name is URL-encoded: @acme%2Fguard");
export const versionParam = z.string().max(300).describe("exact semver version");
export const ownerName = z
  .string()
  .regex(ownerNamePattern, "an owner name is lower case a-z 0-9 . _ -, at most 64 characters");

export const packageParams = z.object({ name: nameParam });
export const versionParams = z.object({ name: nameParam, version: versionParam });

/** How deep a listing may page, through the API and on the web pages alike. */
export const maxOffset = 10_000;

export const pageQuery = {
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(maxOffset).default(0),
};

/** OpenAPI: routes that take `Authorization: Bearer <token>`. */
export const bearer = [{ bearer: [] }];
