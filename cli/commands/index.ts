import type { Command, CommandGroup } from "../command.js";
import login from "./account/login.js";
import logout from "./account/logout.js";
import whoami from "./account/whoami.js";
import advisory from "./advisory/advisory.js";
import exec from "./agents/exec.js";
import importCommand from "./agents/import.js";
import installInto from "./agents/install-into.js";
import serve from "./agents/serve.js";
import status from "./agents/status.js";
import uninstallFrom from "./agents/uninstall-from.js";
import check from "./check.js";
import demo from "./demo.js";
import init from "./init.js";
import list from "./list.js";
import owner from "./owner/owner.js";
import audit from "./packages/audit.js";
import grant from "./packages/grant.js";
import info from "./packages/info.js";
import install from "./packages/install.js";
import newCommand from "./packages/new.js";
import outdated from "./packages/outdated.js";
import pack from "./packages/pack.js";
import publish from "./packages/publish.js";
import revoke from "./packages/revoke.js";
import search from "./packages/search.js";
import testCommand from "./packages/test.js";
import uninstall from "./packages/uninstall.js";
import update from "./packages/update.js";
import verify from "./packages/verify.js";
import registry from "./registry/registry.js";
import run from "./run.js";
import runs from "./runs/runs.js";
import token from "./token/token.js";
import deprecate from "./versions/deprecate.js";
import unyank from "./versions/unyank.js";
import yank from "./versions/yank.js";

/** Every command, in the order `hookyard --help` lists them: a hook's life from writing it to running it. */
export const commands: Array<Command | CommandGroup> = [
  init,
  newCommand,
  testCommand,
  pack,
  publish,
  login,
  whoami,
  logout,
  yank,
  unyank,
  deprecate,
  owner,
  token,
  advisory,
  search,
  info,
  install,
  update,
  outdated,
  uninstall,
  list,
  check,
  status,
  grant,
  revoke,
  verify,
  audit,
  run,
  runs,
  demo,
  exec,
  serve,
  installInto,
  uninstallFrom,
  importCommand,
  registry,
];
