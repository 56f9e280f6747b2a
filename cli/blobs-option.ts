import { resolve } from "node:path";
import type { CliContext } from "./command.js";

/**
 * Where a command keeps the registry's tarballs: --blobs, else HOOKYARD_REGISTRY_BLOBS, else
 * undefined (the data dir's blobs/). A relative file: path starts at --cwd.
 */
export function blobsOption(option: unknown, context: CliContext): string | undefined {
  const text = typeof option === "string" ? option : context.env.HOOKYARD_REGISTRY_BLOBS || undefined;
  const dir = text?.startsWith("file:") ? text.slice("file:".length) : "";
  if (dir !== "") return `file:${resolve(context.cwd, dir.replace(/^\/\/(?=\/)/, ""))}`;
  return text;
}
