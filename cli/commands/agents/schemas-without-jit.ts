import { config } from "zod";

/**
 * One event per process: each schema checks a value or two, so zod's compiled fast paths (a new
 * Function per object schema, made at its first parse) cost more than they save. Called before
 * the first schema is made: zod reads it then. A named import, not the `z` namespace: a bundle
 * that takes the whole namespace keeps all of zod, its 40 locales too (exec-in-process.cjs).
 */
export function schemasWithoutJit(): void {
  config({ jitless: true });
}
