import type { Model } from "../../runner/agent/model.js";
import { OpenAIModel } from "../../runner/agent/models/openai.js";
import { ScriptedModel } from "../../runner/agent/models/scripted.js";
import { CliError, exitCodes } from "../errors.js";

export interface ModelFlags {
  model: string;
  baseUrl?: string;
  apiKey?: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** `scripted:<file>` or `openai:<model>`; the OpenAI endpoint and key come from flags, then env. */
export async function modelFromSpec(flags: ModelFlags): Promise<Model> {
  const colon = flags.model.indexOf(":");
  const kind = colon < 0 ? flags.model : flags.model.slice(0, colon);
  const rest = colon < 0 ? "" : flags.model.slice(colon + 1);
  if (kind === "scripted" && rest) {
    const { resolve } = await import("node:path");
    return ScriptedModel.fromFile(resolve(flags.cwd, rest));
  }
  if (kind === "openai" && rest) {
    const apiKey = flags.apiKey ?? flags.env.OPENAI_API_KEY;
    return new OpenAIModel({
      model: rest,
      baseUrl: flags.baseUrl ?? flags.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1",
      ...(apiKey ? { apiKey } : {}),
    });
  }
  throw new CliError("CLI_ERR_MODEL_SPEC", `--model ${flags.model} is not understood`, exitCodes.usage);
}
