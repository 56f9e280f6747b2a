import { grantWithin, parseGrants } from "../../sandbox/capabilities.js";
import type { ClientContext } from "../context.js";
import { ClientError } from "../errors.js";
import { canonicalGrants, checkGrantsWithin } from "./choose-grants.js";
import { installedEntry } from "./installed.js";
import { InstallTransaction } from "./transaction.js";

/**
 * `hookyard grant` and `revoke`: change what an installed sandboxed package may do. A grant must be
 * within what it requests; the change lands in hookyard.lock next to the integrity it applies to.
 */
export interface GrantsAfterChange {
  name: string;
  version: string;
  /** What the package is granted now, in the order it requests them. */
  grants: string[];
  /** What this change gave and took back (a narrower grant a wider one replaced counts as taken back). */
  added: string[];
  removed: string[];
}

export async function changeGrants(
  context: ClientContext,
  name: string,
  texts: readonly string[],
  change: "grant" | "revoke",
  options: { all?: boolean } = {},
): Promise<GrantsAfterChange> {
  const tx = await InstallTransaction.open(context);
  // Every check inside the transaction: a refusal releases the workspace like any other failure.
  const { entry, added, removed } = await tx.run(
    async () => {
      const entry = installedEntry(tx, name);
      const id = `${name}@${entry.version}`;
      if (entry.trust === "trusted") {
        throw new ClientError(
          "CLI_ERR_GRANT",
          `${id} is trusted: it runs in-process with every right, so grants do not apply; reinstall it with --sandbox to limit it`,
        );
      }
      const wanted =
        change === "grant"
          ? checkGrantsWithin(id, texts, entry.requested)
          : options.all
            ? entry.grants
            : canonicalGrants(texts);
      if (wanted.length === 0 && change === "grant") {
        throw new ClientError("CLI_ERR_USAGE", "name at least one grant");
      }
      const before = new Set(entry.grants);
      const after = new Set(before);
      for (const grant of wanted) {
        // A grant inside one already given adds nothing (fs.read:docs/api under fs.read:docs).
        const cover = change === "grant" ? [...before].find((given) => covers(given, grant)) : undefined;
        if (cover !== undefined) {
          context.notice?.({
            level: "info",
            text: `${id} already has ${cover === grant ? grant : `${cover}, which covers ${grant}`}`,
          });
        } else if (change === "grant") {
          after.add(grant);
          // A wider grant replaces the narrower ones it covers: one line in the lock, one to revoke.
          for (const given of [...after]) if (given !== grant && covers(grant, given)) after.delete(given);
        } else if (!after.delete(grant)) {
          const wider = [...before].find((given) => covers(given, grant));
          context.notice?.({
            level: "info",
            text: wider
              ? `${id} was not granted ${grant} itself, but ${wider} covers it: revoke ${wider} to take it back`
              : `${id} was not granted ${grant}`,
          });
        }
      }
      tx.lock.packages[name] = { ...entry, grants: order([...after], entry.requested) };
      const added = [...after].filter((grant) => !before.has(grant));
      const removed = [...before].filter((grant) => !after.has(grant));
      return { entry, added, removed, changed: added.length + removed.length > 0 };
    },
    { write: (result) => result.changed },
  );
  return { name, version: entry.version, grants: tx.lock.packages[name]?.grants ?? [], added, removed };
}

function covers(given: string, grant: string): boolean {
  return parseGrants([grant]).every((wanted) => grantWithin(wanted, parseGrants([given])));
}

/** Grants in the order the package requests them (a narrowed one where its request is), so the lock does not churn. */
function order(grants: string[], requested: readonly string[]): string[] {
  const rank = (grant: string) => {
    const at = requested.findIndex((request) => request === grant || covers(request, grant));
    return at < 0 ? requested.length : at;
  };
  return grants.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
}
