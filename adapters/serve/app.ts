import { isAbsolute } from "node:path";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from "fastify";
import { errorText } from "../../core/errors.js";
import { findWorkspaceRoot } from "../../workspace/root.js";
import { AgentInputError } from "../agent-input-error.js";
import { handleClaudeEvent, uncheckedRefusal } from "../claude/protocol/index.js";
import type { LiveHooks } from "../live-hooks/live-hooks.js";
import { maxInputBytes } from "../profile.js";
import { bearerMatches } from "./bearer.js";

export interface ServeAppOptions {
  live: LiveHooks;
  token: string;
  log: (line: string) => void;
}

/**
 * The daemon's HTTP face: `POST /claude/<Event>` (or `POST /claude`, the event from the body's
 * hook_event_name) answers with the claude profile's JSON body, `{}` when no hook decided. Every
 * request needs the bearer token; errors are `{ error: { code, message } }` with a non-2xx status,
 * which that agent treats as a non-blocking failure.
 */
export function buildServeApp(options: ServeAppOptions): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: maxInputBytes, return503OnClosing: true });
  const fail = (reply: FastifyReply, status: number, code: string, message: string) =>
    reply.code(status).send({ error: { code, message } });

  // A refused token at PreToolUse or UserPromptSubmit is a refusal in a 200: that agent takes a 401
  // as a non-blocking error and lets the call through, so a lost token would turn every guard off.
  const unauthorized = (reply: FastifyReply, event: string | undefined) => {
    const refusal = uncheckedRefusal(event, tokenProblem);
    if (refusal) {
      options.log(`refused a ${event} sent without the right token`);
      return reply
        .code(200)
        .send({ ...(refusal.body as object), systemMessage: `hookyard: ${tokenProblem}` });
    }
    reply.header("www-authenticate", 'Bearer realm="hookyard"');
    return fail(
      reply,
      401,
      "SERVE_UNAUTHORIZED",
      "send Authorization: Bearer <token> (hookyard serve printed it)",
    );
  };
  const refusedToken = Symbol("refused token");
  app.addHook("onRequest", (request, reply, done) => {
    if (bearerMatches(request.headers.authorization, options.token)) return done();
    // POST /claude names its event in the body: decided once the body is read (below).
    if (request.method === "POST" && request.url.split("?")[0] === "/claude") {
      (request as unknown as Record<symbol, boolean>)[refusedToken] = true;
      return done();
    }
    const event = /^\/claude\/([^/?]+)/.exec(request.url)?.[1];
    void unauthorized(reply, event && decodeURIComponent(event));
  });
  app.addHook("preHandler", (request, reply, done) => {
    if (!(request as unknown as Record<symbol, boolean>)[refusedToken]) return done();
    const event = (request.body as { hook_event_name?: unknown } | null)?.hook_event_name;
    void unauthorized(reply, typeof event === "string" ? event : undefined);
  });

  const rootOf = workspaceRoots();
  const told = new Set<string>();
  const answer = async (event: string | undefined, body: unknown, reply: FastifyReply) => {
    // One daemon serves one workspace: an event from another project (a user-wide http hook) gets
    // no hook of this one, and is told so, as exec would have run that project's own.
    const cwd = (body as { cwd?: unknown } | null)?.cwd;
    const served = options.live.hooks.root;
    if (typeof cwd === "string" && isAbsolute(cwd)) {
      const root = await rootOf(cwd);
      if (root !== served) {
        if (!told.has(root)) options.log(`an event from ${root} got no hook: this daemon serves ${served}`);
        told.add(root);
        return reply.send({
          systemMessage: `hookyard: no hook ran: this hookyard serve answers for ${served}, and this project is ${root}; start hookyard serve there, or route it to hookyard exec`,
        });
      }
    }
    const result = await options.live.use((hooks) => handleClaudeEvent(hooks, event, body));
    if (result.stderr) options.log(result.stderr.trimEnd());
    return reply.send(result.body);
  };
  app.post("/claude", (request, reply) => answer(undefined, request.body, reply));
  app.post<{ Params: { event: string } }>("/claude/:event", (request, reply) =>
    answer(request.params.event, request.body, reply),
  );

  app.setNotFoundHandler((request, reply) =>
    fail(reply, 404, "SERVE_NOT_FOUND", `no ${request.method} ${request.url}: POST /claude/<Event>`),
  );
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error instanceof AgentInputError ? 400 : (error.statusCode ?? 500);
    if (status >= 400 && status < 500) {
      // An http hook's error status lets the call through: where the agent is about to act, input
      // that cannot be checked is refused in a 200 instead.
      const event = (request.params as { event?: string } | undefined)?.event;
      const refusal = uncheckedRefusal(event, error.message);
      if (refusal) {
        options.log(refusal.stderr.trimEnd());
        return reply.code(200).send(refusal.body);
      }
    }
    if (error instanceof AgentInputError) return fail(reply, 400, error.code, error.message);
    if (status >= 400 && status < 500) {
      // Fastify's own: a body over the cap, not JSON, not application/json.
      return fail(
        reply,
        status,
        "RUN_ERR_AGENT_INPUT",
        `the request body is not a hook input: ${error.message}`,
      );
    }
    options.log(`error: answering a request failed: ${errorText(error)}`);
    return fail(reply, 500, "SERVE_FAILED", errorText(error));
  });
  return app;
}

const tokenProblem =
  "hookyard serve refused this request's token (HOOKYARD_SERVE_TOKEN is missing or not the token of the running hookyard serve): set it to the token in .hookyard/serve.token in the environment Claude Code starts from, or route the agent to hookyard exec (hookyard install-into claude)";

/** findWorkspaceRoot, remembered per cwd (a few hundred at most in practice; the cache is bounded). */
function workspaceRoots(): (cwd: string) => Promise<string> {
  const known = new Map<string, string>();
  return async (cwd) => {
    const hit = known.get(cwd);
    if (hit !== undefined) return hit;
    const root = await findWorkspaceRoot(cwd);
    if (known.size >= 1000) known.clear();
    known.set(cwd, root);
    return root;
  };
}
