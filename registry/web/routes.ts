import type { FastifyInstance } from "fastify";
import { checkPackageName, checkVersion } from "../../package/names.js";
import type { RegistryContext } from "../context.js";
import { RegistryError, registryErrorFor } from "../errors.js";
import { isFiltered, parseBrowseQuery } from "./browse-query.js";
import { errorPage } from "./error-page.js";
import { browseListing, recentCards } from "./listings.js";
import { packagePage } from "./package-page.js";
import { loadPackageView } from "./package-view.js";
import { parsePackagePath } from "./paths.js";
import { cachedReadmes } from "./readme-cache.js";
import { browsePage } from "./search-page.js";
import { sendPage } from "./send-page.js";
import { staticAssets } from "./static-assets.js";

export interface WebPagesOptions {
  ctx: RegistryContext;
}

/** Rendered readmes kept in memory. */
const readmeCacheBytes = 16 * 1024 * 1024;

/** Not in the OpenAPI document: it describes the JSON API. */
const hidden = { schema: { hide: true } };

/**
 * The marketplace pages (GET /, /packages/:name, /packages/:name/v/:version) and their static
 * files. A fastify plugin, so that its error handler (HTML pages instead of JSON) applies to these
 * routes only.
 */
export async function webPages(app: FastifyInstance, { ctx }: WebPagesOptions) {
  const readme = cachedReadmes(readmeCacheBytes);
  const assets = new Map([...staticAssets().values()].map((asset) => [asset.path, asset]));

  // Errors as pages, with the status of their code; never a stack trace.
  app.setErrorHandler((thrown: Error & { statusCode?: number }, request, reply) => {
    // A name or version the package rules refuse is the registry's 400, as on the JSON API.
    const error = registryErrorFor(thrown) ?? thrown;
    const status = error instanceof RegistryError ? error.statusCode : (error.statusCode ?? 500);
    if (status < 500) {
      request.log.info({ code: (error as { code?: string }).code }, error.message);
      return sendPage(request, reply, status, errorPage(status, error.message, request.id));
    }
    request.log.error({ err: error }, "a web page failed");
    const message = "The registry could not show this page; the server log has the details.";
    return sendPage(request, reply, status, errorPage(status, message, request.id));
  });

  app.get("/", hidden, async (request, reply) => {
    const query = parseBrowseQuery(request.query);
    if (typeof query === "string") throw new RegistryError("REG_ERR_VALIDATION", query);
    const listing = await browseListing(ctx.store, query);
    const recent = !isFiltered(query) && query.page === 1 ? await recentCards(ctx.store) : [];
    return sendPage(request, reply, 200, browsePage(query, listing, recent, ctx.now()));
  });

  app.get("/packages/*", hidden, async (request, reply) => {
    const rest = (request.params as { "*": string })["*"];
    const path = parsePackagePath(rest);
    if (!path) throw new RegistryError("REG_ERR_NOT_FOUND", `There is no page /packages/${rest}.`);
    const name = checkPackageName(path.name);
    const version = path.version === undefined ? undefined : checkVersion(path.version);
    const view = await loadPackageView(ctx.store, name, version);
    return sendPage(request, reply, 200, packagePage(view, readme, ctx.now()));
  });

  app.get("/static/:file", hidden, async (request, reply) => {
    const asset = assets.get(`/static/${(request.params as { file: string }).file}`);
    if (!asset) throw new RegistryError("REG_ERR_NOT_FOUND", `There is no file ${request.url}.`);
    // The name holds a hash of the bytes: a changed file has a new name.
    return reply
      .type(asset.contentType)
      .header("cache-control", "public, max-age=31536000, immutable")
      .send(asset.body);
  });
}
