import { afterAll, describe } from "vitest";
import {
  clusterPassword,
  type PostgresCluster,
  PostgresNotInstalledError,
  startCluster as startPostgresCluster,
} from "../../bench/registry/backends/postgres-cluster.js";

export { clusterPassword };

/**
 * The registry's PostgreSQL tests need Debian's server (`apt-get install -y postgresql`; .ci/run
 * installs it). Without it they fail, saying so, never skip quietly. On a machine of your own you
 * may opt out with HOOKYARD_POSTGRES_TESTS=skip: the PostgreSQL runs are then skipped, with a
 * warning. CI (CI set) refuses the opt-out: there they always run.
 */
export const postgresTestsSkipped = optedOut();

function optedOut(): boolean {
  const value = process.env.HOOKYARD_POSTGRES_TESTS;
  if (value === undefined || value === "") return false;
  if (value !== "skip") throw new Error(`HOOKYARD_POSTGRES_TESTS=${value}: the only value is skip`);
  if (process.env.CI) {
    throw new Error(
      "HOOKYARD_POSTGRES_TESTS=skip is for local runs: CI runs the PostgreSQL tests (unset it)",
    );
  }
  process.emitWarning("HOOKYARD_POSTGRES_TESTS=skip: the registry's PostgreSQL tests are skipped");
  return true;
}

/** `describe` for a suite that needs PostgreSQL: skipped only by the local opt-out above. */
export const describePostgres: typeof describe.skip = describe.skipIf(postgresTestsSkipped);

/** A throwaway PostgreSQL server for one test file (bench/registry/backends/postgres-cluster.ts). */
export type TestCluster = PostgresCluster;

/** The bench's cluster starter, with the tests' remedy when the server is missing. */
export async function startCluster(): Promise<TestCluster> {
  try {
    return await startPostgresCluster();
  } catch (error) {
    if (!(error instanceof PostgresNotInstalledError)) throw error;
    throw new Error(
      "PostgreSQL is not installed, and the registry's PostgreSQL tests need its server: run `apt-get install -y postgresql` (Debian's package; .ci/run installs it in CI), or opt out on your own machine with HOOKYARD_POSTGRES_TESTS=skip",
    );
  }
}

/** One cluster for the calling test file, started at first use and stopped after the file. */
export function fileCluster(): () => Promise<TestCluster> {
  let started: Promise<TestCluster> | undefined;
  afterAll(async () => {
    if (started) await (await started.catch(() => undefined))?.stop();
  });
  return () => {
    started ??= startCluster();
    return started;
  };
}
