import { join } from "node:path";
import { expect } from "vitest";
import { hookPackage, publish, type TestRegistry, tokenFor } from "../registry/helpers.js";
import type { CliResult } from "./cli.js";
import { runCli } from "./run-cli.js";
import { tempDir } from "./temp.js";

/** Someone using hookyard against a test registry: their own empty folder and user config file. */
export interface RegistryUser {
  owner: string;
  token: string;
  cwd: string;
  /** Their user config file ($HOOKYARD_CONFIG), which does not exist until they log in. */
  config: string;
  /** `hookyard <args> --registry <reg>`, with $HOOKYARD_TOKEN set to their token unless `env` says otherwise. */
  run(args: string[], env?: NodeJS.ProcessEnv): Promise<CliResult>;
}

export async function registryUser(
  reg: TestRegistry,
  owner: string,
  scope = "publish",
): Promise<RegistryUser> {
  const token = await tokenFor(reg, owner, scope);
  const cwd = await tempDir();
  const config = join(cwd, "home", "config.json");
  return {
    owner,
    token,
    cwd,
    config,
    run: (args, env = { HOOKYARD_TOKEN: token }) =>
      runCli([...args, "--registry", reg.url], { cwd, env: { HOOKYARD_CONFIG: config, ...env } }),
  };
}

/** Publishes name@version as `token`'s owner, through the API. */
export async function publishAs(
  reg: TestRegistry,
  token: string,
  name: string,
  version = "1.0.0",
): Promise<void> {
  const answer = await publish(reg, token, await hookPackage({ name, version }), name, version);
  expect(answer.status, answer.bytes.toString()).toBe(201);
}
