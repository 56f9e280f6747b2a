import { describe, expect, it } from "vitest";
import { registryErrorCodes } from "../../../registry/errors.js";
import { startRegistry } from "../helpers.js";

describe("every failure is { error: { code, message } } with a REG_ERR_* code", () => {
  it("an unknown route is REG_ERR_NOT_FOUND", async () => {
    const reg = await startRegistry();
    for (const [method, path] of [
      ["GET", "/nope"],
      ["DELETE", "/v1/packages/guard"],
      ["GET", "/v1/packages/guard/1.0.0"],
    ] as const) {
      const answer = await reg.call(path, { method });
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual({
        error: { code: "REG_ERR_NOT_FOUND", message: expect.stringContaining(path) },
      });
    }
  });

  it("bad JSON, an empty JSON body, a body too large, a wrong content-type", async () => {
    const reg = await startRegistry({ limits: { maxJsonBodyBytes: 1024 } });
    const post = (body: string, type = "application/json") =>
      reg.call("/v1/tokens", { method: "POST", token: reg.admin, body, headers: { "content-type": type } });
    expect((await post("{ not json")).json.error.code).toBe("REG_ERR_BAD_JSON");
    expect((await post("")).json.error.code).toBe("REG_ERR_BAD_JSON");
    const large = await post(JSON.stringify({ description: "x".repeat(4096) }));
    expect(large.status).toBe(413);
    expect(large.json.error.code).toBe("REG_ERR_BODY_TOO_LARGE");
    const text = await post("owner=alice", "text/plain");
    expect(text.status).toBe(415);
    expect(text.json.error.code).toBe("REG_ERR_UNSUPPORTED_MEDIA_TYPE");
  });

  it("a request that fails its schema is REG_ERR_VALIDATION naming the field", async () => {
    const reg = await startRegistry();
    const unknownField = await reg.call("/v1/tokens", {
      method: "POST",
      token: reg.admin,
      json: { scopes: "x" },
    });
    expect(unknownField.status).toBe(400);
    expect(unknownField.json.error.code).toBe("REG_ERR_VALIDATION");
    expect(unknownField.json.error.message).toContain("body");
    const limit = await reg.call("/v1/search?limit=1000");
    expect(limit.json.error.code).toBe("REG_ERR_VALIDATION");
    expect(limit.json.error.message).toContain("querystring.limit");
  });

  it("every code the server sends is one of the catalogue's", async () => {
    const reg = await startRegistry();
    const answers = await Promise.all([
      reg.call("/x"),
      reg.call("/v1/packages/nope"),
      reg.call("/v1/packages/nope/1.0.0/tarball"),
      reg.call("/v1/packages/Bad%20Name"),
      reg.call("/v1/tokens"),
    ]);
    for (const answer of answers) expect(registryErrorCodes).toContain(answer.json.error.code);
    expect(answers.map((a) => a.json.error.code)).toEqual([
      "REG_ERR_NOT_FOUND",
      "REG_ERR_PACKAGE_NOT_FOUND",
      "REG_ERR_PACKAGE_NOT_FOUND",
      "REG_ERR_NAME_INVALID",
      "REG_ERR_AUTH_REQUIRED",
    ]);
  });
});

describe("protection and documentation", () => {
  it("answers carry a request id and security headers", async () => {
    const reg = await startRegistry();
    const [a, b] = await Promise.all([reg.call("/v1/keys"), reg.call("/nope")]);
    expect(a?.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(b?.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(a?.headers.get("x-request-id")).not.toBe(b?.headers.get("x-request-id"));
    expect(a?.headers.get("x-content-type-options")).toBe("nosniff");
    expect(a?.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(a?.headers.get("content-security-policy")).toContain("default-src 'self'");
  });

  it("serves OpenAPI at /docs, describing every route", async () => {
    const reg = await startRegistry();
    const ui = await reg.call("/docs");
    expect(ui.status).toBe(200);
    expect(ui.headers.get("content-type")).toContain("text/html");
    const spec = (await reg.call("/docs/json")).json;
    expect(spec.openapi).toMatch(/^3\./);
    const routes = Object.entries(spec.paths).flatMap(([path, methods]) =>
      Object.keys(methods as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.sort()).toEqual(
      [
        "DELETE /v1/tokens/{id}",
        "GET /v1/advisories",
        "GET /v1/audit",
        "GET /v1/keys",
        "GET /v1/packages/{name}",
        "GET /v1/packages/{name}/owners",
        "GET /v1/packages/{name}/{version}/tarball",
        "GET /v1/scopes/{scope}/owners",
        "GET /v1/search",
        "GET /v1/tokens",
        "GET /v1/whoami",
        "POST /v1/advisories",
        "POST /v1/packages/{name}/{version}/deprecate",
        "POST /v1/packages/{name}/{version}/yank",
        "POST /v1/tokens",
        "PUT /v1/packages/{name}/owners",
        "PUT /v1/packages/{name}/{version}",
        "PUT /v1/scopes/{scope}/owners",
      ].sort(),
    );
    expect(spec.paths["/v1/search"].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      "limit",
      "offset",
      "q",
    ]);
  });
});
