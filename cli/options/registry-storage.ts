import { resolve } from "node:path";
import type { CliContext } from "../command.js";

/**
 * The registry database a command was given: --database, else HOOKYARD_REGISTRY_DATABASE, else
 * undefined (the data dir's own sqlite file). A relative sqlite: path starts at --cwd.
 */
export function databaseOption(option: unknown, context: CliContext): string | undefined {
  return storageOption(option, context.env.HOOKYARD_REGISTRY_DATABASE, "sqlite:", context.cwd);
}

/**
 * Where a command keeps the registry's tarballs: --blobs, else HOOKYARD_REGISTRY_BLOBS, else
 * undefined (the data dir's blobs/). A relative file: path starts at --cwd.
 */
export function blobsOption(option: unknown, context: CliContext): string | undefined {
  return storageOption(option, context.env.HOOKYARD_REGISTRY_BLOBS, "file:", context.cwd);
}

function storageOption(
  option: unknown,
  fromEnv: string | undefined,
  scheme: string,
  cwd: string,
): string | undefined {
  const text = typeof option === "string" ? option : fromEnv || undefined;
  const path = text?.startsWith(scheme) ? text.slice(scheme.length) : "";
  // file:///x and sqlite:///x are absolute paths written URL-style: one slash of the three is the path's.
  if (path !== "") return `${scheme}${resolve(cwd, path.replace(/^\/\/(?=\/)/, ""))}`;
  return text;
}
