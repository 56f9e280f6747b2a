import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { computeIntegrity } from "../../package/integrity.js";
import { lockFileName, readLockfile } from "../../workspace/lockfile.js";
import { BenchError } from "../errors.js";
import { hookyardBin, startHookyardRegistry } from "../install/hookyard-registry.js";
import { publishTo } from "../install/publish.js";
import { timeCommand } from "../install/timed-command.js";
import type { Cleanup } from "../registry/cleanup.js";
import type { PackedVersion } from "../registry/packed-corpus.js";
import { guardHookSource } from "./guards.js";

/**
 * The guard as a community hook, installed the way a user gets one: its package folder packed by
 * `hookyard pack`, published to a `hookyard registry serve` on 127.0.0.1, and `hookyard install
 * --sandbox` into the workspace, which writes hookyard.lock and the store. The registry stops once
 * the install is done.
 */

const communityGuardName = "agent-compat-guard";
const version = "1.0.0";
const description = "Denies Bash commands that run rm -rf /";

const manifest = {
  name: communityGuardName,
  version,
  description,
  license: "MIT",
  keywords: ["guard", "bash"],
  hookyard: {
    main: "dist/hook.js",
    events: ["tool_before"],
    matcher: { tool: "^bash$" },
    effects: ["block"],
  },
};

export interface CommunityGuardSetup {
  workspace: string;
  /** A temp folder for the package and the registry's data. */
  scratch: string;
  env: NodeJS.ProcessEnv;
  cleanup: Cleanup;
}

export async function installCommunityGuard(setup: CommunityGuardSetup): Promise<void> {
  const { workspace, scratch, env, cleanup } = setup;
  const hookyard = (args: string[], cwd: string) =>
    timeCommand(
      { command: process.execPath, args: ["--no-node-snapshot", hookyardBin, ...args], cwd, env },
      cleanup.signal,
    );

  const packageDir = join(scratch, "guard-package");
  await mkdir(join(packageDir, "src"), { recursive: true });
  await writeFile(join(packageDir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(join(packageDir, "src", "hook.ts"), guardHookSource);
  const tarballFile = join(scratch, "guard.tgz");
  await hookyard(["pack", packageDir, "--out", tarballFile], scratch);

  const dataDir = join(scratch, "registry");
  await mkdir(dataDir);
  const registry = await startHookyardRegistry(dataDir, cleanup);
  try {
    await publishTo(registry, await packedVersion(tarballFile));
    const url = `http://127.0.0.1:${registry.server.port}`;
    await hookyard(["install", communityGuardName, "--registry", url, "--sandbox", "--yes"], workspace);
  } finally {
    await registry.server.stop();
  }

  const entry = (await readLockfile(workspace))?.packages[communityGuardName];
  if (entry?.trust !== "sandboxed") {
    throw new BenchError(
      "AGENT_BENCH_ERR_SETUP",
      `hookyard install exited 0 in ${workspace}, but ${lockFileName} ${entry ? `says trust "${entry.trust}", not "sandboxed"` : `has no entry for ${communityGuardName}`}`,
    );
  }
}

/** What bench/install's publish and check need to know about the tarball `hookyard pack` wrote. */
async function packedVersion(file: string): Promise<PackedVersion> {
  const tarball = await readFile(file);
  return {
    pkg: {
      name: communityGuardName,
      description,
      keywords: manifest.keywords,
      versions: [version],
      event: "tool_before",
      tool: "bash",
    },
    version,
    manifest,
    readme: "",
    tarball,
    integrity: computeIntegrity(tarball),
    shasum: createHash("sha1").update(tarball).digest("hex"),
  };
}
