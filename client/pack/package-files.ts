/**
 * The files `hookyard new` writes, generated here so there are no template files to ship. The
 * package is a small, real guard: it blocks recursive forced deletes of the disk or the home
 * folder in bash commands, asks for no capabilities, and tests itself in the real sandbox.
 */

/** A package name without its @scope/: the folder name, and the base of the hook's name. */
export function unscopedName(packageName: string): string {
  return packageName.replace(/^@[^/]+\//, "");
}

/** A hook name (1-64 of a-z 0-9 . _ -) for a package name: `~` is allowed in one but not the other. */
export function hookNameFor(packageName: string): string {
  return unscopedName(packageName).replace(/~/g, "-").slice(0, 64);
}

/** Path → contents, in the order they are listed to the user. */
export function scaffoldFiles(name: string): Record<string, string> {
  return {
    "package.json": packageJson(name),
    "src/hook.ts": hookSource(hookNameFor(name)),
    "test/hook.test.mjs": hookTest(),
    "README.md": readme(name),
    ".gitignore": "*.tgz\ndist/\nnode_modules\n",
  };
}

function packageJson(name: string): string {
  const manifest = {
    name,
    version: "0.1.0",
    description: "Blocks bash commands that delete the whole disk or the home folder (rm -rf / or ~)",
    license: "MIT",
    keywords: ["hookyard", "hook", "guard", "bash"],
    type: "module",
    // No dependency on hookyard: `hookyard test` gives the tests the hookyard that runs them, so
    // the package installs and tests offline, and no package of that name is fetched for it.
    scripts: {
      build: "hookyard pack",
      test: "hookyard test",
    },
    hookyard: {
      main: "dist/hook.js",
      events: ["tool_before"],
      matcher: { tool: "^bash$" },
      capabilities: {},
      effects: ["block"],
    },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

function hookSource(hookName: string): string {
  return `import { defineHook } from "hookyard";

/** What \`rm -r -f\` must never be pointed at: the whole disk, or the home folder. */
const everything = new Set(["/", "/*", "~", "~/", "~/*", "$HOME", "$HOME/", "\${HOME}", "*"]);

/** Whether one simple command (no ; && || |) is a recursive, forced rm of one of those targets. */
function deletesEverything(simpleCommand: string): boolean {
  const words = simpleCommand.trim().split(/\\s+/);
  const rm = words.findIndex((word) => word === "rm" || word.endsWith("/rm"));
  if (rm < 0) return false;
  const args = words.slice(rm + 1).map((word) => word.replace(/^["']|["']$/g, ""));
  const flags = args.filter((arg) => arg.startsWith("-"));
  const short = flags.filter((flag) => !flag.startsWith("--")).join("");
  const recursive = /[rR]/.test(short) || flags.includes("--recursive");
  const force = short.includes("f") || flags.includes("--force");
  return recursive && force && args.some((arg) => everything.has(arg));
}

export default defineHook({
  name: ${JSON.stringify(hookName)},
  matcher: { tool: "^bash$" },
  on: {
    tool_before(ctx) {
      const command = typeof ctx.args.command === "string" ? ctx.args.command : "";
      // Each part of a command line separately: \`cd /tmp && rm -rf /\` is caught too.
      if (command.split(/&&|\\|\\||[;|&\\n]/).some(deletesEverything)) {
        return { block: \`refused to run \${command}: it would delete the whole disk or home folder\` };
      }
      return undefined;
    },
  },
});
`;
}

function hookTest(): string {
  return `import assert from "node:assert/strict";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { sandboxedHook } from "hookyard/testing";

// The hook runs as users run it: bundled as \`hookyard pack\` bundles it, in the real sandbox.
const hook = await sandboxedHook(fileURLToPath(new URL("../src/hook.ts", import.meta.url)));
after(() => hook.close());

test("blocks rm -rf /", async () => {
  const outcome = await hook.run("tool_before", { tool: "bash", args: { command: "rm -rf /" } });
  assert.equal(outcome.verdict, "block");
});

test("lets ls through", async () => {
  const outcome = await hook.run("tool_before", { tool: "bash", args: { command: "ls -la" } });
  assert.equal(outcome.verdict, "allow");
  assert.equal(outcome.runs[0]?.status, "ok");
});
`;
}

function readme(name: string): string {
  return `# ${name}

A hookyard hook that blocks bash commands deleting the
whole disk or the home folder: \`rm -rf /\`, \`rm -fr ~\`, \`cd /tmp && rm -r -f $HOME\`. Every
other command runs as usual.

## What it requests

What it runs at and may do (its events, matcher, capabilities and effects) is the \`hookyard\`
field of package.json: \`hookyard install\` asks for exactly those grants, and the registry's page
shows them.

## Install

\`\`\`sh
hookyard install ${name} --sandbox
\`\`\`

## Develop

\`\`\`sh
npm test         # hookyard test: type-checks src/, runs test/ with src/hook.ts in the real sandbox
npm run build    # hookyard pack: bundles dist/hook.js and writes the .tgz
hookyard publish
\`\`\`
`;
}
