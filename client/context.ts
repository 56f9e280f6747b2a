import type { InstallTransactionOptions } from "./install/transaction.js";
import type { DownloadProgress } from "./registry-client.js";

/** Something a person should be told: a warning (a deprecated version) or what a change did (a key pinned). */
export interface Notice {
  level: "warning" | "info";
  /** Plain text, possibly with words a package's owner wrote: escape it before a terminal shows it. */
  text: string;
}

/**
 * Where the client works and how it reaches its caller. It prints nothing and asks nothing
 * itself: each callback is the caller's, and an omitted one means "say nothing" or, for
 * `approveGrants`, "grant nothing beyond what was named".
 */
export interface ClientContext {
  /** The workspace (or a folder in it) the change is about. */
  cwd: string;
  /** Where the registry and its token come from (HOOKYARD_REGISTRY, HOOKYARD_TOKEN) and where the user config lives (HOME, XDG_CONFIG_HOME). */
  env: NodeJS.ProcessEnv;
  notice?(notice: Notice): void;
  /** Called for each download; the returned handle is told the bytes as they arrive, then `done`. */
  download?(label: string): { update(progress: DownloadProgress): void; done(): void };
  /**
   * Asked once per install or update about the requested capabilities that no given grant covers;
   * returns the ones the person approved (each one of `undecided`).
   */
  approveGrants?(id: string, undecided: readonly string[]): Promise<string[]>;
  /**
   * Asked before a registry's signing key is pinned for the first time (no `--yes`); false stops the
   * install with nothing written. Omitted: the key is pinned on first use, and a notice says so.
   */
  approveKey?(origin: string, keyId: string): Promise<boolean>;
  /** Test seams for the install transaction (a test's own process passes them; nothing in the environment does). */
  installTransaction?: InstallTransactionOptions;
}
