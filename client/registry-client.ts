import * as z from "zod";
import { ClientError } from "./errors.js";
import { type HttpAnswer, type HttpRequestInit, request } from "./http-request.js";

const versionSchema = z.looseObject({
  version: z.string(),
  integrity: z.string(),
  size: z.number(),
  capabilities: z.array(z.string()),
  effects: z.array(z.string()),
  publishedAt: z.string(),
  yanked: z.boolean(),
  yankedReason: z.string().nullable(),
  deprecated: z.string().nullable(),
  signature: z.string(),
  keyId: z.string(),
  /** Relative to the registry's URL. */
  tarball: z.string(),
  manifest: z.looseObject({}),
});
/** A version as the registry describes it, with its package's name (which the signed text starts with). */
export type RegistryVersion = z.infer<typeof versionSchema> & { name: string };
const publishedSchema = versionSchema.extend({ name: z.string() });

const packageDocumentSchema = z.looseObject({
  name: z.string(),
  // null when the version shown has none, as the registry sends it.
  description: z.string().nullable().optional(),
  "dist-tags": z.record(z.string(), z.string()),
  versions: z.record(z.string(), versionSchema),
  readme: z.string().nullable().optional(),
  createdAt: z.string().optional(),
});
// An intersection, not Omit: Omit over a loose object's index signature would turn every field into unknown.
export type PackageDocument = z.infer<typeof packageDocumentSchema> & {
  versions: Record<string, RegistryVersion>;
};

const keysSchema = z.looseObject({
  keys: z.array(z.looseObject({ keyId: z.string(), algorithm: z.string(), publicKey: z.string() })),
});
export type RegistryKey = z.infer<typeof keysSchema>["keys"][number];

const searchSchema = z.looseObject({
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
  results: z.array(
    z.looseObject({
      name: z.string(),
      description: z.string().nullable().optional(),
      keywords: z.array(z.string()).optional(),
      version: z.string(),
      downloads: z.number(),
    }),
  ),
});
export type SearchAnswer = z.infer<typeof searchSchema>;

const advisorySchema = z.looseObject({
  id: z.number(),
  package: z.string(),
  range: z.string(),
  severity: z.enum(["low", "moderate", "high", "critical"]),
  text: z.string(),
  createdAt: z.string(),
});
export type Advisory = z.infer<typeof advisorySchema>;
const advisoriesSchema = z.looseObject({ advisories: z.record(z.string(), z.array(advisorySchema)) });

const tokenSchema = z.looseObject({
  id: z.string(),
  owner: z.string(),
  scope: z.string(),
  description: z.string().nullable().optional(),
  createdAt: z.string().optional(),
  expiresAt: z.string().nullable().optional(),
  revokedAt: z.string().nullable().optional(),
});
/** A token as the registry lists it: never its secret. */
export type RegistryToken = z.infer<typeof tokenSchema>;
const tokensSchema = z.looseObject({ tokens: z.array(tokenSchema) });

const ownersSchema = z.looseObject({
  owners: z.array(z.string()),
  /** A scoped package's scope and its owners, who manage every package in it. */
  scope: z.union([z.string(), z.looseObject({ name: z.string(), owners: z.array(z.string()) })]).optional(),
});
export type OwnersAnswer = z.infer<typeof ownersSchema>;

/** Whose owners: a package's (`guard`, `@acme/guard`) or a scope's (`@acme`). */
export type OwnersOf = { package: string } | { scope: string };

export interface NewAdvisory {
  package: string;
  range: string;
  severity: Advisory["severity"];
  text: string;
}

const errorBodySchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export interface DownloadProgress {
  received: number;
  /** From content-length; undefined when the server did not say. */
  total: number | undefined;
}

export interface RegistryClientOptions {
  token?: string | undefined;
  /** Cancels every request in flight (Ctrl-C). */
  signal?: AbortSignal;
  /** Per request, connection to last byte. */
  timeoutMs?: number;
}

/** The registry's own `REG_ERR_*` code behind a refusal (a CLI_ERR_REGISTRY_REFUSED or CLI_ERR_NOT_FOUND), else undefined. */
export function registryErrorCode(error: unknown): string | undefined {
  if (!(error instanceof ClientError)) return undefined;
  const cause = error.cause as { code?: unknown } | undefined;
  return typeof cause?.code === "string" ? cause.code : undefined;
}

/** The refusals a caller tells apart by code: a missing package is not the registry failing. */
export const notFoundCodes = new Set(["REG_ERR_PACKAGE_NOT_FOUND", "REG_ERR_VERSION_NOT_FOUND"]);

/** A hookyard registry's /v1 API as the CLI uses it: every answer checked, every failure a CliError. */
export class RegistryClient {
  constructor(
    readonly url: string,
    private readonly options: RegistryClientOptions = {},
  ) {}

  /** The registry's origin, the key under which its signing key is pinned. */
  get origin(): string {
    return new URL(this.url).origin;
  }

  /**
   * The package's document, refused (exit 3) unless it is the one asked for: a mirror or a man in
   * the middle could otherwise answer with another package's, or another version's, signed entry.
   */
  async packageDocument(name: string): Promise<PackageDocument> {
    const url = `${this.url}/v1/packages/${encodeURIComponent(name)}`;
    const document = await this.json(`/v1/packages/${encodeURIComponent(name)}`, packageDocumentSchema);
    const swapped = Object.entries(document.versions).find(([key, version]) => version.version !== key);
    if (document.name !== name || swapped) {
      throw new ClientError(
        "CLI_ERR_INTEGRITY",
        document.name !== name
          ? `${url} answered with the document of ${JSON.stringify(document.name)}, not of ${name}: nothing was installed; this registry, or something between it and you, is not to be trusted`
          : `${url} lists version ${swapped?.[0]} with the entry of version ${swapped?.[1].version}: nothing was installed; this registry, or something between it and you, is not to be trusted`,
      );
    }
    const versions = Object.fromEntries(
      Object.entries(document.versions).map(([key, version]) => [key, { ...version, name: document.name }]),
    );
    return { ...document, versions };
  }

  async keys(): Promise<RegistryKey[]> {
    return (await this.json("/v1/keys", keysSchema)).keys;
  }

  async search(query: string, limit: number, offset: number): Promise<SearchAnswer> {
    const params = new URLSearchParams({ q: query, limit: String(limit), offset: String(offset) });
    return this.json(`/v1/search?${params}`, searchSchema);
  }

  async advisories(names: readonly string[]): Promise<Record<string, Advisory[]>> {
    if (names.length === 0) return {};
    const params = new URLSearchParams({ names: names.join(",") });
    return (await this.json(`/v1/advisories?${params}`, advisoriesSchema)).advisories;
  }

  /** The token's own tokens (an admin's: everyone's, or `owner`'s), without secrets: answers only to a token the registry accepts. */
  async tokens(owner?: string): Promise<RegistryToken[]> {
    const query = owner === undefined ? "" : `?${new URLSearchParams({ owner })}`;
    return (await this.json(`/v1/tokens${query}`, tokensSchema)).tokens;
  }

  /** The token this client sends (its owner, scope and id): answers only to a token the registry accepts. */
  async whoami(): Promise<RegistryToken> {
    return this.json("/v1/whoami", tokenSchema);
  }

  /** Revokes a token of the caller's (an admin's: anyone's); answers it with its `revokedAt`. */
  async revokeToken(id: string): Promise<RegistryToken> {
    return this.json(`/v1/tokens/${encodeURIComponent(id)}`, tokenSchema, { method: "DELETE" });
  }

  /** Yanks a version with `reason`, or unyanks it with null; answers the version as it is now. */
  async yank(name: string, version: string, reason: string | null): Promise<RegistryVersion> {
    return this.post(
      `${this.versionPath(name, version)}/yank`,
      reason === null ? { undo: true } : { reason },
      publishedSchema,
    );
  }

  /** Deprecates a version with `message`, or takes it back with null; answers the version as it is now. */
  async deprecate(name: string, version: string, message: string | null): Promise<RegistryVersion> {
    return this.post(
      `${this.versionPath(name, version)}/deprecate`,
      message === null ? { undo: true } : { message },
      publishedSchema,
    );
  }

  async owners(of: OwnersOf): Promise<OwnersAnswer> {
    return this.json(this.ownersPath(of), ownersSchema);
  }

  /** Adds, then removes, owners; answers the owners as they are now. */
  async changeOwners(of: OwnersOf, change: { add?: string[]; remove?: string[] }): Promise<OwnersAnswer> {
    return this.json(this.ownersPath(of), ownersSchema, {
      method: "PUT",
      body: JSON.stringify(change),
      headers: { "content-type": "application/json" },
    });
  }

  /** Publishes an advisory (admin tokens only); answers it with its id. */
  async createAdvisory(advisory: NewAdvisory): Promise<Advisory> {
    return this.post("/v1/advisories", advisory, advisorySchema);
  }

  async publish(name: string, version: string, tarball: Buffer): Promise<RegistryVersion> {
    return this.json(
      `/v1/packages/${encodeURIComponent(name)}/${encodeURIComponent(version)}`,
      publishedSchema,
      { method: "PUT", body: tarball, headers: { "content-type": "application/octet-stream" } },
    );
  }

  /** The absolute URL of a version's tarball path as the registry gave it. */
  tarballUrl(path: string): string {
    return new URL(path, `${this.url}/`).href;
  }

  /** Downloads a tarball, reporting progress; refuses more than `maxBytes`. */
  async download(
    url: string,
    maxBytes: number,
    onProgress?: (progress: DownloadProgress) => void,
  ): Promise<Buffer> {
    const response = await this.request(url, {});
    if (!response.ok) await this.refuse(response, url);
    const length = Number(response.header("content-length") ?? Number.NaN);
    const total = Number.isFinite(length) ? length : undefined;
    if (total !== undefined && total > maxBytes) {
      response.discard();
      throw new ClientError(
        "CLI_ERR_REGISTRY_BAD_ANSWER",
        `${url} is ${total} bytes, over the ${maxBytes} a package may be`,
      );
    }
    const chunks: Buffer[] = [];
    let received = 0;
    try {
      for await (const chunk of response.body) {
        received += chunk.length;
        if (received > maxBytes) {
          response.discard();
          throw new ClientError(
            "CLI_ERR_REGISTRY_BAD_ANSWER",
            `${url} sent more than the ${maxBytes} bytes a package may be`,
          );
        }
        chunks.push(chunk);
        onProgress?.({ received, total });
      }
    } catch (error) {
      throw error instanceof ClientError ? error : this.failed(url, error);
    }
    return Buffer.concat(chunks);
  }

  private versionPath(name: string, version: string): string {
    return `/v1/packages/${encodeURIComponent(name)}/${encodeURIComponent(version)}`;
  }

  private ownersPath(of: OwnersOf): string {
    return "scope" in of
      ? `/v1/scopes/${encodeURIComponent(of.scope)}/owners`
      : `/v1/packages/${encodeURIComponent(of.package)}/owners`;
  }

  private post<T>(path: string, body: unknown, schema: z.ZodType<T>): Promise<T> {
    return this.json(path, schema, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "content-type": "application/json" },
    });
  }

  private async json<T>(
    path: string,
    schema: z.ZodType<T>,
    init: Omit<HttpRequestInit, "signal"> = {},
  ): Promise<T> {
    const url = `${this.url}${path}`;
    const response = await this.request(url, init);
    if (!response.ok) await this.refuse(response, url);
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw this.failed(url, error);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      throw new ClientError(
        "CLI_ERR_REGISTRY_BAD_ANSWER",
        `${url} answered with something that is not JSON; check --registry`,
        { cause: error },
      );
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new ClientError(
        "CLI_ERR_REGISTRY_BAD_ANSWER",
        `${url} answered with something a hookyard registry does not send (${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}); check --registry`,
      );
    }
    return parsed.data;
  }

  private async request(url: string, init: Omit<HttpRequestInit, "signal">): Promise<HttpAnswer> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 30_000);
    const signal = this.options.signal ? AbortSignal.any([timeout, this.options.signal]) : timeout;
    const headers: Record<string, string> = { ...init.headers, accept: "application/json" };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    try {
      return await request(url, { ...init, headers, signal });
    } catch (error) {
      throw this.failed(url, error);
    }
  }

  private failed(url: string, error: unknown): ClientError {
    if (this.options.signal?.aborted) return new ClientError("CLI_ERR_INTERRUPTED", "interrupted");
    const code = (error as NodeJS.ErrnoException).code;
    // Not the caller's signal: the only other abort is the request's own timeout.
    const reason =
      (error as Error).name === "AbortError"
        ? `no answer within ${(this.options.timeoutMs ?? 30_000) / 1000} s`
        : (code ?? (error as Error).message);
    return new ClientError(
      "CLI_ERR_REGISTRY_UNREACHABLE",
      `could not reach the registry at ${this.url} (${url}): ${reason}; check that it is running, or pass --registry`,
      { cause: error },
    );
  }

  /** Turns an error answer into a CliError that carries the registry's own code and message. */
  private async refuse(response: HttpAnswer, url: string): Promise<never> {
    const text = await response.text().catch(() => "");
    let parsed: z.infer<typeof errorBodySchema> | undefined;
    try {
      parsed = errorBodySchema.parse(JSON.parse(text));
    } catch {
      parsed = undefined;
    }
    if (!parsed) {
      throw new ClientError(
        "CLI_ERR_REGISTRY_BAD_ANSWER",
        `${url} answered HTTP ${response.status}, not a hookyard registry error; check --registry`,
      );
    }
    const { code, message } = parsed.error;
    // The registry caught its own stored bytes changed: for the client that is an integrity failure.
    if (code === "REG_ERR_BLOB_CORRUPT") {
      throw new ClientError(
        "CLI_ERR_INTEGRITY",
        `${url}: the registry's stored bytes no longer match their integrity (${code}); nothing was installed: tell the registry's operator`,
        { cause: { status: response.status, code } },
      );
    }
    // Which registry has no such thing: the one asked may not be the one the user had in mind.
    const notFound = notFoundCodes.has(code);
    throw new ClientError(
      notFound ? "CLI_ERR_NOT_FOUND" : "CLI_ERR_REGISTRY_REFUSED",
      notFound ? `${message} on ${this.url} (${code})` : `${message} (${code})`,
      { cause: { status: response.status, code } },
    );
  }
}
