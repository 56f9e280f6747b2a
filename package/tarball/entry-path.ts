import { refuseEntry } from "./errors.js";
import { maxPathBytes, type TarballLimits } from "./limits.js";

const packageFolder = "package";

/** An entry's path below package/, without a trailing slash ("" for package/ itself). */
export interface RelativePath {
  /** NFC-normalised: the path to write. */
  path: string;
  /** As the archive spells it: what duplicates are told apart from collisions by. */
  spelling: string;
}

/** Checks an entry name as the archive spells it ("package/lib/a.js", or "package/lib/" for a folder). */
export function checkArchivePath(name: string, isDirectory: boolean, limits: TarballLimits): RelativePath {
  if (name.endsWith("/") && !isDirectory) {
    throw refuseEntry("TARBALL_ERR_PATH", name, `is a file whose name ends in "/": rename it`);
  }
  const path = isDirectory && name.endsWith("/") ? name.slice(0, -1) : name;
  checkSafeSpelling(path, name);
  const [top, ...rest] = path.split("/");
  if (top !== packageFolder || (rest.length === 0 && !isDirectory)) {
    throw refuseEntry(
      "TARBALL_ERR_LAYOUT",
      name,
      `is outside the package/ folder: a package tarball holds everything under package/, as "hookyard pack" writes it`,
    );
  }
  return { path: checkRelativeSegments(rest, name, limits), spelling: rest.join("/") };
}

/** Checks a path relative to package/ (as `hookyard pack` is given it) and returns it NFC-normalised. */
export function checkRelativePath(path: string, limits: TarballLimits): string {
  checkSafeSpelling(path, path);
  return checkRelativeSegments(path.split("/"), path, limits);
}

/** Refuses spellings that can escape the target folder or mean different paths on different systems. */
function checkSafeSpelling(path: string, name: string): void {
  // NFC maps a few characters onto ASCII ones (U+037E onto ";"), so the written form is checked too.
  for (const spelling of new Set([path, path.normalize("NFC")])) {
    const problem = spellingProblem(spelling);
    if (problem) throw refuseEntry("TARBALL_ERR_PATH", name, problem);
  }
}

/** What makes a spelling unsafe, and what the refusal says; the first rule that matches is reported. */
const spellingRules: [(path: string, segments: string[]) => boolean, string][] = [
  [
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
    (path) => /[\u0000-\u001f\u007f-\u009f]/.test(path),
    "has a control character (NUL, newline, …) in its name: rename it",
  ],
  [
    (path) => path.includes("\\"),
    "has a backslash, which Windows reads as a folder separator: use forward slashes",
  ],
  [
    (path) => path.startsWith("/"),
    "is an absolute path: paths in a tarball are relative to its package/ folder",
  ],
  [(path) => /^[a-z]:/i.test(path), "starts with a Windows drive prefix: paths in a tarball are relative"],
  [(path) => path.includes(":"), `has a ":", which Windows reads as a drive or a data stream: rename it`],
  [
    (_, segments) => segments.some((segment) => segment === "." || segment === ".."),
    `has a "." or ".." segment: paths in a tarball must name each folder once, going down only`,
  ],
  [
    (_, segments) => segments.includes(""),
    `has an empty segment ("//" or a leading or trailing "/"): remove the extra "/"`,
  ],
  [
    (_, segments) => segments.some((segment) => /[. ]$/.test(segment)),
    `has a name ending in "." or a space, which Windows drops (so two names could become one): rename it`,
  ],
];

function spellingProblem(path: string): string | undefined {
  const segments = path.split("/");
  return spellingRules.find(([unsafe]) => unsafe(path, segments))?.[1];
}

function checkRelativeSegments(segments: string[], name: string, limits: TarballLimits): string {
  const relative = segments.join("/").normalize("NFC");
  if (relative === "") return relative;
  for (const segment of relative.split("/")) {
    const bytes = Buffer.byteLength(segment);
    if (bytes > limits.maxNameBytes) {
      throw refuseEntry(
        "TARBALL_ERR_NAME_TOO_LONG",
        name,
        `has a ${bytes}-byte name (at most ${limits.maxNameBytes} bytes, the file systems' limit): shorten it`,
      );
    }
  }
  if (segments.length > limits.maxDepth) {
    throw refuseEntry(
      "TARBALL_ERR_TOO_DEEP",
      name,
      `is ${segments.length} folders deep below package/ (at most ${limits.maxDepth}): flatten the package`,
    );
  }
  const bytes = Buffer.byteLength(relative);
  if (bytes > maxPathBytes) {
    throw refuseEntry(
      "TARBALL_ERR_NAME_TOO_LONG",
      name,
      `has a ${bytes}-byte path (at most ${maxPathBytes} bytes below package/): shorten it`,
    );
  }
  return relative;
}
