import { createHash, randomUUID } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { type AgentEvent, runAgent } from "../../runner/agent/loop.js";
import { ScriptedModel } from "../../runner/agent/models/scripted.js";
import { type CommunityHookConfig, loadHooks } from "../../runner/load/load-hooks.js";
import { parseGrants } from "../../sandbox/capabilities.js";
import type { Sandbox } from "../../sandbox/index.js";
import { recordingLogger } from "../helpers/logger.js";

/**
 * The end of every attack test: a real agent session (loadHooks, runAgent, a scripted model that
 * writes a file and then answers) in the attacked workspace, with one community hook in front of
 * the tool call. What a user sees must be intact, and no secret the attack went for may appear in
 * anything the model was sent.
 */

export interface AgentSessionOptions {
  /** The workspace the session runs in (its cwd and root). */
  root: string;
  /** What the community hook holds, as a user writes grants. */
  grants?: readonly string[];
  /**
   * The body of the hook's `async tool_before(ctx, api)`, run when the model calls write_file;
   * what it returns is the hook's inject. By default it names the tool call it saw.
   */
  use?: string;
  /** A sandbox already made over root to run the hook in (the caller closes it); else the session starts one. */
  sandbox?: Sandbox;
  /** Name → addresses, the sandbox's resolver for net grants (only without `sandbox`). */
  hosts?: Record<string, string[]>;
  /** Values that nothing the model is sent, no message, no event and no log line may hold. */
  secrets?: readonly string[];
}

export const agentCheckHook = "agent-check";
export const agentCheckFile = "agent-check.txt";

/**
 * Runs the session and expects it to end as a user would want: the answer given, the tool's file
 * written, the hook run without failing and its inject in the model's next request, no secret
 * shown. Returns the text the hook injected, for the caller to check what the hook's grants gave it.
 */
export async function agentSession(options: AgentSessionOptions): Promise<string> {
  const { root } = options;
  const use = options.use ?? 'return "saw " + ctx.tool + " of " + ctx.args.path;';
  const code = Buffer.from(
    `export default defineHook({ name: "${agentCheckHook}", on: { async tool_before(ctx, api) {
      return { inject: String(await (async () => { ${use} })()) };
    } } });`,
  );
  const hook: CommunityHookConfig = {
    name: agentCheckHook,
    source: "test/sandbox/agent-check",
    code,
    integrity: `sha512-${createHash("sha512").update(code).digest("base64")}`,
    events: ["tool_before"],
    grants: parseGrants([...(options.grants ?? [])]),
  };
  // Makes root the workspace root, whatever folder holds the temp dir.
  await mkdir(join(root, ".hookyard"), { recursive: true });
  const logger = recordingLogger();
  const hooks = await loadHooks({
    cwd: root,
    logger,
    community: [hook],
    sandbox: { sandbox: options.sandbox, hosts: options.hosts },
  });
  const written = `the agent carried on ${randomUUID()}`;
  const model = new ScriptedModel(
    ScriptedModel.parse({
      responses: [
        { toolCalls: [{ name: "write_file", args: { path: agentCheckFile, content: written } }] },
        { content: "done" },
      ],
    }),
  );
  const events: AgentEvent[] = [];
  try {
    expect(hooks.root).toBe(root);
    expect(hooks.problems).toEqual([]);
    const result = await runAgent({
      prompt: "write the file",
      model,
      hooks,
      cwd: root,
      onEvent: (event) => void events.push(event),
    });
    expect(logger.errors, "the agent-check hook should run without failing").toEqual([]);
    expect(result).toMatchObject({ answer: "done", reason: "completed" });
    expect(await readFile(join(root, agentCheckFile), "utf8")).toBe(written);
    const seen = JSON.stringify({ requests: model.requests, messages: result.messages, events, logger });
    for (const secret of options.secrets ?? []) expect(seen).not.toContain(secret);
    const inject = new RegExp(`<hookyard-inject hook="${agentCheckHook}">\\n([^]*)\\n</hookyard-inject>$`);
    const injected = inject.exec(model.requests[1]?.systemPrompt ?? "")?.[1];
    expect(injected, "the hook's inject should be in the model's next request").toBeDefined();
    return injected as string;
  } finally {
    await hooks.close();
  }
}
