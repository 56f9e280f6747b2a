import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const built = (path: string) => fileURLToPath(new URL(`./dist/${path}`, import.meta.url));

export default defineConfig({
  // The sample hooks are packages of their own (their package.json hides this one), and import
  // hookyard as its users do: from the built package, as npm would resolve it.
  resolve: {
    alias: [
      { find: /^hookyard\/testing$/, replacement: built("runner/testing.js") },
      { find: /^hookyard$/, replacement: built("index.js") },
    ],
  },
  test: {
    // The second writes docs/agents/README.md's tables from what the real agents' tests proved (when they ran).
    reporters: ["default", "./test/agents/harness/support-reporter.ts"],
    include: ["test/**/*.test.ts", "sample-hooks/**/*.test.ts"],
    typecheck: { enabled: true, include: ["test/types/**/*.test.ts"] },
    // isolated-vm asks for --no-node-snapshot; forks let us pass it to every worker.
    pool: "forks",
    execArgv: ["--no-node-snapshot"],
    // A file per core. vitest's default (cores - 1) runs one file at a time on a 2-core machine,
    // and most files spend much of their time waiting on processes they started: there the
    // suite took 652 s on Node 24 with one worker and 352 s with two.
    maxWorkers: Math.max(2, availableParallelism()),
    // `hookyard exec` answers in its own process unless a test asks for the daemon route (and
    // stops the daemons it started): no test leaves a daemon behind by accident.
    env: { HOOKYARD_EXEC_ROUTE: "inprocess" },
    // Hang detectors, not measures: a test that passes is never slower for them. Many tests start
    // processes (the bin, daemons, a registry, sandbox processes), and on a 2-core machine at a load
    // of 10 one of them took 60 s to run the bin a dozen times; 20 s failed healthy tests there.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
