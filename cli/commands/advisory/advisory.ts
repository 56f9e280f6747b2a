import type { CommandGroup } from "../../command.js";
import advisoryCreate from "./advisory-create.js";

/** `hookyard advisory create`: what `hookyard audit` and `hookyard info` warn about. */
export default {
  name: "advisory",
  summary: "Publish security advisories against a package's versions (registry admins)",
  subcommands: [advisoryCreate],
} satisfies CommandGroup;
