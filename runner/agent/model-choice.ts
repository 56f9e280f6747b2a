import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { RunnerError } from "../../core/errors.js";
import type { Model, ModelRequest, ModelResult } from "./model.js";
import { OpenAIModel } from "./models/openai.js";
import { ScriptedModel } from "./models/scripted.js";

/** What a hookyard.json entry says about its model (the `agent` and `judge` engines). */
export interface ModelSettings {
  /** `scripted:<file.json>` (relative to the workspace) or `openai:<model>`, as `hookyard run --model`. */
  model: string;
  /** The OpenAI-compatible endpoint; default `$OPENAI_BASE_URL`, else api.openai.com/v1. */
  baseUrl?: string;
  /** The environment variable holding the API key; default `OPENAI_API_KEY`. */
  apiKeyEnv?: string;
}

/** A model chosen once, when the hook is compiled; each review gets an instance bound to its deadline. */
export interface ModelChoice {
  readonly name: string;
  forCall(signal: AbortSignal): Model;
}

/**
 * Reads the model a hook names, failing at load time with RUN_ERR_MODEL_UNKNOWN when it names
 * none hookyard knows or its script cannot be read (RUN_ERR_SCRIPT_INVALID when it is no script). A scripted model is one script for the hook's
 * lifetime: each model call of every review takes the next response, as in `hookyard run`.
 */
export function chooseModel(settings: ModelSettings, root: string, env: NodeJS.ProcessEnv): ModelChoice {
  const colon = settings.model.indexOf(":");
  const kind = colon < 0 ? settings.model : settings.model.slice(0, colon);
  const rest = colon < 0 ? "" : settings.model.slice(colon + 1);
  const unknown = (why: string, cause?: unknown) =>
    new RunnerError(
      "RUN_ERR_MODEL_UNKNOWN",
      `model "${settings.model}" ${why}; use "scripted:<file.json>" or "openai:<model>"`,
      { cause },
    );
  if (kind === "scripted" && rest) {
    const file = resolve(root, rest);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      throw unknown(`cannot be read (${(error as Error).message})`, error);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new RunnerError("RUN_ERR_SCRIPT_INVALID", `${file}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const model = new ScriptedModel(ScriptedModel.parse(data, file));
    return { name: model.name, forCall: (signal) => abortable(model, signal) };
  }
  if (kind === "openai" && rest) {
    const apiKey = env[settings.apiKeyEnv ?? "OPENAI_API_KEY"];
    const baseUrl = settings.baseUrl ?? env.OPENAI_BASE_URL ?? "https://api.openai.com/v1";
    return {
      name: rest,
      forCall: (signal) =>
        abortable(new OpenAIModel({ model: rest, baseUrl, signal, ...(apiKey ? { apiKey } : {}) }), signal),
    };
  }
  throw unknown("is not one hookyard knows");
}

/** A model that answers no call once `signal` has fired, and gives up on the one in flight. */
function abortable(model: Model, signal: AbortSignal): Model {
  return {
    name: model.name,
    complete: (request: ModelRequest): Promise<ModelResult> => {
      if (signal.aborted) return Promise.reject(signal.reason);
      return new Promise((done, fail) => {
        const stop = () => fail(signal.reason);
        signal.addEventListener("abort", stop, { once: true });
        model.complete(request).then(
          (result) => {
            signal.removeEventListener("abort", stop);
            done(result);
          },
          (error: unknown) => {
            signal.removeEventListener("abort", stop);
            fail(error);
          },
        );
      });
    },
  };
}
