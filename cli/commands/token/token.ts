import type { CommandGroup } from "../../command.js";
import tokenList from "./token-list.js";
import tokenRevoke from "./token-revoke.js";

/** `hookyard token list|revoke`, over the registry's API (`hookyard registry token create` makes tokens on its data dir). */
export default {
  name: "token",
  summary: "List your registry tokens, or revoke one",
  subcommands: [tokenList, tokenRevoke],
} satisfies CommandGroup;
