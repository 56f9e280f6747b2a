import { prepareDataDir } from "../data/data-dir.js";
import type { RegistryStore } from "../store.js";
import { openDatabase } from "./open.js";
import { SqliteStore } from "./sqlite-store.js";

/**
 * The metadata store of an existing registry's data dir, for tools that work beside a running
 * server (`hookyard registry token create`): migrations are applied, nothing is swept.
 */
export async function openRegistryStore(dataDir: string): Promise<RegistryStore> {
  const layout = await prepareDataDir(dataDir, { mustExist: true });
  return new SqliteStore(openDatabase(layout.database));
}
