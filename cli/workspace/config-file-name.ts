import type { configFileName as runnerConfigFileName } from "../../runner/config.js";

/**
 * runner/config.ts's configFileName, without loading that module: it imports every hook engine,
 * too much for `install` or `init`. The type is the runner's literal, so the two cannot differ.
 */
export const configFileName: typeof runnerConfigFileName = "hookyard.json";
