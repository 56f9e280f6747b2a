import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "sample-hooks/**/*.test.ts"],
    typecheck: { enabled: true, include: ["test/types/**/*.test.ts"] },
    // isolated-vm needs --no-node-snapshot on Node 20; forks let us pass it to every worker.
    pool: "forks",
    execArgv: ["--no-node-snapshot"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
