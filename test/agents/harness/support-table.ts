/**
 * What docs/agents/README.md says each agent supports, as rows a test proves: a test of test/agents/
 * names the cells it proves (`proves`), support-reporter.ts records which of those tests passed in
 * the last run (test/agents/last-run.json) and writes each agent's table from that record. A cell
 * no passing test proves is never "yes".
 */

export type AgentId = "claude-code" | "gemini-cli" | "codex" | "pi" | "opencode";

export interface SupportRow {
  readonly id: string;
  readonly text: string;
  /** What a column says when no test proves the cell: "—" (does not apply) or "not run" (default). */
  readonly otherwise?: Readonly<Record<string, string>>;
}

export interface SupportTable {
  readonly agent: AgentId;
  readonly name: string;
  readonly testFile: string;
  readonly columns: readonly { readonly id: string; readonly header: string }[];
  readonly rows: readonly SupportRow[];
}

/** One cell a test proves, with what the table says when it passes ("yes" unless told). */
export interface ProvenCell {
  readonly row: string;
  readonly column: string;
  readonly value: string;
}

export interface AgentSupportMeta {
  readonly agent: AgentId;
  readonly version: string;
  readonly cells: readonly ProvenCell[];
}

declare module "vitest" {
  interface TaskMeta {
    agentSupport?: AgentSupportMeta;
  }
}

const registryGuard =
  "a sandboxed community guard from a registry (`hookyard install --sandbox`) blocks the `rm`: the file survives, the next request carries its reason";
const allow = "allow (the control): with no guard the same `rm` deletes the file";
const argRewrite = "argument rewrite: the tool runs the rewritten command";
/** Rows Gemini CLI and Codex word alike (their events carry the same names). */
const injectTool = "inject after a tool (with a rewrite, and alone): the next request carries the text";
const injectAtSessionStart = "inject at SessionStart: the first request carries the text";
const sessionHooks = "SessionStart and SessionEnd hooks run";
const routesForced =
  "deny and argument rewrite with exec forced to the daemon, and forced in-process (`HOOKYARD_EXEC_ROUTE`)";
const hookFileBroken = "a hook file that does not load: the prompt is refused, no model request";
const workspaceBroken = "a workspace that does not load (`hookyard.json` not JSON): the prompt is refused";
const onlyRoute = [{ id: "exec", header: "exec (the only route)" }] as const;

export const supportTables: readonly SupportTable[] = [
  {
    agent: "claude-code",
    name: "Claude Code",
    testFile: "test/agents/claude-code.test.ts",
    columns: [
      { id: "exec", header: "exec (default)" },
      { id: "http", header: "http (`--http`, serve)" },
    ],
    rows: [
      {
        id: "deny",
        text: "deny at PreToolUse: the victim file survives, the next model request carries the reason",
      },
      { id: "registry-guard", text: registryGuard },
      { id: "allow", text: allow },
      { id: "arg-rewrite", text: argRewrite },
      {
        id: "result-json",
        text: "result rewrite that keeps the JSON whole: the next request holds the redacted text and not the secret",
      },
      {
        id: "result-text",
        text: "result rewrite to plain text of an object result (Bash, Read): the next request holds the text, not the secret",
      },
      {
        id: "result-unknown",
        text: "result rewrite of a tool whose result shape hookyard does not know (Write): the agent stops, no further request",
      },
      { id: "inject-tool", text: "inject after a tool: the next request carries the text" },
      { id: "prompt-block", text: "prompt block at UserPromptSubmit: no model request is made" },
      { id: "stop-continue", text: "stop-continue: one more turn, its request carrying the reason" },
      {
        id: "session",
        text: "SessionStart and SessionEnd hooks run (SessionStart is an exec entry on both routes)",
      },
      {
        id: "session-end-slow",
        text: "a 2.5 s SessionEnd hook runs to its end with no daemon (cancelled at 1.5 s without the timeout)",
        otherwise: { http: "—" },
      },
      { id: "hook-file-broken", text: hookFileBroken },
      { id: "guard-crash", text: 'a guard that crashes with `onError: "block"`: the Bash call is denied' },
      { id: "workspace-broken", text: workspaceBroken },
      { id: "unreachable", text: "hookyard not reachable", otherwise: { exec: "—" } },
    ],
  },
  {
    agent: "gemini-cli",
    name: "Gemini CLI",
    testFile: "test/agents/gemini-cli.test.ts",
    columns: onlyRoute,
    rows: [
      {
        id: "deny",
        text: "deny at BeforeTool: the victim file survives, the next model request carries the reason",
      },
      { id: "routes-forced", text: routesForced },
      { id: "registry-guard", text: registryGuard },
      { id: "allow", text: allow },
      { id: "arg-rewrite", text: argRewrite },
      {
        id: "result-rewrite",
        text: "result rewrite of a shell result and of `read_file`'s: the next request holds the new text, not the secret",
      },
      { id: "inject-tool", text: injectTool },
      { id: "inject-start", text: injectAtSessionStart },
      {
        id: "tool-error",
        text: "a failed tool (`read_file` of a missing file) fires `tool_error`; its inject reaches the next request",
      },
      { id: "prompt-block", text: "prompt block at BeforeAgent: no model request is made" },
      {
        id: "stop-continue",
        text: "stop-continue at AfterAgent: one more turn, its request carrying the reason",
      },
      { id: "session", text: sessionHooks },
      { id: "hook-file-broken", text: hookFileBroken },
      { id: "guard-crash", text: 'a guard that crashes with `onError: "block"`: the shell call is denied' },
      { id: "workspace-broken", text: workspaceBroken },
      {
        id: "cannot-start",
        text: "hookyard cannot start: its node gone (exit 127) or its bin gone (exit 1, made 2 by the entry): refused",
      },
    ],
  },
  {
    agent: "codex",
    name: "Codex",
    testFile: "test/agents/codex.test.ts",
    columns: onlyRoute,
    rows: [
      {
        id: "deny",
        text: "deny at PreToolUse: the victim file survives, the next model request carries the reason",
      },
      { id: "routes-forced", text: routesForced },
      { id: "registry-guard", text: registryGuard },
      { id: "allow", text: allow },
      { id: "arg-rewrite", text: argRewrite },
      {
        id: "result-rewrite",
        text: "result rewrite (a redaction in place, a whole result replaced): the next request holds the new text, no request the secret",
      },
      { id: "inject-tool", text: injectTool },
      { id: "inject-start", text: injectAtSessionStart },
      {
        id: "prompt-block",
        text: "prompt block at UserPromptSubmit: no model request is made, no tool runs",
      },
      { id: "stop-continue", text: "stop-continue at Stop: one more turn, its request carrying the reason" },
      { id: "session", text: sessionHooks },
      { id: "hook-file-broken", text: hookFileBroken },
      {
        id: "guard-crash",
        text: 'a guard that crashes with `onError: "block"`: the shell call is denied, the reason in the next request',
      },
      { id: "workspace-broken", text: workspaceBroken },
      {
        id: "bin-gone",
        text: "hookyard's bin gone (exit 1, made 2 by the entry): the prompt is refused; without `\\|\\| exit 2` it goes through (the control)",
      },
      {
        id: "untrusted",
        text: "hooks Codex has not trusted: `hookyard status` says NOT TRUSTED (exit 1), and indeed the guard does not run; trusted, status says so",
      },
    ],
  },
  {
    agent: "pi",
    name: "Pi",
    testFile: "test/agents/pi.test.ts",
    columns: onlyRoute,
    rows: [
      {
        id: "deny",
        text: "deny at `tool_call`: the victim file survives, the next model request carries the reason",
      },
      { id: "routes-forced", text: routesForced },
      { id: "registry-guard", text: registryGuard },
      { id: "allow", text: allow },
      { id: "arg-rewrite", text: argRewrite },
      {
        id: "result-rewrite",
        text: "result rewrite of a `bash` result and of `read`'s: the next request holds the new text, not the secret",
      },
      { id: "inject-tool", text: "inject after a tool: the next request carries the text" },
      { id: "inject-start", text: "inject at `session_start`: the first request carries the text" },
      {
        id: "tool-error",
        text: "a failed tool (`read` of a missing file) fires `tool_error`; its inject reaches the next request",
      },
      { id: "prompt-block", text: "prompt block at `input`: no model request is made, the reason is shown" },
      {
        id: "stop-continue",
        text: "stop-continue at `agent_end`, in an open session (`--mode rpc`): one more turn, its request carrying the reason",
      },
      { id: "session", text: "`session_start` and `session_shutdown` hooks run" },
      { id: "hook-file-broken", text: hookFileBroken },
      {
        id: "guard-crash",
        text: 'a guard that crashes with `onError: "block"`: the bash call is denied, the model told why',
      },
      { id: "workspace-broken", text: workspaceBroken },
      {
        id: "cannot-start",
        text: "hookyard cannot be started (its node gone): the prompt is refused, saying hookyard could not answer",
      },
      {
        id: "fails-at-call",
        text: "hookyard fails at the tool call (exits 1, answers what is not JSON, takes past the timeout): the call is refused, the model told why",
      },
    ],
  },
  {
    agent: "opencode",
    name: "OpenCode",
    testFile: "test/agents/opencode.test.ts",
    columns: [{ id: "exec", header: "plugin → exec (the only route)" }],
    rows: [
      {
        id: "deny",
        text: "deny at `tool.execute.before`: the victim file survives, the next model request carries the reason",
      },
      {
        id: "egress",
        text: "it reaches for nothing but the fake model and the npm registry (the egress proxy refused nothing)",
      },
      { id: "registry-guard", text: registryGuard },
      { id: "allow", text: allow },
      { id: "arg-rewrite", text: argRewrite },
      {
        id: "result-rewrite",
        text: "result rewrite of a `bash` result and of `read`'s: the next request holds the new text, not the secret",
      },
      { id: "inject-tool", text: "inject after a tool: the next request carries the text" },
      { id: "inject-start", text: "inject at `session.created`: the first request carries the text" },
      {
        id: "prompt-block",
        text: "prompt block at `chat.message`: no model request is made, the reason is on stderr",
      },
      {
        id: "session",
        text: "session start and end hooks run (`session.created`, and the plugin's `dispose` as `agent_after`)",
      },
      { id: "hook-file-broken", text: hookFileBroken },
      {
        id: "cannot-start",
        text: 'hookyard cannot start (its node gone, or its bin gone): the prompt is refused, "hookyard could not answer"',
      },
      {
        id: "fails-at-call",
        text: "hookyard fails at `tool.execute.before` (exits 1; answers what is not its JSON): each call refused, the model told",
      },
      {
        id: "plugin-types",
        text: "the plugin as shipped type-checks as a `Plugin` of `@opencode-ai/plugin` at the pinned version",
      },
    ],
  },
];

export function supportTable(agent: AgentId): SupportTable {
  const table = supportTables.find((t) => t.agent === agent);
  if (!table) throw new Error(`no support table for ${agent}`);
  return table;
}

/**
 * The `meta` of a test that proves `cells`: per column, row ids (the cell then says "yes" when the
 * test passes) or `[row, value]` for another word ("**fails open**", asserted as such).
 */
export function proves(
  agent: AgentId,
  version: string,
  cells: Readonly<Record<string, readonly (string | readonly [string, string])[]>>,
): { agentSupport: AgentSupportMeta } {
  const table = supportTable(agent);
  const proven: ProvenCell[] = [];
  for (const [column, rows] of Object.entries(cells)) {
    if (!table.columns.some((c) => c.id === column)) throw new Error(`${agent} has no column ${column}`);
    for (const entry of rows) {
      const [row, value] = typeof entry === "string" ? [entry, "yes"] : entry;
      if (!table.rows.some((r) => r.id === row)) throw new Error(`${agent} has no row ${row}`);
      proven.push({ row, column, value });
    }
  }
  return { agentSupport: { agent, version, cells: proven } };
}
