import { rmSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { installPackage } from "../../client/install/install-package.js";
import { InstallTransaction } from "../../client/install/transaction.js";
import { packPackage } from "../../client/pack/pack-package.js";
import { RegistryClient } from "../../client/registry-client.js";
import { buildRegistry } from "../../registry/app.js";
import { runAgent } from "../../runner/agent/loop.js";
import { ScriptedModel } from "../../runner/agent/models/scripted.js";
import { loadHooks } from "../../runner/load/load-hooks.js";
import type { CliContext } from "../command.js";
import { CliError } from "../errors.js";
import { packageRoot } from "../package-root.js";
import { table } from "../ui/table.js";
import { transcriptWriter } from "../ui/transcript.js";
import { startAuditCollector } from "./audit-collector.js";
import { type DemoSample, demoFiles, demoSamples, firstSession, secondSession } from "./demo-setup.js";
import { timedHooks } from "./hook-timings.js";

/** Where everything the demo makes lives; removed at the end, on failure and on Ctrl-C. */
const tempPrefix = "hookyard-demo-";

/**
 * `hookyard demo`: an embedded registry in a temp dir, the six samples packed and published to it,
 * installed into a temp workspace with --sandbox and their least grants, and two scripted agent
 * sessions whose transcript shows each hook at work. Nothing leaves this machine.
 */
export async function runDemo(context: CliContext): Promise<number> {
  const started = performance.now();
  const temp = await mkdtemp(join(tmpdir(), tempPrefix));
  const removeTemp = () => rmSync(temp, { recursive: true, force: true });
  const onInterrupt = () => {
    removeTemp();
    process.exit(130);
  };
  process.once("SIGINT", onInterrupt);
  const closers: Array<() => Promise<void>> = [];
  const say = (text = "") => context.stdout.write(`${text}\n`);
  const heading = (text: string) => say(context.color ? `\n\u001b[1m${text}\u001b[0m` : `\n${text}`);
  try {
    say("hookyard demo: six community hooks, from publish to a sandboxed agent session.");
    say(`Everything happens in ${temp}, on 127.0.0.1, and is removed at the end.`);

    const registry = await buildRegistry({ dataDir: join(temp, "registry") });
    closers.push(() => registry.close());
    await registry.listen({ host: "127.0.0.1", port: 0 });
    const address = registry.server.address();
    if (!address || typeof address === "string") throw new Error("the embedded registry has no port");
    const url = `http://127.0.0.1:${address.port}`;
    heading(`1. An embedded registry at ${url}`);

    const collector = await startAuditCollector();
    closers.push(() => collector.close());
    const samples = demoSamples.map((sample) => withPort(sample, collector.port));

    heading("2. Pack and publish the samples (hookyard pack, hookyard publish)");
    const client = new RegistryClient(url, { token: registry.registry.initialAdminToken });
    for (const sample of samples) {
      const dir = join(temp, "authors", sample.name);
      await copySample(sample.name, dir);
      const packed = await packPackage(dir);
      await client.publish(packed.name, packed.version, packed.tarball);
      say(
        `   published ${packed.name}@${packed.version}  ${packed.tarball.length} bytes  ${packed.integrity.slice(0, 22)}…`,
      );
    }

    heading("3. Install them sandboxed, each with its least grants (hookyard install --sandbox --grant …)");
    const workspace = join(temp, "workspace");
    await writeWorkspace(workspace, url, samples);
    // The client says nothing unless asked: the install machinery's own lines (pins, progress) stay out of the demo's story.
    const quiet = { cwd: workspace, env: context.env };
    for (const sample of samples) {
      const tx = await InstallTransaction.open(quiet);
      const installed = await tx.run(() =>
        installPackage(
          quiet,
          tx,
          { registry: url },
          { name: sample.name, range: undefined },
          {
            trust: false,
            grants: sample.grants,
            yes: true,
            acceptKey: undefined,
          },
        ),
      );
      const grants = installed.grants.length > 0 ? installed.grants.join(" ") : "no capabilities";
      say(`   ${`${installed.name}@${installed.version}`.padEnd(32)} sandboxed  ${grants}`);
    }

    const hooks = await loadHooks({ cwd: workspace, logger: demoLogger(context) });
    closers.push(() => hooks.close());
    if (hooks.problems.length > 0) {
      throw new CliError(
        "CLI_ERR_DEMO",
        `the demo's hooks did not all load: ${hooks.problems.map((p) => `${p.name}: ${p.message}`).join("; ")}`,
      );
    }
    const timed = timedHooks(hooks);
    const transcript = transcriptWriter(
      (text) => context.stdout.write(`   ${text.replace(/\n(?!$)/g, "\n   ")}`),
      context.color,
    );
    for (const [index, script] of [firstSession, secondSession].entries()) {
      heading(
        index === 0
          ? "4. A scripted agent session (hookyard run): every hook decision marked with its hook and trust level"
          : "5. The next session: the todo list from the last one comes back on its own",
      );
      const model = new ScriptedModel(ScriptedModel.parse(script, "the demo's script"));
      await runAgent({ hooks: timed, model, prompt: script.prompt, cwd: workspace, onEvent: transcript });
      await hooks.drain();
    }

    heading("6. What ran");
    const rows = timed
      .timings()
      .sort((a, b) => (a.hook < b.hook ? -1 : 1))
      .map((t) => [
        t.hook,
        `${t.origin}, ${t.trust}`,
        `${t.calls} call${t.calls === 1 ? "" : "s"}`,
        `${(t.totalMs / t.calls).toFixed(2)} ms/call`,
      ]);
    context.stdout.write(table([["hook", "trust", "calls", "time per call"], ...rows], "   "));
    say(
      `   audit-webhook delivered ${collector.records.length} tool-call records to 127.0.0.1:${collector.port} (in the background)`,
    );
    say(`   todo list persisted in .hookyard/state/todo-state.json: ${await persistedTodos(workspace)}`);
    say(
      `\nDone in ${((performance.now() - started) / 1000).toFixed(1)} s. Try it on your project: docs/packages.md.`,
    );
    return 0;
  } finally {
    for (const close of closers.reverse()) await close().catch(() => {});
    await rm(temp, { recursive: true, force: true });
    process.off("SIGINT", onInterrupt);
  }
}

/** What todo-state kept, as one line: the proof that it outlives the session. */
async function persistedTodos(workspace: string): Promise<string> {
  try {
    const state = JSON.parse(
      await readFile(join(workspace, ".hookyard", "state", "todo-state.json"), "utf8"),
    );
    const texts = (state.todos as Array<{ text: string }>).map((todo) => todo.text);
    return texts.length > 0 ? texts.join("; ") : "(empty)";
  } catch {
    return "(nothing: the state file is missing or unreadable)";
  }
}

function withPort(sample: DemoSample, port: number): DemoSample {
  const json = JSON.stringify(sample).replaceAll("{port}", String(port));
  return JSON.parse(json) as DemoSample;
}

/** A sample's source files, copied so packing (which writes the bundle) never touches the installed package. */
async function copySample(name: string, to: string): Promise<void> {
  const from = join(packageRoot(), "sample-hooks", name);
  try {
    await cp(from, to, { recursive: true, filter: (path) => !/[\\/](test|dist|node_modules)$/.test(path) });
  } catch (error) {
    throw new CliError(
      "CLI_ERR_EXAMPLE_MISSING",
      `cannot copy the sample ${from}: ${(error as Error).message}`,
      1,
      {
        cause: error,
      },
    );
  }
}

async function writeWorkspace(root: string, registry: string, samples: DemoSample[]): Promise<void> {
  for (const [path, text] of Object.entries(demoFiles)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  const hooks = Object.fromEntries(
    samples.filter((s) => s.config).map((s) => [s.name, { config: s.config }]),
  );
  await writeFile(join(root, "hookyard.json"), `${JSON.stringify({ registry, hooks }, null, 2)}\n`);
  await mkdir(join(root, ".hookyard"), { recursive: true });
}

function demoLogger(context: CliContext) {
  return {
    info: (message: string) => context.stdout.write(`   (log) ${message}\n`),
    warn: (message: string) => context.stderr.write(`hookyard: warning: ${message}\n`),
    error: (message: string) => context.stderr.write(`hookyard: error: ${message}\n`),
  };
}
