/**
 * Paths whose loss wrecks the machine or the user's data. A path deeper inside one of them
 * (`/var/tmp/x`, `~/project/build`) is not one of them: only the folder itself or all its entries.
 */
export type Place = "root" | "system" | "home" | "everything-here";

const systemFolders = new Set([
  "bin",
  "boot",
  "dev",
  "etc",
  "home",
  "lib",
  "lib32",
  "lib64",
  "opt",
  "proc",
  "root",
  "sbin",
  "srv",
  "sys",
  "usr",
  "var",
  "Applications",
  "Library",
  "System",
  "Users",
  "Volumes",
]);

/** `~`, `~user`, `$HOME`, `${HOME}`, and what follows them. */
const homePrefix = /^(?:~[A-Za-z0-9_.-]*|\$HOME|\$\{HOME\})(?=\/|$)/;

/** Path segments with `.` and empty ones dropped and `..` applied, never climbing above the start. */
function segments(path: string): string[] {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return out;
}

/** Everything in a folder: the folder itself, or a `*` of its entries. */
const whole = (parts: string[]) => parts.length === 0 || (parts.length === 1 && parts[0] === "*");

export function placeOf(path: string): Place | undefined {
  const home = homePrefix.exec(path);
  if (home) {
    const rest = path.slice(home[0].length);
    // `~/..` climbs out of home: at least as bad as home itself.
    return whole(segments(rest)) || rest.split("/").includes("..") ? "home" : undefined;
  }
  const parts = segments(path);
  if (path.startsWith("/")) {
    if (whole(parts)) return "root";
    const [top, ...below] = parts;
    return top !== undefined && systemFolders.has(top) && whole(below) ? "system" : undefined;
  }
  return parts.length === 1 && parts[0] === "*" ? "everything-here" : undefined;
}

export function describePlace(place: Place): string {
  switch (place) {
    case "root":
      return "every file on the machine";
    case "system":
      return "a system folder and everything in it";
    case "home":
      return "the user's home folder";
    case "everything-here":
      return "everything in the current folder";
  }
}

/** Pseudo-devices that are not disks: writing to them destroys nothing. */
const harmlessDevices =
  /^\/dev\/(?:null|zero|full|random|urandom|ptmx|console|tty[A-Za-z0-9]*|std(?:in|out|err)|(?:fd|pts)\/[0-9]+|(?:shm|tcp|udp)\/.*)$/;

/** Whether a path names a device under /dev that may be a disk or a partition. */
export function isDiskDevice(path: string): boolean {
  return path.startsWith("/dev/") && path.length > "/dev/".length && !harmlessDevices.test(path);
}
