import type { Command } from "../command.js";
import init from "./init.js";
import list from "./list.js";
import run from "./run.js";

/** Every command, in the order `hookyard --help` lists them. */
export const commands: Command[] = [init, list, run];
