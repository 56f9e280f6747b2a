import type { Command, CommandGroup } from "../command.js";
import audit from "./audit.js";
import demo from "./demo.js";
import exec from "./exec.js";
import grant from "./grant.js";
import importCommand from "./import.js";
import info from "./info.js";
import init from "./init.js";
import install from "./install.js";
import installInto from "./install-into.js";
import list from "./list.js";
import login from "./login.js";
import newCommand from "./new.js";
import pack from "./pack.js";
import publish from "./publish.js";
import registry from "./registry.js";
import revoke from "./revoke.js";
import run from "./run.js";
import search from "./search.js";
import serve from "./serve.js";
import status from "./status.js";
import uninstall from "./uninstall.js";
import uninstallFrom from "./uninstall-from.js";
import update from "./update.js";
import verify from "./verify.js";

/** Every command, in the order `hookyard --help` lists them: a hook's life from writing it to running it. */
export const commands: Array<Command | CommandGroup> = [
  init,
  newCommand,
  pack,
  publish,
  login,
  search,
  info,
  install,
  update,
  uninstall,
  list,
  status,
  grant,
  revoke,
  verify,
  audit,
  run,
  demo,
  exec,
  serve,
  installInto,
  uninstallFrom,
  importCommand,
  registry,
];
