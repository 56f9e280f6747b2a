import { checkArchivePath } from "./entry-path.js";
import { refuseEntry, TarballError } from "./errors.js";
import type { TarballLimits } from "./limits.js";
import { PathIndex } from "./path-index.js";
import type { TarEntry, TarVisitor } from "./tar-reader.js";

export interface TarballFile {
  /** Relative to package/, NFC, forward slashes. */
  path: string;
  mode: 0o644 | 0o755;
  data: Buffer;
}

export interface InspectedTarball {
  /** Sorted by path. */
  files: TarballFile[];
  /** Every folder below package/, including those only implied by deeper paths; sorted. */
  directories: string[];
  /** The files' bytes added up (npm's "unpackedSize"). */
  unpackedBytes: number;
}

const otherTypes: Record<string, string> = {
  "1": "a hard link",
  "2": "a symbolic link",
  "3": "a character device",
  "4": "a block device",
  "6": "a FIFO",
  "7": "a contiguous file",
};

const specialBits = [
  [0o4000, "setuid", "u-s"],
  [0o2000, "setgid", "g-s"],
  [0o1000, "sticky", "-t"],
] as const;

/** Applies the package rules to each entry the reader meets and collects the files that pass. */
export class PackageContents implements TarVisitor {
  private readonly index = new PathIndex("package/");
  private readonly files: TarballFile[] = [];
  /** The checked path of the file whose body comes next (the reader hands over a body right after its header). */
  private filePath: string | undefined;
  private entries = 0;
  private unpackedBytes = 0;

  constructor(private readonly limits: TarballLimits) {}

  onEntry(entry: TarEntry): void {
    if (++this.entries > this.limits.maxEntries) {
      throw new TarballError(
        "TARBALL_ERR_TOO_MANY_ENTRIES",
        `the tarball holds more than ${this.limits.maxEntries} files and folders: bundle the hook into fewer files`,
        { path: entry.path },
      );
    }
    this.filePath = undefined;
    const isDirectory = entry.typeflag === "5";
    checkType(entry, isDirectory);
    const { path, spelling } = checkArchivePath(entry.path, isDirectory, this.limits);
    checkMode(entry);
    if (path === "") return;
    this.index.claim(spelling, isDirectory ? "directory" : "file");
    if (!isDirectory) this.filePath = path;
  }

  onData(entry: TarEntry, data: Buffer): void {
    if (this.filePath === undefined) return;
    this.files.push({ path: this.filePath, mode: entry.mode & 0o111 ? 0o755 : 0o644, data });
    this.unpackedBytes += data.length;
  }

  result(): InspectedTarball {
    const files = this.files.sort((a, b) => (a.path < b.path ? -1 : 1));
    return { files, directories: this.index.directories(), unpackedBytes: this.unpackedBytes };
  }
}

function checkType(entry: TarEntry, isDirectory: boolean): void {
  if (entry.typeflag !== "0" && !isDirectory) {
    const what = otherTypes[entry.typeflag] ?? `an entry of tar type ${JSON.stringify(entry.typeflag)}`;
    const target = entry.linkpath ? ` to ${JSON.stringify(entry.linkpath)}` : "";
    throw refuseEntry(
      "TARBALL_ERR_ENTRY_TYPE",
      entry.path,
      `is ${what}${target}; a package holds only regular files and folders: put the file itself in its place, or leave it out`,
    );
  }
  if (entry.linkpath) {
    throw refuseEntry(
      "TARBALL_ERR_ENTRY_TYPE",
      entry.path,
      `is a regular entry that also names a link target (${JSON.stringify(entry.linkpath)}), which extractors treat differently: pack it again`,
    );
  }
}

function checkMode(entry: TarEntry): void {
  for (const [bit, name, chmod] of specialBits) {
    if (entry.mode & bit) {
      throw refuseEntry(
        "TARBALL_ERR_MODE",
        entry.path,
        `has the ${name} bit (mode ${entry.mode.toString(8)}): clear it (chmod ${chmod}) and pack again`,
      );
    }
  }
  // hookyard's store writes 644/755 whatever the tarball says, but the registry serves the tarball
  // as published, and a tool that keeps modes would unpack a file any user of the machine can change.
  if (entry.mode & 0o002) {
    throw refuseEntry(
      "TARBALL_ERR_MODE",
      entry.path,
      `is writable by every user (mode ${entry.mode.toString(8)}): clear it (chmod o-w) and pack again`,
    );
  }
}
