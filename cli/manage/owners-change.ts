import type { OwnersAnswer, OwnersOf } from "../../client/registry-client.js";
import type { CliContext } from "../command.js";
import { checkOwnerName, ownersTargetName, parseOwnersTarget } from "./owners-target.js";
import { withRegistry } from "./registry-session.js";

export interface OwnersChange {
  registry: string;
  of: OwnersOf;
  owner: string;
  /** The owners before and after (after is `before` when nothing needed changing). */
  before: string[];
  after: string[];
  changed: boolean;
}

/**
 * `owner add` and `owner rm`: both arguments checked before any request, the owners read first
 * (adding an owner twice, or removing one who is not, changes nothing and asks for no rights),
 * then changed.
 */
export async function changeOwners(
  context: CliContext,
  options: Record<string, unknown>,
  [ownerText = "", targetText = ""]: string[],
  change: "add" | "remove",
): Promise<OwnersChange> {
  const owner = checkOwnerName(ownerText);
  const of = parseOwnersTarget(targetText);
  const name = ownersTargetName(of);
  const target = "scope" in of ? of.scope : of.package;
  return withRegistry(
    context,
    options,
    async (client) => {
      const before = (await client.owners(of)).owners;
      const needed = change === "add" ? !before.includes(owner) : before.includes(owner);
      const after: OwnersAnswer = needed
        ? await client.changeOwners(of, { [change]: [owner] })
        : { owners: before };
      return { registry: client.url, of, owner, before, after: after.owners, changed: needed };
    },
    {
      REG_ERR_FORBIDDEN: `only the owners of ${name} (\`hookyard owner ls ${target}\`) or an admin may change them; nothing was changed`,
      REG_ERR_OWNER_NOT_FOUND: `check the name, or ask the registry's operator to make ${owner} a token (\`hookyard registry token create --owner ${owner}\`); nothing was changed`,
      REG_ERR_LAST_OWNER: `\`hookyard owner add <someone> ${target}\` first, then remove ${owner}`,
    },
  );
}
