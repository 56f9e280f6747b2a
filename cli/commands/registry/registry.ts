import type { CommandGroup } from "../../command.js";
import migrate from "./registry-migrate.js";
import serve from "./registry-serve.js";
import tokenCreate from "./registry-token-create.js";

/** `hookyard registry serve`, `registry migrate` and `registry token create`. */
export default {
  name: "registry",
  summary: "Run a hookyard registry, move it to PostgreSQL and manage its tokens",
  subcommands: [
    serve,
    migrate,
    { name: "token", summary: "Manage a registry's tokens", subcommands: [tokenCreate] },
  ],
} satisfies CommandGroup;
