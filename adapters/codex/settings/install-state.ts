import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { readSettings } from "../../claude/settings/settings-file.js";
import { isCodexHookyardEntry } from "./hookyard-entries.js";
import { codexHome, codexHookIdentities, untrustedHooks } from "./trust.js";

/** hookyard's entries in one of Codex's hooks.json files, and how many of them Codex has not trusted. */
export interface CodexInstall {
  file: string;
  entries: number;
  /** The events whose entry Codex would not run now (never trusted, or changed since). */
  untrusted: string[];
  /** Where Codex keeps its trust records. */
  config: string;
}

/**
 * What `install-into codex` put in the project's `.codex/hooks.json` and the user's
 * `$CODEX_HOME/hooks.json`, each with what Codex has not trusted: an install Codex silently does
 * not run must not look like one that runs. Files with no hookyard entry are left out.
 */
export async function codexInstalls(root: string, env: NodeJS.ProcessEnv): Promise<CodexInstall[]> {
  const home = codexHome(env);
  const config = join(home, "config.toml");
  const configText = await readFile(config, "utf8").catch(() => "");
  const installs: CodexInstall[] = [];
  for (const file of [join(root, ".codex", "hooks.json"), join(home, "hooks.json")]) {
    const settings = await readSettings(file).catch(() => undefined);
    if (!settings?.existed) continue;
    const ours = codexHookIdentities(file, settings.data, isCodexHookyardEntry);
    if (ours.length === 0) continue;
    const untrusted = untrustedHooks(ours, configText).map((identity) => identity.event);
    installs.push({ file, entries: ours.length, untrusted, config });
  }
  return installs;
}
