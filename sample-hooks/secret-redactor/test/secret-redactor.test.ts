import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type SandboxedHook, sandboxedHook } from "hookyard/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The hook runs as users run it: bundled as `hookyard pack` bundles it, in the real sandbox, with
// the grants it asks for (redact:tool_after.result, redact:llm_after.response.content) unless a
// test says otherwise.
const source = fileURLToPath(new URL("../src/hook.ts", import.meta.url));
let root: string;
let redactor: SandboxedHook;
let ungranted: SandboxedHook;
let configured: SandboxedHook;
let misconfigured: SandboxedHook;
const grants = ["redact:tool_after.result", "redact:llm_after.response.content"];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "secret-redactor-"));
  [redactor, ungranted, configured, misconfigured] = await Promise.all([
    sandboxedHook(source, { root, grants }),
    sandboxedHook(source, { root }),
    sandboxedHook(source, { root, grants, config: { skip: ["jwt"], minLength: 40 } }),
    sandboxedHook(source, {
      root,
      grants,
      config: { minLength: "20", minEntropy: 99, skip: "everything", redact: false },
    }),
  ]);
});

afterAll(async () => {
  await Promise.all([redactor, ungranted, configured, misconfigured].map((hook) => hook?.close()));
  await rm(root, { recursive: true, force: true });
});

const toolResult = async (hook: SandboxedHook, result: string, tool = "bash") => {
  const outcome = await hook.run("tool_after", { tool, args: { command: "cat notes" }, result });
  expect(outcome.runs.map((r) => r.status)).toEqual(["ok"]);
  return outcome;
};
const redacted = async (result: string, hook = redactor) => (await toolResult(hook, result)).ctx.result;

// Built from parts, so the repository holds no string that a secret scanner would flag.
const fake = {
  github: `ghp_${"a1B2c3D4e5".repeat(3)}F6g7H8`,
  githubFineGrained: `github_pat_11${"ABCDEFGH0".repeat(2)}_${"abcdefghij0123456789".repeat(3)}xyz`,
  gitlab: `glpat-${"xY3zAbC9dE"}f_GhIjKlMn`,
  slack: `xoxb-${"1234567890"}12-1234567890123-${"AbCdEfGhIjKl"}MnOpQrStUvWx`,
  jwt: `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.${"SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"}`,
  keyBody: "MIIEpAIBAAKCAQEA7bq2wJ9nZx4ZR1vYb0l1zq8oP3u\nQ2sF8kLm0Tn5Wc1Xy7Vb3Hq9Jd4Kp6Rz2Ta8Ue0Lf==",
};

describe("each kind of secret is replaced by [redacted:<kind>]", () => {
  it.each([
    [
      "aws-access-key-id",
      "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
      "aws_access_key_id = [redacted:aws-access-key-id]",
    ],
    [
      "aws-access-key-id (temporary, ASIA…)",
      '"AccessKeyId": "ASIAY34FZKBOKMUTVV7A",',
      '"AccessKeyId": "[redacted:aws-access-key-id]",',
    ],
    [
      "aws-secret-access-key, by its name",
      "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      "aws_secret_access_key = [redacted:aws-secret-access-key]",
    ],
    [
      "aws-secret-access-key in `aws sts` JSON",
      '"SecretAccessKey": "Xb2dP0w3T1m9qLr7vN8sK4jH6gF5eD2cB1aZ0yW9"',
      '"SecretAccessKey": "[redacted:aws-secret-access-key]"',
    ],
    ["github-token", `GITHUB_TOKEN=${fake.github}`, "GITHUB_TOKEN=[redacted:github-token]"],
    [
      "github-token (fine-grained)",
      `git clone https://${fake.githubFineGrained}@github.com/acme/app`,
      "git clone https://[redacted:github-token]@github.com/acme/app",
    ],
    ["gitlab-token", `export CI_TOKEN=${fake.gitlab}`, "export CI_TOKEN=[redacted:gitlab-token]"],
    [
      "slack-token",
      `slack bot token: ${fake.slack} (rotate me)`,
      "slack bot token: [redacted:slack-token] (rotate me)",
    ],
    [
      "private-key",
      `id_rsa:\n-----BEGIN RSA PRIVATE KEY-----\n${fake.keyBody}\n-----END RSA PRIVATE KEY-----\nid_rsa.pub: ssh-rsa AAAA`,
      "id_rsa:\n[redacted:private-key]\nid_rsa.pub: ssh-rsa AAAA",
    ],
    [
      "private-key cut short by a truncated output",
      `-----BEGIN OPENSSH PRIVATE KEY-----\n${fake.keyBody}\n[output truncated]`,
      "[redacted:private-key]\n[output truncated]",
    ],
    ["jwt", `Authorization: Bearer ${fake.jwt}`, "Authorization: Bearer [redacted:jwt]"],
    [
      "password, .env style",
      'DB_HOST=db\nDB_PASSWORD=hunter2\nexport ADMIN_PASSWD="correct horse"',
      "DB_HOST=db\nDB_PASSWORD=[redacted:password]\nexport ADMIN_PASSWD=[redacted:password]",
    ],
    [
      "secret, .env style and in a compose file",
      "SECRET=abc\nenvironment:\n  - JWT_SECRET=shh",
      "SECRET=[redacted:secret]\nenvironment:\n  - JWT_SECRET=[redacted:secret]",
    ],
    [
      "high-entropy-secret behind a key/secret/token name",
      'api_key = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"\n"client_secret": "Zx81kQpL0vNw3RtY6uHs2JgF"\nX-Api-Key: AbCdEf0123456789GhIjKlMn',
      'api_key = "[redacted:high-entropy-secret]"\n"client_secret": "[redacted:high-entropy-secret]"\nX-Api-Key: [redacted:high-entropy-secret]',
    ],
  ])("%s", async (_kind, input, output) => {
    expect(await redacted(input)).toBe(output);
  });

  it("redacts a model reply, keeping its tool calls", async () => {
    const response = {
      content: `I found the key AKIAIOSFODNN7EXAMPLE in notes/deploy.txt; I will not repeat it.`,
      toolCalls: [{ id: "c1", name: "read_file", args: { path: "notes/deploy.txt" } }],
    };
    const outcome = await redactor.run("llm_after", {
      response,
      usage: { inputTokens: 120, outputTokens: 30 },
      latencyMs: 800,
      model: "scripted",
    });
    expect(outcome.ctx.response).toEqual({
      content: "I found the key [redacted:aws-access-key-id] in notes/deploy.txt; I will not repeat it.",
      toolCalls: [{ id: "c1", name: "read_file", args: { path: "notes/deploy.txt" } }],
    });
    expect(outcome.runs[0]?.effects).toEqual(["rewrite"]);
  });
});

describe("text that must not change", () => {
  it.each([
    [
      "git log, with SHAs",
      "commit 3f2a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a (HEAD -> main)\nAuthor: Ada <ada@example.com>\n\n    Merge 9c1e7d2 into main",
    ],
    ["UUIDs", "id: 123e4567-e89b-12d3-a456-426614174000\nrequest_id=8d3c1b1e-5f0a-4b7e-9c2d-1a2b3c4d5e6f"],
    [
      "base64 of a png header",
      "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    ],
    [
      "prose with the word token",
      "The tokenizer splits text into tokens. Pass your token in the Authorization header; a token: expires after an hour.",
    ],
    [
      "lockfile integrity and a cache key",
      '"integrity": "sha512-Z7w4Bt8kq7Nf4Yd6VfXJYl5Ji8B1wS2z8w0lJjv3u9Cq1PqVtI0d9E3Dk4tFh5w5nY7o1c5yR3vQfL1wQ2yA=="\ncache-key: node-modules-v2',
    ],
    [
      "placeholders, references and empty values",
      'API_KEY=your_api_key_goes_here\nPASSWORD=\nDB_PASSWORD=$POSTGRES_PASSWORD\n"tokenizer": "cl100k_base"\nsecret_key: CHANGE_ME_BEFORE_DEPLOYING',
    ],
    ["a public key", "public_key: AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"],
  ])("%s", async (_name, text) => {
    const outcome = await toolResult(redactor, text);
    expect(outcome.ctx.result).toBe(text);
    expect(outcome.runs[0]?.effects).toEqual([]);
  });
});

describe("the redact grants", () => {
  it("without it, the rewrite is dropped with a warning and the model sees the secret", async () => {
    const result = "aws_access_key_id = AKIAIOSFODNN7EXAMPLE";
    const outcome = await toolResult(ungranted, result, "read_file");
    expect(outcome.ctx.result).toBe(result);
    expect(outcome.runs[0]?.effects).toEqual([]);
    expect(outcome.warnings).toEqual([
      {
        hook: "secret-redactor",
        point: "tool_after",
        code: "RUN_ERR_EFFECT_DROPPED",
        message:
          'returned a rewrite of tool_after.result, but it has no "rewrite" grant (it would need redact:tool_after.result); dropped',
      },
    ]);
    // The line the user sees on stderr.
    expect(ungranted.warnings).toContain(
      'hook "secret-redactor" at tool_after returned a rewrite of tool_after.result, but it has no "rewrite" grant (it would need redact:tool_after.result); dropped',
    );
  });

  it("with it, the same result reaches the model redacted", async () => {
    const outcome = await toolResult(redactor, "aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "read_file");
    expect(outcome.ctx.result).toBe("aws_access_key_id = [redacted:aws-access-key-id]");
    expect(outcome.warnings).toEqual([]);
  });

  it("are enough for every kind it redacts: each change is only text replaced with a marker", async () => {
    const text = [
      `Bearer ${fake.jwt}`,
      'DB_PASSWORD="hunter2"',
      'api_key = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"',
      "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
      "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    ].join("\n");
    const outcome = await toolResult(redactor, text);
    expect(outcome.ctx.result).not.toBe(text);
    expect(outcome.ctx.result).not.toContain("hunter2");
    expect(outcome.warnings).toEqual([]);
  });
});

describe("config", () => {
  it("skips the kinds it is told to, and raises the length a high-entropy value needs", async () => {
    const text = `Bearer ${fake.jwt}\napi_key = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"\nDB_PASSWORD=x`;
    expect(await redacted(text, configured)).toBe(
      `Bearer ${fake.jwt}\napi_key = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"\nDB_PASSWORD=[redacted:password]`,
    );
  });

  it("ignores invalid settings, keeps redacting with the defaults, and names each problem once", async () => {
    expect(await redacted(`token=${fake.github}\napi_key: Zx81kQpL0vNw3RtY6uHs2JgF`, misconfigured)).toBe(
      "token=[redacted:github-token]\napi_key: [redacted:high-entropy-secret]",
    );
    await redacted("nothing here", misconfigured);
    expect(misconfigured.logs).toEqual([
      "[secret-redactor] config.redact is not a setting (minLength, minEntropy, skip)",
      "[secret-redactor] config.minLength must be a whole number from 8 to 1024; using 20",
      "[secret-redactor] config.minEntropy must be a number of bits per character from 0 to 8; using 3.2",
      "[secret-redactor] config.skip must be an array of kinds (private-key, jwt, aws-access-key-id, aws-secret-access-key, github-token, gitlab-token, slack-token, password, secret, high-entropy-secret); nothing is skipped",
    ]);
  });
});

describe("adversarial input", () => {
  it.each([
    ["runs that look like the start of a JWT", "eyJ-".repeat(60_000), "eyJ-".repeat(60_000)],
    ["a keyword followed by an endless value", "key=".repeat(60_000), "key=".repeat(60_000)],
    [
      "key blocks that never end",
      "-----BEGIN RSA PRIVATE KEY-----\n".repeat(7_000),
      `${"[redacted:private-key]\n".repeat(6_999)}[redacted:private-key]`,
    ],
    ["a keyword inside a long run of name characters", "secret".repeat(40_000), "secret".repeat(40_000)],
  ])("goes through 240 KB of %s within the sandbox's time limit", async (_name, text, expected) => {
    const outcome = await toolResult(redactor, text, "read_file");
    expect(outcome.ctx.result).toBe(expected);
  });

  it("redacts a secret at the end of a large, ordinary output", async () => {
    const log = "GET /health 200 3ms\n".repeat(10_000);
    const outcome = await toolResult(redactor, `${log}DB_PASSWORD=hunter2`);
    expect(outcome.ctx.result).toBe(`${log}DB_PASSWORD=[redacted:password]`);
  });
});
