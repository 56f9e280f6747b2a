/**
 * What `hookyard demo` installs and runs: each sample with the least grants it needs, the config
 * the demo gives it, the workspace it runs in and the scripted agent sessions. The samples are the
 * real packages in sample-hooks/; this file only says how the demo uses them.
 */

export interface DemoSample {
  name: string;
  /** Grant strings; `{port}` is the local audit collector's port. */
  grants: string[];
  config?: Record<string, unknown>;
}

export const demoSamples: DemoSample[] = [
  { name: "dangerous-command-guard", grants: [] },
  { name: "secret-redactor", grants: ["redact:tool_after.result", "redact:llm_after.response.content"] },
  { name: "bash-timeout", grants: ["rewrite:tool_before.args.timeout"], config: { seconds: 30 } },
  { name: "steering-injector", grants: ["fs.read:docs/conventions.md"] },
  {
    name: "audit-webhook",
    grants: ["net:127.0.0.1:{port}"],
    config: { url: "http://127.0.0.1:{port}/audit" },
  },
  { name: "todo-state", grants: [] },
];

/** The project the demo agent works in. */
export const demoFiles: Record<string, string> = {
  "notes/deploy.txt": [
    "Deploy notes",
    "region = eu-west-1",
    "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "",
  ].join("\n"),
  "docs/conventions.md": [
    "# Conventions",
    "",
    "## Style",
    "",
    "Two-space indentation; no default exports.",
    "",
    "## Testing",
    "",
    "Every parser change comes with a table-driven test in test/, run with `npm test`.",
    "Tests never touch the network.",
    "",
  ].join("\n"),
  "src/parser.js": "export function parse(line) {\n  return line.split(',');\n}\n",
};

/** First session: each step shows one hook at work. */
export const firstSession = {
  prompt: "Free some disk space, then check the deploy notes and build the parser.",
  responses: [
    {
      content: "I'll start by clearing out the home folder.",
      toolCalls: [{ name: "bash", args: { command: "rm -rf ~" } }],
    },
    {
      content: "That was refused, rightly. Let me read the deploy notes instead.",
      toolCalls: [{ name: "read_file", args: { path: "notes/deploy.txt" } }],
    },
    {
      content: "The key is hidden from me, good. Now the parser needs tests; let me build it first.",
      toolCalls: [{ name: "bash", args: { command: "sleep 0.2 && node -e 'console.log(\"built\")'" } }],
    },
    {
      content: [
        "Built. I'll write the tests as the conventions say in the next session.",
        "TODO: add a table-driven test for src/parser.js",
        "TODO: rotate the AWS key that was in notes/deploy.txt",
      ].join("\n"),
    },
  ],
};

/** Second session: the todo list comes back on its own. */
export const secondSession = {
  prompt: "What is left from last time?",
  responses: [{ content: "Two things are open: the parser test and the key rotation." }],
};
