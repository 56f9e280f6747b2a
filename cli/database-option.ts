import { resolve } from "node:path";
import type { CliContext } from "./command.js";

/**
 * The registry database a command was given: --database, else HOOKYARD_REGISTRY_DATABASE, else
 * undefined (the data dir's own sqlite file). A relative sqlite: path starts at --cwd.
 */
export function databaseOption(option: unknown, context: CliContext): string | undefined {
  const text = typeof option === "string" ? option : context.env.HOOKYARD_REGISTRY_DATABASE || undefined;
  const file = text?.startsWith("sqlite:") ? text.slice("sqlite:".length) : "";
  if (file !== "") return `sqlite:${resolve(context.cwd, file.replace(/^\/\/(?=\/)/, ""))}`;
  return text;
}
