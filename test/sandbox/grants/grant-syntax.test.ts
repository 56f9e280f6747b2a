import { describe, expect, it } from "vitest";
import { packageManifestSchema } from "../../../package/manifest.js";
import {
  describeGrant,
  formatGrant,
  GrantSyntaxError,
  grantWithin,
  highestRisk,
  isInternalAddress,
  parseGrant,
  parseGrants,
  requestedGrants,
} from "../../../sandbox/capabilities.js";

describe("grant strings", () => {
  it("parse into typed descriptors and format back to the same string", () => {
    const texts = [
      "fs.read:docs",
      "fs.write:out/reports",
      "fs.read:.",
      "fs.read:/proc/cpuinfo",
      "net:api.example.com:443",
      "net:example.com",
      "net:127.0.0.1:8080",
      "net:[::1]:9000",
      "process:git",
      "process:/usr/bin/git",
      "env:HOME",
      "rewrite",
    ];
    for (const text of texts) {
      const grant = parseGrant(text);
      expect(typeof grant, text).toBe("object");
      expect(formatGrant(grant as Exclude<typeof grant, string>)).toBe(text);
    }
    expect(parseGrant("fs.read:docs/")).toEqual({ kind: "fs.read", path: "docs" });
    expect(parseGrant("fs.read:./docs/../src")).toEqual({ kind: "fs.read", path: "src" });
    expect(parseGrant("net:API.Example.COM:443")).toEqual({
      kind: "net",
      host: "api.example.com",
      port: 443,
      literal: false,
    });
  });

  it("refuse what would climb out, hide an address, or smuggle a shell", () => {
    const bad: Array<[string, RegExp]> = [
      ["fs.read:../secrets", /stay inside the workspace/],
      ["fs.read:docs/../../x", /stay inside the workspace/],
      ["fs.read:a\0b", /NUL/],
      ["fs.write:C:\\x", /separator/],
      ["net:2130706433", /dotted decimal/],
      ["net:0x7f.1", /dotted decimal/],
      ["net:017700000001", /dotted decimal/],
      ["net:127.1", /dotted decimal/],
      ["net:::1", /brackets/],
      ["net:example.com:0", /port/],
      ["net:example.com:99999", /port/],
      ["net:exa mple.com", /not a host name/],
      ["process:git status", /plain name/],
      ["process:./git", /plain name/],
      ["process:sh -c", /plain name/],
      ["env:1X", /env var name/],
      ["env:A-B", /env var name/],
      ["fs.exec:x", /unknown kind/],
      ["everything", /is not a grant/],
    ];
    for (const [text, message] of bad) {
      const result = parseGrant(text);
      expect(typeof result, text).toBe("string");
      expect(result, text).toMatch(message);
    }
  });

  it("parseGrants lists every bad grant in one error", () => {
    expect(() => parseGrants(["fs.read:docs", "net:2130706433", "bogus"])).toThrow(GrantSyntaxError);
    try {
      parseGrants(["net:2130706433", "bogus"]);
    } catch (error) {
      expect((error as GrantSyntaxError).problems).toHaveLength(2);
    }
  });
});

describe("granted within requested", () => {
  const requested = parseGrants([
    "fs.read:docs",
    "net:api.example.com:443",
    "net:cdn.example.com",
    "process:git",
  ]);
  it("allows a narrower path and the same host and port", () => {
    for (const text of [
      "fs.read:docs",
      "fs.read:docs/api",
      "net:api.example.com:443",
      "net:cdn.example.com:8443",
      "process:git",
    ]) {
      expect(grantWithin(parseGrants([text])[0] as never, requested), text).toBe(true);
    }
  });
  it("refuses anything wider or different", () => {
    for (const text of [
      "fs.read:.",
      "fs.read:docsx",
      "fs.write:docs",
      "net:api.example.com:80",
      "net:example.com",
      "process:sh",
      "rewrite",
    ]) {
      expect(grantWithin(parseGrants([text])[0] as never, requested), text).toBe(false);
    }
  });
});

describe("addresses", () => {
  it("classifies loopback, private, link-local, metadata, unspecified and mapped forms as internal", () => {
    for (const address of [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.1.1",
      "169.254.169.254",
      "0.0.0.0",
      "100.64.0.1",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:a9fe:a9fe",
    ]) {
      expect(isInternalAddress(address), address).toBe(true);
    }
    for (const address of ["8.8.8.8", "93.184.216.34", "2606:4700::1111", "172.32.0.1"]) {
      expect(isInternalAddress(address), address).toBe(false);
    }
  });
});

describe("plain words", () => {
  it("say what each grant lets a hook do, with a risk level", () => {
    expect(describeGrant({ kind: "fs.read", path: "docs" })).toEqual({
      text: "reads files under docs",
      risk: "low",
    });
    expect(describeGrant({ kind: "net", host: "api.example.com", port: 443, literal: false }).text).toBe(
      "connects to api.example.com:443",
    );
    expect(describeGrant({ kind: "process", command: "git" })).toEqual({ text: "runs git", risk: "high" });
    expect(describeGrant({ kind: "rewrite" }).text).toMatch(/rewrite/);
    expect(highestRisk(parseGrants(["fs.read:docs", "env:HOME"]))).toBe("medium");
    expect(highestRisk([])).toBe("low");
  });
});

describe("package manifest", () => {
  const valid = {
    name: "@acme/guard",
    version: "1.2.3",
    description: "blocks rm -rf",
    hookyard: {
      main: "dist/hook.js",
      events: ["tool_before"],
      capabilities: { fs: { read: ["docs"] }, net: ["api.example.com:443"], env: ["HOME"] },
      effects: ["block", "rewrite"],
    },
  };

  it("accepts a valid manifest and lists what it requests as grants", () => {
    const manifest = packageManifestSchema.parse(valid);
    expect(requestedGrants(manifest.hookyard.capabilities, manifest.hookyard.effects)).toEqual([
      "fs.read:docs",
      "net:api.example.com:443",
      "env:HOME",
      "rewrite",
    ]);
  });

  it("names every bad field", () => {
    const result = packageManifestSchema.safeParse({
      name: "Bad Name",
      version: "1.0",
      hookyard: {
        main: "../escape.js",
        events: ["tool_before", "nope"],
        capabilities: { net: ["2130706433"] },
      },
    });
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((issue) => issue.path.join(".")) ?? [];
    expect(paths).toEqual(
      expect.arrayContaining([
        "name",
        "version",
        "hookyard.main",
        "hookyard.events.1",
        "hookyard.capabilities.net.0",
      ]),
    );
  });
});
