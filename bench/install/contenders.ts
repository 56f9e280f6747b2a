import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type BenchPackage, benchPackageName } from "./hook-package.js";
import { hookyardBin } from "./hookyard-registry.js";
import { checkHookyardInstall, checkNpmInstall } from "./landed.js";
import { timeCommand } from "./timed-command.js";

/**
 * What is timed, round after round: the two installs, each into a fresh folder with nothing
 * cached, and the start-up floor of each tool. Folders are made before the clock starts; each
 * install is checked and its folders removed after it stops.
 */

export interface Contender {
  label: string;
  /** One timed run, in ms. */
  once(signal: AbortSignal): Promise<number>;
}

export interface ContenderSetup {
  /** A temp folder the caller removes; every run makes and removes its own folders inside it. */
  root: string;
  env: NodeJS.ProcessEnv;
  pkg: BenchPackage;
  hookyardUrl: string;
  verdaccioUrl: string;
}

export const npmCommand = process.platform === "win32" ? "npm.cmd" : "npm";
const nodeFlags = ["--no-node-snapshot"];

/** `bin` is the path to run; the report prints it shorter. */
export function hookyardInstallArgs(url: string, bin = hookyardBin): string[] {
  return [...nodeFlags, bin, "install", benchPackageName, "--registry", url, "--yes"];
}

/**
 * package-lock is on by default (npm writes package-lock.json, as hookyard writes hookyard.lock);
 * --prefer-online changes nothing with an empty cache but says no cached metadata is trusted. The
 * update notifier is off: with a fresh cache npm would ask the registry for npm's own document on
 * every run, work a real user's npm does once a week.
 */
export function npmInstallArgs(url: string, cache: string): string[] {
  return [
    "install",
    benchPackageName,
    "--registry",
    url,
    "--cache",
    cache,
    "--no-audit",
    "--no-fund",
    "--ignore-scripts",
    "--prefer-online",
    "--no-update-notifier",
  ];
}

export const nodeFloorArgs = [...nodeFlags, "-e", "0"];
export const npmFloorArgs = ["--version"];

export function installContenders(setup: ContenderSetup): {
  hookyard: Contender;
  npm: Contender;
  nodeFloor: Contender;
  npmFloor: Contender;
} {
  const { root, env, pkg } = setup;
  const timed = (command: string, args: string[], cwd: string, signal: AbortSignal) =>
    timeCommand({ command, args, cwd, env }, signal);
  return {
    hookyard: {
      label: "hookyard install",
      async once(signal) {
        const workspace = await mkdtemp(join(root, "hookyard-workspace-"));
        const ms = await timed(process.execPath, hookyardInstallArgs(setup.hookyardUrl), workspace, signal);
        await checkHookyardInstall(workspace, pkg);
        await rm(workspace, { recursive: true, force: true });
        return ms;
      },
    },
    npm: {
      label: "npm install (Verdaccio)",
      async once(signal) {
        const project = await mkdtemp(join(root, "npm-project-"));
        const cache = await mkdtemp(join(root, "npm-cache-"));
        await writeFile(join(project, "package.json"), '{"name":"x","version":"1.0.0"}\n');
        const ms = await timed(npmCommand, npmInstallArgs(setup.verdaccioUrl, cache), project, signal);
        await checkNpmInstall(project, pkg);
        await rm(project, { recursive: true, force: true });
        await rm(cache, { recursive: true, force: true });
        return ms;
      },
    },
    nodeFloor: {
      label: "node --no-node-snapshot -e 0",
      once: (signal) => timed(process.execPath, nodeFloorArgs, root, signal),
    },
    npmFloor: {
      label: "npm --version",
      once: (signal) => timed(npmCommand, npmFloorArgs, root, signal),
    },
  };
}
