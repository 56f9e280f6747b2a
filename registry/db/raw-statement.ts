import type Database from "better-sqlite3";

/** The part of a better-sqlite3 statement the store uses, with its parameters and row typed. */
export interface RawStatement<Params extends unknown[], Row = unknown> {
  run(...params: Params): Database.RunResult;
  get(...params: Params): Row | undefined;
  all(...params: Params): Row[];
  /** Rows one at a time: leaving the loop early reads no more of them. */
  iterate(...params: Params): IterableIterator<Row>;
}

/** SQL that drizzle does not model (FTS5) or that runs too often for drizzle's row mapping. */
export function prepareRaw<Params extends unknown[], Row = unknown>(
  client: Database.Database,
  source: string,
): RawStatement<Params, Row> {
  return client.prepare<Params, Row>(source);
}
