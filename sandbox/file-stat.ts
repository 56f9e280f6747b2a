import type { Stats } from "node:fs";

/** What `api.fs.stat` answers, trusted or sandboxed. */
export interface FileStat {
  type: "file" | "directory" | "symlink" | "other";
  size: number;
  mtimeMs: number;
}

export function fileStatOf(info: Stats): FileStat {
  const type = info.isFile()
    ? "file"
    : info.isDirectory()
      ? "directory"
      : info.isSymbolicLink()
        ? "symlink"
        : "other";
  return { type, size: info.size, mtimeMs: info.mtimeMs };
}
