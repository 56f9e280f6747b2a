import { SizedLru } from "../data/sized-lru.js";
import { strongEtag } from "../http/etag.js";
import type { RegistryStore } from "../store.js";
import { packageDocument } from "./package-document.js";

/** GET /v1/packages/:name as sent: the JSON bytes and their strong ETag. */
export interface SerialisedDocument {
  body: Buffer;
  /** A quoted hash of `body`: equal bytes, equal tag. */
  etag: string;
}

/**
 * Package documents, serialised once and kept (within a byte budget) until a write changes them,
 * so that a metadata GET is a map lookup. The store reports every committed change; a document
 * whose build overlapped a change is sent but not kept, since it may hold rows from before it.
 */
export class PackageDocuments {
  private readonly kept: SizedLru<string, SerialisedDocument>;
  private changes = 0;

  constructor(
    private readonly store: RegistryStore,
    budgetBytes: number,
  ) {
    this.kept = new SizedLru(budgetBytes, (document) => document.body.length);
    store.onPackageChange((name) => {
      this.changes++;
      if (name === null) this.kept.clear();
      else this.kept.delete(name);
    });
  }

  /** The document of `name`, or undefined when there is no such package. */
  async get(name: string): Promise<SerialisedDocument | undefined> {
    const kept = this.kept.get(name);
    if (kept) return kept;
    const changesBefore = this.changes;
    const pkg = await this.store.findPackage(name);
    if (!pkg) return undefined;
    const json = JSON.stringify(packageDocument(pkg, await this.store.listVersions(pkg.id)));
    // Memory of its own rather than a slice of Node's shared pool, so the budget counts what is kept alive.
    const body = Buffer.allocUnsafeSlow(Buffer.byteLength(json));
    body.write(json);
    const document = { body, etag: strongEtag(body) };
    if (this.changes === changesBefore) this.kept.set(name, document);
    return document;
  }
}
