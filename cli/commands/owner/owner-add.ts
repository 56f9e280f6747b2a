import { ownerChangeCommand } from "./owner-change-command.js";

export default ownerChangeCommand({
  name: "add",
  summary: "Make someone an owner of a package or a scope",
  help: [
    "The new owner may publish, yank, deprecate and change owners; for a scope, also publish new",
    "packages in it. The registry knows an owner once a token was made for it. Needs a publish",
    "token of an owner of the package or its scope, or an admin token.",
  ].join("\n"),
  change: "add",
  said(change, name, owners) {
    if (!change.changed)
      return `${change.owner} is already an owner of ${name} on ${change.registry}: nothing changed`;
    const rights =
      "scope" in change.of
        ? `may now publish new packages in ${change.of.scope} and manage every package in it`
        : `may now publish, yank and deprecate versions of ${name} and change its owners`;
    return `added ${change.owner} to the owners of ${name} on ${change.registry} (now: ${owners(change.after)}): ${change.owner} ${rights}`;
  },
});
