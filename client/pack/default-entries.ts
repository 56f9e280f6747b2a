/**
 * Where a hook's source is looked for when --entry is not given, in this order. Apart from
 * pack-package.ts (which loads esbuild): `pack --help` shows them at start-up.
 */
export const defaultEntries = ["src/hook.ts", "src/hook.mts", "src/hook.js", "src/hook.mjs", "src/index.ts"];
