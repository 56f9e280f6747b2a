const messages = {
  TARBALL_ERR_GZIP_TOO_LARGE: "The tarball is larger than the registry accepts",
  TARBALL_ERR_CORRUPT: "The tarball is not a readable gzip-compressed tar archive",
  TARBALL_ERR_TOO_LARGE: "The tarball unpacks to more bytes than the registry accepts",
  TARBALL_ERR_RATIO: "The tarball unpacks to far more bytes than its compressed size suggests",
  TARBALL_ERR_TOO_MANY_ENTRIES: "The tarball holds more entries than the registry accepts",
  TARBALL_ERR_ENTRY_TYPE: "The tarball holds an entry that is not a regular file or folder",
  TARBALL_ERR_MODE:
    "The tarball holds an entry with a setuid, setgid or sticky bit, or writable by every user",
  TARBALL_ERR_PATH: "The tarball holds an entry whose path is unsafe",
  TARBALL_ERR_NAME_TOO_LONG: "The tarball holds an entry whose name is too long",
  TARBALL_ERR_TOO_DEEP: "The tarball holds an entry nested too deep",
  TARBALL_ERR_DUPLICATE: "The tarball holds the same path twice",
  TARBALL_ERR_COLLISION: "The tarball holds two paths that are the same on some file systems",
  TARBALL_ERR_LAYOUT: "The tarball holds an entry outside its package/ folder",
} as const;

export type TarballErrorCode = keyof typeof messages;

export const tarballErrorCodes = Object.keys(messages) as TarballErrorCode[];

/** What each code means, without the publisher's remedy: the words for someone who installs. */
export const tarballErrorMessages: Readonly<Record<TarballErrorCode, string>> = messages;

/** Why a tarball was refused; `path` is the offending entry's name as the archive spells it. */
export class TarballError extends Error {
  override readonly name = "TarballError";
  readonly path: string | undefined;
  constructor(
    readonly code: TarballErrorCode,
    message: string = messages[code],
    options?: ErrorOptions & { path?: string },
  ) {
    super(message, options);
    this.path = options?.path;
  }
}

/**
 * Characters that print like others: combining marks (e + U+0301 shows as é) and compatibility
 * characters (the Kelvin sign K, ligatures), which Unicode normalisation folds into other spellings.
 */
const lookAlike = (char: string) => /\p{M}/u.test(char) || char.normalize("NFKC") !== char;

/**
 * An entry name as it can safely appear in a message: quoted, control characters escaped, long
 * names cut, and look-alike characters written as \u{…}, so two names that differ only in their
 * Unicode spelling (the collision refusal names both) never print the same.
 */
export function showPath(path: string): string {
  const escaped = [...path].map((char) =>
    lookAlike(char) ? `\\u{${char.codePointAt(0)?.toString(16)}}` : JSON.stringify(char).slice(1, -1),
  );
  const shown = `"${escaped.join("")}"`;
  return shown.length > 120 ? `${shown.slice(0, 100)}…" (${Buffer.byteLength(path)} bytes)` : shown;
}

/** Refuses the entry `path` with `code`; `problem` says what is wrong with it and what to do. */
export function refuseEntry(code: TarballErrorCode, path: string, problem: string): TarballError {
  return new TarballError(code, `entry ${showPath(path)} ${problem}`, { path });
}

/** Refuses an archive whose tar structure is broken; `problem` says where. */
export function corruptArchive(problem: string): TarballError {
  return new TarballError(
    "TARBALL_ERR_CORRUPT",
    `the tarball is not a valid tar archive (${problem}): upload the .tgz that "hookyard pack" wrote, unchanged`,
  );
}
