import { describe, expect, it } from "vitest";
import { points, rewritableFields } from "../../../core/events.js";
import { packageManifestSchema } from "../../../package/manifest.js";
import {
  describeGrant,
  formatGrant,
  type Grant,
  grantWithin,
  highestRisk,
  parseGrant,
  parseGrants,
  requestedGrants,
  rewritableFieldsByPoint,
} from "../../../sandbox/capabilities.js";

const grant = (text: string) => parseGrants([text])[0] as Grant;

describe("rewrite and redact grants name the field they may change", () => {
  it("parse into a point and a field path, and format back to the same string", () => {
    for (const text of [
      "rewrite:tool_before.args.timeout",
      "rewrite:tool_before.args",
      "rewrite:tool_after.result",
      "rewrite:llm_before.messages",
      "rewrite:llm_after.response.content",
      "redact:tool_after.result",
      "redact:llm_after.response.content",
      "rewrite",
    ]) {
      expect(formatGrant(grant(text)), text).toBe(text);
    }
    expect(parseGrant("rewrite:tool_before.args.timeout")).toEqual({
      kind: "rewrite",
      field: { point: "tool_before", path: ["args", "timeout"] },
    });
    expect(parseGrant("rewrite")).toEqual({ kind: "rewrite" });
  });

  it("refuse a field that is not rewritable where the grant says, saying where it is", () => {
    const bad: Array<[string, RegExp]> = [
      [
        "rewrite:tool_after.args",
        /"rewrite:tool_after.args": args is not rewritable at tool_after \(only result is; tool_before.args is\)/,
      ],
      ["rewrite:tool_before.command", /command is not rewritable at tool_before \(only args is\)/],
      [
        "redact:agent_before.cwd",
        /agent_before is not a point where anything may be rewritten \(rewritable: turn_before.prompt, /,
      ],
      ["rewrite:bogus.args", /bogus is not a point where anything may be rewritten/],
      ["rewrite:tool_before", /name a field of tool_before: tool_before.args/],
      ["rewrite:", /name a point and a field, such as tool_before.args.timeout/],
      ["redact:tool_after.result.", /an empty name is not a field name/],
      ["rewrite:tool_before.args.a b", /"a b" is not a field name \(1-64 letters, digits, _ or -/],
      ["rewrite:tool_before.args.a.b.c.d.e.f.g.h", /at most 8 names deep/],
      ["redact", /"redact": name the field it may redact, redact:<point>.<field>/],
      ["rewrites:tool_before.args", /unknown kind "rewrites"/],
    ];
    for (const [text, message] of bad) {
      const result = parseGrant(text);
      expect(typeof result, text).toBe("string");
      expect(result, text).toMatch(message);
    }
  });

  it("match the rewritable fields of core/events.ts, point by point", () => {
    const fromEvents = Object.fromEntries(
      points.filter((p) => rewritableFields(p).length > 0).map((p) => [p, [...rewritableFields(p)]]),
    );
    expect(rewritableFieldsByPoint).toEqual(fromEvents);
  });

  it("a field covers its sub-fields; bare rewrite covers everything; redact is narrower than rewrite", () => {
    const within = (granted: string, requested: string[]) =>
      grantWithin(grant(granted), parseGrants(requested));
    expect(within("rewrite:tool_before.args.timeout", ["rewrite:tool_before.args"])).toBe(true);
    expect(within("rewrite:tool_before.args.timeout", ["rewrite"])).toBe(true);
    expect(within("redact:tool_after.result", ["rewrite"])).toBe(true);
    expect(within("redact:tool_after.result", ["rewrite:tool_after.result"])).toBe(true);
    expect(within("redact:llm_after.response.content", ["redact:llm_after.response"])).toBe(true);
    expect(within("rewrite:tool_before.args", ["rewrite:tool_before.args.timeout"])).toBe(false);
    expect(within("rewrite:tool_after.result", ["redact:tool_after.result"])).toBe(false);
    expect(within("rewrite", ["rewrite:tool_before.args"])).toBe(false);
    expect(within("rewrite:tool_before.args.timeoutx", ["rewrite:tool_before.args.timeout"])).toBe(false);
  });
});

describe("the risk of a rewrite grant", () => {
  const risk = (text: string) => describeGrant(grant(text)).risk;
  it("is high when it can change what a tool runs, and for bare rewrite", () => {
    for (const text of [
      "rewrite",
      "rewrite:tool_before.args",
      "rewrite:tool_before.args.command",
      "rewrite:tool_before.args.path",
      "rewrite:tool_before.args.content",
      "rewrite:tool_before.args.description",
      "redact:tool_before.args.command",
      "rewrite:llm_after.response",
      "rewrite:llm_after.response.toolCalls",
    ]) {
      expect(risk(text), text).toBe("high");
    }
    expect(describeGrant(grant("rewrite:tool_before.args.command")).text).toBe(
      "can rewrite the command argument of tool calls (tool_before.args.command), and so change what a tool runs (a command, a file path, what is written)",
    );
  });
  it("is medium for other fields, harmless arguments included, and low for a redaction", () => {
    expect(risk("rewrite:tool_before.args.timeout")).toBe("medium");
    expect(risk("rewrite:tool_after.result")).toBe("medium");
    expect(risk("rewrite:llm_before.messages")).toBe("medium");
    expect(risk("rewrite:llm_after.response.content")).toBe("medium");
    expect(risk("redact:tool_after.result")).toBe("low");
    expect(risk("redact:llm_after.response.content")).toBe("low");
    expect(describeGrant(grant("redact:tool_after.result")).text).toBe(
      "can hide text in tool results (tool_after.result), only replacing it with markers such as [redacted]",
    );
    expect(highestRisk(parseGrants(["redact:tool_after.result", "rewrite:tool_before.args.timeout"]))).toBe(
      "medium",
    );
  });
});

describe("a manifest asks for rewrite and redact fields", () => {
  const manifest = (hookyard: Record<string, unknown>) =>
    packageManifestSchema.safeParse({
      name: "x",
      version: "1.0.0",
      hookyard: { main: "dist/hook.js", ...hookyard },
    });

  it("as capabilities.rewrite and capabilities.redact, listed as grants; the effect alone still asks for bare rewrite", () => {
    const parsed = manifest({
      events: ["tool_before", "tool_after"],
      capabilities: { rewrite: ["tool_before.args.timeout"], redact: ["tool_after.result"] },
      effects: ["rewrite"],
    });
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    const hookyard = parsed.data?.hookyard;
    expect(requestedGrants(hookyard?.capabilities, hookyard?.effects)).toEqual([
      "rewrite:tool_before.args.timeout",
      "redact:tool_after.result",
    ]);
    const old = manifest({ events: ["tool_before"], effects: ["rewrite"] });
    expect(requestedGrants(old.data?.hookyard.capabilities, old.data?.hookyard.effects)).toEqual(["rewrite"]);
  });

  it("refuses a field at a point it does not run at, without the rewrite effect, or not rewritable", () => {
    const messages = (hookyard: Record<string, unknown>) =>
      manifest(hookyard).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`) ?? [];
    expect(
      messages({
        events: ["tool_before"],
        capabilities: { redact: ["tool_after.result"] },
        effects: ["rewrite"],
      }),
    ).toEqual(["hookyard.capabilities.redact.0: tool_after.result is at tool_after, which is not in events"]);
    expect(
      messages({
        events: ["tool_before"],
        capabilities: { rewrite: ["tool_before.args.timeout"] },
        effects: [],
      }),
    ).toEqual([
      'hookyard.effects: capabilities.rewrite asks to change tool_before.args.timeout: list "rewrite" in effects too',
    ]);
    expect(
      messages({
        events: ["tool_after"],
        capabilities: { rewrite: ["tool_after.args"] },
        effects: ["rewrite"],
      }),
    ).toEqual([
      "hookyard.capabilities.rewrite.0: args is not rewritable at tool_after (only result is; tool_before.args is)",
    ]);
  });
});
