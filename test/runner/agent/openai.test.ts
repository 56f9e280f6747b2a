import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { defineHook } from "../../../core/hook.js";
import { runAgent } from "../../../runner/agent/loop.js";
import { OpenAIModel } from "../../../runner/agent/models/openai.js";
import { hooksOf } from "../../helpers/hooks.js";
import { recordingLogger } from "../../helpers/logger.js";
import { workspace } from "../../helpers/temp.js";

interface Captured {
  headers: Record<string, string | string[] | undefined>;
  body: {
    model: string;
    messages: Array<{ role: string; content: string | null; tool_call_id?: string; tool_calls?: unknown[] }>;
    tools?: Array<{ type: string; function: { name: string } }>;
  };
}

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A chat-completions stub on 127.0.0.1 that records each request body and answers from a list. */
async function stub(
  answers: Array<{ status?: number; body: unknown }>,
): Promise<{ url: string; requests: Captured[] }> {
  const requests: Captured[] = [];
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (c: Buffer) => (text += c.toString()));
    req.on("end", () => {
      requests.push({ headers: req.headers, body: JSON.parse(text) });
      const answer = answers[requests.length - 1] ?? { status: 500, body: { error: "no more answers" } };
      res.writeHead(answer.status ?? 200, { "content-type": "application/json" });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, requests };
}

const toolCallAnswer = {
  choices: [
    {
      message: {
        content: null,
        tool_calls: [
          { id: "call_a", type: "function", function: { name: "list_dir", arguments: '{"path":"."}' } },
        ],
      },
    },
  ],
  usage: { prompt_tokens: 10, completion_tokens: 5 },
};
const finalAnswer = {
  choices: [{ message: { content: "all done" } }],
  usage: { prompt_tokens: 12, completion_tokens: 2 },
};

describe("the openai model", () => {
  it("sends an llm_before inject in the body of the very next request, tagged with the hook", async () => {
    const root = await workspace({ "file.txt": "x" });
    const { url, requests } = await stub([{ body: toolCallAnswer }, { body: finalAnswer }]);
    let calls = 0;
    const steer = defineHook({
      name: "steering",
      on: { llm_before: () => (++calls === 2 ? { inject: "STEER-42: run the tests first" } : undefined) },
    });
    const result = await runAgent({
      hooks: hooksOf(root, [steer], recordingLogger()),
      model: new OpenAIModel({ model: "test-model", baseUrl: url, apiKey: "sk-test" }),
      prompt: "look around",
      cwd: root,
    });

    expect(result.answer).toBe("all done");
    expect(requests).toHaveLength(2);
    const [first, second] = requests.map((r) => r.body);
    expect(first?.messages[0]?.content).not.toContain("STEER-42");
    expect(second?.messages[0]).toMatchObject({ role: "system" });
    expect(second?.messages[0]?.content).toContain(
      '<hookyard-inject hook="steering">\nSTEER-42: run the tests first',
    );
    expect(requests[0]?.headers.authorization).toBe("Bearer sk-test");
    expect(first?.tools?.map((t) => t.function.name)).toEqual([
      "read_file",
      "write_file",
      "list_dir",
      "bash",
    ]);
  });

  it("sends the tool result back under the model's call id", async () => {
    const root = await workspace({ "file.txt": "x" });
    const { url, requests } = await stub([{ body: toolCallAnswer }, { body: finalAnswer }]);
    await runAgent({
      hooks: hooksOf(root, [], recordingLogger()),
      model: new OpenAIModel({ model: "test-model", baseUrl: url }),
      prompt: "look around",
      cwd: root,
    });

    const messages = requests[1]?.body.messages ?? [];
    expect(messages.find((m) => m.role === "assistant")?.tool_calls).toHaveLength(1);
    expect(messages.find((m) => m.role === "tool")).toMatchObject({
      tool_call_id: "call_a",
      content: "file.txt",
    });
    expect(requests[0]?.headers.authorization).toBeUndefined();
  });

  it("ends the run with model_error when the endpoint fails, and tells the user", async () => {
    const root = await workspace();
    const { url } = await stub([{ status: 500, body: { error: "overloaded" } }]);
    const notices: string[] = [];
    const notify = defineHook({
      name: "notifier",
      on: {
        notify: (ctx) => {
          notices.push(ctx.message);
        },
      },
    });
    const result = await runAgent({
      hooks: hooksOf(root, [notify], recordingLogger()),
      model: new OpenAIModel({ model: "test-model", baseUrl: url }),
      prompt: "hi",
      cwd: root,
    });

    expect(result.reason).toBe("model_error");
    expect(notices.some((n) => n.includes("500") && n.includes("overloaded"))).toBe(true);
  });

  it("accepts tool calls without ids and with arguments as an object, as some local servers send them", async () => {
    const root = await workspace({ "file.txt": "x" });
    const loose = {
      choices: [
        {
          message: {
            content: "",
            tool_calls: [{ function: { name: "read_file", arguments: { path: "file.txt" } } }],
          },
        },
      ],
    };
    const { url, requests } = await stub([{ body: loose }, { body: finalAnswer }]);
    const result = await runAgent({
      hooks: hooksOf(root, [], recordingLogger()),
      model: new OpenAIModel({ model: "test-model", baseUrl: url }),
      prompt: "read it",
      cwd: root,
    });

    expect(result.answer).toBe("all done");
    const tool = requests[1]?.body.messages.find((m) => m.role === "tool");
    expect(tool?.content).toBe("x");
    expect(tool?.tool_call_id).toMatch(/^call_/);
  });

  it("reports an answer in an unexpected shape as a model failure naming the field", async () => {
    const root = await workspace();
    const { url } = await stub([
      { body: { choices: [{ message: { tool_calls: [{ function: { name: "" } }] } }] } },
    ]);
    const result = await runAgent({
      hooks: hooksOf(root, [], recordingLogger()),
      model: new OpenAIModel({ model: "test-model", baseUrl: url }),
      prompt: "hi",
      cwd: root,
    });

    expect(result.reason).toBe("model_error");
    expect(String((result.error as Error).message)).toMatch(
      /unexpected shape \(choices\.0\.message\.tool_calls\.0\.function\.name/,
    );
  });
});
