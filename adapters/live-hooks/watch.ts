import { type FSWatcher, watch } from "node:fs";
import { join } from "node:path";

/** Edits come in bursts (an editor's temp file and rename, install writing json then lock): one reload after the last. */
const quietMs = 200;

/**
 * Calls `changed` once things are quiet after hookyard.json, hookyard.lock or anything under
 * .hookyard/hooks/ changed, with what changed first. Folders that appear later (.hookyard/hooks
 * made after the start) are watched from then on; nothing else under .hookyard (state, logs,
 * cache, the token file) counts.
 */
export function watchWorkspace(root: string, changed: (what: string) => void): { close(): void } {
  const dotDir = join(root, ".hookyard");
  const hooksDir = join(dotDir, "hooks");
  const watchers = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let first: string | undefined;
  let closed = false;

  const touched = (what: string) => {
    first ??= what;
    clearTimeout(timer);
    timer = setTimeout(() => {
      const what = first as string;
      first = undefined;
      if (!closed) changed(what);
    }, quietMs);
  };
  const follow = (dir: string, recursive: boolean, onEvent: (name: string | null) => void) => {
    if (closed || watchers.has(dir)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { recursive, persistent: false }, (_type, name) => onEvent(name));
    } catch {
      return; // not there (yet): its parent's watcher follows it when it appears
    }
    watcher.on("error", () => {
      watcher.close();
      watchers.delete(dir);
    });
    watchers.set(dir, watcher);
  };
  const followHooks = () =>
    follow(hooksDir, true, (name) => touched(`.hookyard/hooks/${name ?? ""}`.replace(/\/$/, "")));
  const followDotDir = () =>
    follow(dotDir, false, (name) => {
      if (name !== "hooks") return;
      // Made, removed or replaced: watch whatever is there now.
      watchers.get(hooksDir)?.close();
      watchers.delete(hooksDir);
      followHooks();
      touched(".hookyard/hooks");
    });

  follow(root, false, (name) => {
    if (name === "hookyard.json" || name === "hookyard.lock") touched(name);
    else if (name === ".hookyard") {
      followDotDir();
      followHooks();
    }
  });
  followDotDir();
  followHooks();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
