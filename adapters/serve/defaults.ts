/** What agents' settings point at: the daemon's address, and how they send its token. Light: no imports. */
export const defaultServePort = 4874;
export const defaultServeHost = "127.0.0.1";
/** The env var an agent's http hook reads the token from (its settings name it in allowedEnvVars). */
export const serveTokenEnv = "HOOKYARD_SERVE_TOKEN";
/** Where a generated token is written, under the workspace root. */
export const serveTokenFile = ".hookyard/serve.token";
