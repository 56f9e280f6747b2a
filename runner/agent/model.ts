import type { Message, ModelResponse, ToolSpec } from "../../core/events.js";

/** One chat-completions call, as the loop sends it after the llm_before chain (injects included). */
export interface ModelRequest {
  model: string;
  systemPrompt: string;
  messages: Message[];
  tools: ToolSpec[];
}

export interface ModelResult {
  response: ModelResponse;
  usage: { inputTokens: number; outputTokens: number };
}

/** Models behind one interface: the loop does not know whether replies are scripted or real. */
export interface Model {
  readonly name: string;
  complete(request: ModelRequest): Promise<ModelResult>;
}
