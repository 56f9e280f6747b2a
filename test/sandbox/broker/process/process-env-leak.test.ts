import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { workspace } from "../../../helpers/temp.js";
import { agentSession } from "../../agent-check.js";
import { brokerFor } from "../helpers.js";

const canary = `env-canary-${process.pid}`;
const planted = {
  HOOKYARD_SECRET_CANARY: canary,
  AWS_SECRET_ACCESS_KEY: canary,
  LD_PRELOAD: "/nonexistent/hookyard-canary.so",
  LD_LIBRARY_PATH: "/nonexistent/hookyard-canary",
  DYLD_INSERT_LIBRARIES: "/nonexistent/hookyard-canary.dylib",
  NODE_OPTIONS: "--require /nonexistent/hookyard-canary.js",
};

beforeEach(() => {
  Object.assign(process.env, planted);
});
afterEach(() => {
  for (const name of Object.keys(planted)) delete process.env[name];
});

function parseEnv(stdout: string): Record<string, string> {
  return Object.fromEntries(
    stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

describe("a granted command's environment", () => {
  it("holds PATH (system directories), HOME and LANG, and none of the parent's secrets or loader variables", async () => {
    const root = await workspace();
    const { call } = brokerFor(root, ["process:env"]);
    const { stdout, code } = (await call("process.exec", "env", [])) as { stdout: string; code: number };
    expect(code).toBe(0);
    expect(stdout).not.toContain(canary);
    const env = parseEnv(stdout);
    expect(Object.keys(env).every((name) => ["PATH", "HOME", "LANG"].includes(name))).toBe(true);
    expect(env.PATH).toBe("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
    expect(Object.keys(env).some((name) => /^(LD_|DYLD_)/.test(name))).toBe(false);
    expect(parseEnv(await agentRunsEnv(root))).toEqual(env);
  });

  it("is the same when the broker reads an explicit host env", async () => {
    const root = await workspace();
    const { call } = brokerFor(root, ["process:env"], {
      env: { PATH: "/usr/bin", HOME: "/home/someone", LANG: "de_DE.UTF-8", ...planted },
    });
    const { stdout } = (await call("process.exec", "env", [])) as { stdout: string };
    expect(parseEnv(stdout)).toEqual({
      PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
      HOME: "/home/someone",
      LANG: "de_DE.UTF-8",
    });
    expect(parseEnv(await agentRunsEnv(root))).toMatchObject({
      PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    });
  });
});

/** The agent check: a hook granted process:env runs it in a real session (the planted env inherited); its output. */
function agentRunsEnv(root: string): Promise<string> {
  return agentSession({
    root,
    grants: ["process:env"],
    use: 'return (await api.process.exec("env", [])).stdout;',
    secrets: [canary],
  });
}
