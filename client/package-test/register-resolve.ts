import { register } from "node:module";

/** Loaded with `node --import` in the test process `hookyard test` starts (see resolve-hookyard.ts). */
register("./resolve-hookyard.js", import.meta.url);
