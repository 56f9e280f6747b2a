import { join } from "node:path";
import { hookyard } from "../../helpers/cli.js";
import { hookPackage, publish, startRegistry } from "../../registry/helpers.js";

/** What the community guard answers: the agent's next model request must carry it. */
export const registryGuardReason = "victims are protected by the community guard no-victims";

/**
 * A community guard as a user gets one: published to a real registry (this process's, on
 * 127.0.0.1), installed into the workspace `root` with `hookyard install no-victims --sandbox --yes`,
 * so it runs in the sandbox, from the store, pinned by hash. It blocks any tool call whose
 * arguments name `victim` and run `rm`, whatever the agent calls the field (command, cmd, …).
 * The registry is closed once installed: the agent's run needs only the store.
 */
export async function installRegistryGuard(root: string, env: NodeJS.ProcessEnv = {}): Promise<void> {
  const registry = await startRegistry();
  try {
    const name = "no-victims";
    const tarball = await hookPackage({
      name,
      manifest: {
        hookyard: { main: "dist/hook.js", events: ["tool_before"], capabilities: {}, effects: ["block"] },
      },
      files: {
        "dist/hook.js": `export default {
  name: ${JSON.stringify(name)},
  on: {
    tool_before(ctx) {
      const args = JSON.stringify(ctx.args);
      if (/\\brm\\b/.test(args) && args.includes("victim")) return { block: ${JSON.stringify(registryGuardReason)} };
    },
  },
};
`,
      },
    });
    const published = await publish(registry, registry.admin, tarball, name);
    if (published.status !== 201) throw new Error(`publish ${name}: ${published.status} ${published.bytes}`);
    const installed = await hookyard(["install", name, "--registry", registry.url, "--sandbox", "--yes"], {
      cwd: root,
      env: { HOOKYARD_CONFIG: join(root, ".user-config.json"), ...env },
    });
    if (installed.code !== 0) throw new Error(`hookyard install ${name}: ${installed.stderr}`);
  } finally {
    await registry.close();
  }
}
