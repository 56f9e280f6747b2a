import type { CommandGroup } from "../../command.js";
import ownerAdd from "./owner-add.js";
import ownerLs from "./owner-ls.js";
import ownerRm from "./owner-rm.js";

/** `hookyard owner ls|add|rm`: who may publish and manage a package or a scope. */
export default {
  name: "owner",
  summary: "List, add or remove the owners of a package or a scope",
  subcommands: [ownerLs, ownerAdd, ownerRm],
} satisfies CommandGroup;
