import { refuseEntry, showPath } from "./errors.js";

type Kind = "file" | "directory";

interface Claim {
  /** The path as the archive spells it, before normalisation. */
  spelling: string;
  kind: Kind;
  /** False for a folder known only as the parent of other entries. */
  explicit: boolean;
}

/**
 * The key under which two paths are the same file on some file system: macOS normalises Unicode,
 * Windows and macOS ignore case. Upper- then lower-casing folds more pairs than lower-casing alone
 * ("ß" and "SS", the Kelvin sign and "k"): a false clash refuses a strange package, a missed one
 * lets a later entry overwrite an earlier one on someone's disk.
 */
function foldKey(path: string): string {
  return path.normalize("NFC").toUpperCase().toLowerCase().normalize("NFC");
}

/**
 * Every path of a package, folders implied by deeper paths included. Refuses a path seen before
 * (a later entry would replace the earlier), two spellings of one path (NFC/NFD or case twins),
 * and a file that is also used as a folder.
 */
export class PathIndex {
  private readonly claims = new Map<string, Claim>();

  /** `root` is prepended to paths in refusals, so they name the entry as the archive does. */
  constructor(private readonly root: string) {}

  /** Claims `path` (relative, as spelled, no trailing slash) and every folder above it. */
  claim(path: string, kind: Kind): void {
    const segments = path.split("/");
    for (let depth = 1; depth < segments.length; depth++) {
      this.claimOne(segments.slice(0, depth).join("/"), "directory", false);
    }
    this.claimOne(path, kind, true);
  }

  /** Every folder below the root, NFC-normalised, sorted. */
  directories(): string[] {
    return [...this.claims.values()]
      .filter((claim) => claim.kind === "directory")
      .map((claim) => claim.spelling.normalize("NFC"))
      .sort();
  }

  private claimOne(spelling: string, kind: Kind, explicit: boolean): void {
    const key = foldKey(spelling);
    const earlier = this.claims.get(key);
    if (!earlier) {
      this.claims.set(key, { spelling, kind, explicit });
      return;
    }
    const name = this.root + spelling;
    if (earlier.spelling !== spelling) {
      throw refuseEntry(
        "TARBALL_ERR_COLLISION",
        name,
        `and ${showPath(this.root + earlier.spelling)} are the same path on case-insensitive or Unicode-normalising file systems (macOS, Windows): rename one`,
      );
    }
    if (earlier.explicit && explicit) {
      throw refuseEntry(
        "TARBALL_ERR_DUPLICATE",
        name,
        "appears twice, so the later entry would replace the earlier one: pack each path once",
      );
    }
    if (earlier.kind !== kind) {
      throw refuseEntry(
        "TARBALL_ERR_COLLISION",
        name,
        "is both a file and a folder holding other entries: rename the file or the folder",
      );
    }
    earlier.explicit ||= explicit;
  }
}
