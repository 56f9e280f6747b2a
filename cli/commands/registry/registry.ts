import type { CommandGroup } from "../../command.js";
import serve from "./registry-serve.js";
import tokenCreate from "./registry-token-create.js";

/** `hookyard registry serve` and `hookyard registry token create`. */
export default {
  name: "registry",
  summary: "Run a hookyard registry and manage its tokens",
  subcommands: [serve, { name: "token", summary: "Manage a registry's tokens", subcommands: [tokenCreate] }],
} satisfies CommandGroup;
