import { type ChildProcess, spawn } from "node:child_process";
import { chmod, mkdir, stat, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hookyard, repoRoot } from "../../../helpers/cli.js";
import { installFixture, noticeHook } from "../../../helpers/lock-fixture.js";
import { tempDir, workspace } from "../../../helpers/temp.js";
import { processWaitMs } from "../../../helpers/timeouts.js";
import { inputFor } from "../protocol/claude-profile-inputs.js";

const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** `hookyard serve` as a real process (the bin, from dist/: build first), once it says where it listens. */
function serve(root: string, ...args: string[]) {
  const child = spawn(
    process.execPath,
    ["--no-node-snapshot", join(repoRoot, "bin", "hookyard.js"), "serve", ...args],
    {
      cwd: root,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  running.push(child);
  let stderr = "";
  const exited = new Promise<number | NodeJS.Signals | null>((done) =>
    child.on("exit", (code, signal) => done(code ?? signal)),
  );
  return new Promise<{
    child: ChildProcess;
    url: string;
    token: string | undefined;
    stderr: () => string;
    exited: typeof exited;
  }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`serve did not listen within ${processWaitMs} ms: ${stderr}`)),
      processWaitMs,
    );
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /listening on (\S+)\n/.exec(stderr)?.[1];
      if (!url) return;
      clearTimeout(timer);
      const token = /token \(shown this once.*\): (hys_\S+)/.exec(stderr)?.[1];
      resolve({ child, url, token, stderr: () => stderr, exited });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before listening: ${stderr}`));
    });
  });
}

const guardHook = `export default {
  name: "guard",
  on: { tool_before(ctx) { if (/rm -rf/.test(ctx.args.command ?? "")) return { block: "rm -rf is not allowed" }; } },
};
`;

function post(url: string, body: unknown, token?: string, path = "/claude/PreToolUse") {
  return fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const rmInput = (root: string) =>
  inputFor("PreToolUse", { cwd: root, tool_name: "Bash", tool_input: { command: "rm -rf ~" } });

/** Polls `check` every 100 ms, at most `ms`: a reload is debounced, then loads in the background. */
async function eventually(check: () => Promise<boolean>, ms = 8_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((done) => setTimeout(done, 100));
  }
  return false;
}

describe("hookyard serve", () => {
  it("answers the agent's http hook with the profile's JSON, for the bearer token only", async () => {
    const root = await workspace({ ".hookyard/hooks/guard.mjs": guardHook });
    const server = await serve(root, "--port", "0");
    expect(server.token).toMatch(/^hys_/);
    expect(server.stderr()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\n/);
    const tokenFile = join(root, ".hookyard", "serve.token");
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);

    const denied = await post(server.url, rmInput(root), server.token);
    expect(denied.status).toBe(200);
    expect(await denied.json()).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: 'Blocked by hook "guard": rm -rf is not allowed',
      },
    });
    // The event from the body, when the URL does not name one; {} is no decision.
    const fine = await post(server.url, inputFor("Stop", { cwd: root }), server.token, "/claude");
    expect([fine.status, await fine.json()]).toEqual([200, {}]);
    const passthrough = await post(
      server.url,
      { hook_event_name: "X" },
      server.token,
      "/claude/SubagentStart",
    );
    expect([passthrough.status, await passthrough.json()]).toEqual([200, {}]);

    // A missing or wrong token is a 401 where the agent goes on anyway; where it is about to act
    // (that agent lets a call through on a 401), a refusal in a 200 that says what is wrong.
    const safe = inputFor("PreToolUse", { cwd: root, tool_name: "Bash", tool_input: { command: "ls" } });
    for (const token of [undefined, "hys_wrong", `${server.token}x`, server.token?.slice(0, -1)]) {
      const refused = await post(
        server.url,
        inputFor("PostToolUse", { cwd: root }),
        token,
        "/claude/PostToolUse",
      );
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("SERVE_UNAUTHORIZED");
      for (const [body, path] of [
        [safe, "/claude/PreToolUse"],
        [safe, "/claude"],
      ] as const) {
        const denied = await post(server.url, body, token, path);
        expect(denied.status).toBe(200);
        const answer = (await denied.json()) as {
          hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string };
          systemMessage: string;
        };
        expect(answer.hookSpecificOutput.permissionDecision).toBe("deny");
        expect(answer.hookSpecificOutput.permissionDecisionReason).toContain("HOOKYARD_SERVE_TOKEN");
        expect(answer.systemMessage).toContain("hookyard serve refused this request's token");
      }
      const prompt = await post(
        server.url,
        inputFor("UserPromptSubmit", { cwd: root }),
        token,
        "/claude/UserPromptSubmit",
      );
      expect([prompt.status, ((await prompt.json()) as { decision: string }).decision]).toEqual([
        200,
        "block",
      ]);
    }
    // Where the agent is about to act, input that cannot be checked is refused in a 200 (an error
    // status would let the call through); elsewhere it is a 400.
    const decisionOf = async (response: Response) => [
      response.status,
      ((await response.json()) as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput
        ?.permissionDecision,
    ];
    expect(await decisionOf(await post(server.url, "{ nope", server.token))).toEqual([200, "deny"]);
    expect(await decisionOf(await post(server.url, { hook_event_name: "PreToolUse" }, server.token))).toEqual(
      [200, "deny"],
    );
    const elsewhere = await post(
      server.url,
      { hook_event_name: "PostToolUse" },
      server.token,
      "/claude/PostToolUse",
    );
    expect([elsewhere.status, ((await elsewhere.json()) as { error: { code: string } }).error.code]).toEqual([
      400,
      "RUN_ERR_AGENT_INPUT",
    ]);
    // Over the size cap: refused, or the connection closed while the client still writes.
    const big = await post(
      server.url,
      { ...rmInput(root), pad: "x".repeat(9 * 1024 * 1024) },
      server.token,
    ).then(decisionOf, () => "closed");
    expect([JSON.stringify([200, "deny"]), JSON.stringify("closed")]).toContain(JSON.stringify(big));
    expect((await post(server.url, {}, server.token, "/nothing")).status).toBe(404);

    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    await expect(stat(tokenFile)).rejects.toThrow(/ENOENT/);
    expect(server.stderr()).toMatch(/SIGTERM: answering the requests in flight, then stopping\n.*stopped\n$/);
  });

  it("reloads after hookyard.json changes, and keeps the hooks it has when the new file is broken", async () => {
    const root = await workspace({ "hookyard.json": { rules: [] } });
    const server = await serve(root, "--port", "0");
    const prompt = async () => {
      const answer = await post(
        server.url,
        inputFor("UserPromptSubmit", { cwd: root }),
        server.token,
        "/claude/UserPromptSubmit",
      );
      return (await answer.json()) as { hookSpecificOutput?: { additionalContext?: string } };
    };
    expect(await prompt()).toEqual({});
    const hook = { name: "house-style", engine: "prompt", events: ["turn_before"], text: "Use tabs." };
    await writeFile(join(root, "hookyard.json"), JSON.stringify({ rules: [hook] }));
    expect(await eventually(async () => (await prompt()).hookSpecificOutput !== undefined)).toBe(true);
    expect(server.stderr()).toMatch(/reloaded after hookyard.json changed: \d+ hook\(s\)/);

    await writeFile(join(root, "hookyard.json"), "{ broken");
    expect(
      await eventually(async () => /reload after hookyard.json changed failed/.test(server.stderr())),
    ).toBe(true);
    expect((await prompt()).hookSpecificOutput?.additionalContext).toContain("Use tabs.");
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });

  it("reloads when a hook file appears under .hookyard/hooks, and not when one is saved broken", async () => {
    const root = await workspace({ "hookyard.json": {} });
    const server = await serve(root, "--port", "0");
    const decision = async () => {
      const body = (await (await post(server.url, rmInput(root), server.token)).json()) as {
        hookSpecificOutput?: { permissionDecision?: string };
      };
      return body.hookSpecificOutput?.permissionDecision;
    };
    expect(await decision()).toBeUndefined();
    await workspaceFile(root, ".hookyard/hooks/guard.mjs", guardHook);
    expect(await eventually(async () => (await decision()) === "deny")).toBe(true);
    // Saved half-written: the guard that was running stays, rather than vanish until the file is fixed.
    await workspaceFile(root, ".hookyard/hooks/guard.mjs", guardHook.slice(0, 40));
    expect(
      await eventually(async () =>
        /"guard" would not load; the hooks loaded before stay/.test(server.stderr()),
      ),
    ).toBe(true);
    expect(await decision()).toBe("deny");
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });

  it("keeps a sandboxed community hook warm and answers through it", async () => {
    const root = await workspace({ "hookyard.json": {} });
    await installFixture(root, [
      {
        name: "seen",
        source: noticeHook("seen", '"saw " + ctx.tool', "tool_after"),
        hookyard: { events: ["tool_after"] },
      },
    ]);
    const server = await serve(root, "--port", "0");
    for (let i = 0; i < 3; i++) {
      const answer = await post(
        server.url,
        inputFor("PostToolUse", { cwd: root }),
        server.token,
        "/claude/PostToolUse",
      );
      expect(await answer.json()).toEqual({ systemMessage: "seen: saw bash" });
    }
    server.child.kill("SIGINT");
    expect(await server.exited).toBe(0);
  });

  it("uses the token from --token-file, refuses one other users may read, and leaves the file alone", async () => {
    const root = await workspace({ "hookyard.json": {} });
    const file = join(await tempDir(), "token");
    await writeFile(file, "hys_my-own-token\n");
    await chmod(file, 0o644);
    const loose = await hookyard(["serve", "--port", "0", "--token-file", file], { cwd: root });
    expect(loose.code).toBe(3);
    expect(loose.stderr).toMatch(/CLI_ERR_SERVE_TOKEN: other users may read the token file/);
    await chmod(file, 0o600);
    const server = await serve(root, "--port", "0", "--token-file", file);
    expect(server.token).toBeUndefined();
    expect(server.stderr()).not.toContain("hys_my-own-token");
    expect((await post(server.url, rmInput(root), "hys_my-own-token")).status).toBe(200);
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect((await stat(file)).isFile()).toBe(true);
  });

  it("listens on a unix socket when asked, for its owner only, and removes it when stopped", async () => {
    const root = await workspace({ ".hookyard/hooks/guard.mjs": guardHook });
    const socket = join(await tempDir(), "hookyard.sock");
    const server = await serve(root, "--socket", socket);
    expect(server.url).toBe(`unix:${socket}`);
    expect((await stat(socket)).mode & 0o777).toBe(0o600);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(
        {
          socketPath: socket,
          path: "/claude/PreToolUse",
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${server.token}` },
        },
        (response) => {
          let body = "";
          response.on("data", (chunk: Buffer) => (body += chunk.toString()));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      request.on("error", reject);
      request.end(JSON.stringify(rmInput(root)));
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).hookSpecificOutput.permissionDecision).toBe("deny");
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    await expect(stat(socket)).rejects.toThrow(/ENOENT/);
  });

  it("a broken rule file does not hold back a hookyard.json change; an event from another project gets no hook and is told", async () => {
    const root = await workspace({ ".hookyard/hooks/guard.mjs": guardHook, "hookyard.json": {} });
    const server = await serve(root, "--port", "0");
    const decision = async (cwd = root) => {
      const body = (await (await post(server.url, { ...rmInput(root), cwd }, server.token)).json()) as {
        hookSpecificOutput?: { permissionDecision?: string };
        systemMessage?: string;
      };
      return body.hookSpecificOutput?.permissionDecision ?? body.systemMessage;
    };
    expect(await decision()).toBe("deny");
    await workspaceFile(
      root,
      ".hookyard/rules/broken.md",
      "---\nname: broken\nevent: bash\naction: warn\nconditon: x\n---\nx\n",
    );
    await workspaceFile(root, "hookyard.json", JSON.stringify({ hooks: { guard: { enabled: false } } }));
    expect(await eventually(async () => (await decision()) === undefined)).toBe(true);
    expect(server.stderr()).toMatch(/reload after hookyard.json changed: "broken" is skipped/);

    const elsewhere = await workspace({ "hookyard.json": {} });
    expect(await decision(elsewhere)).toMatch(
      /^hookyard: no hook ran: this hookyard serve answers for .*, and this project is /,
    );
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });
});

async function workspaceFile(root: string, path: string, text: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), text);
}
