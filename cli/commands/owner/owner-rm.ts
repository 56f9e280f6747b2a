import { ownerChangeCommand } from "./owner-change-command.js";

export default ownerChangeCommand({
  name: "rm",
  summary: "Remove an owner of a package or a scope (never the last one)",
  help: [
    "The removed owner can no longer publish or manage it (an owner of its scope still can).",
    "The registry refuses to remove the last owner (REG_ERR_LAST_OWNER): add another first.",
    "You may remove yourself. Same rights as `hookyard owner add`.",
  ].join("\n"),
  change: "remove",
  said(change, name, owners) {
    return change.changed
      ? `removed ${change.owner} from the owners of ${name} on ${change.registry} (now: ${owners(change.after)}): ${change.owner} can no longer publish or manage it`
      : `${change.owner} is not an owner of ${name} on ${change.registry} (its owners: ${owners(change.before)}): nothing changed`;
  },
});
