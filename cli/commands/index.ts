import type { Command, CommandGroup } from "../command.js";
import init from "./init.js";
import list from "./list.js";
import registry from "./registry.js";
import run from "./run.js";

/** Every command, in the order `hookyard --help` lists them. */
export const commands: Array<Command | CommandGroup> = [init, list, run, registry];
