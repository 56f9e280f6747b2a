import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../../../helpers/temp.js";
import { agentSession } from "../../agent-check.js";
import { brokerFor, canaryFile } from "../helpers.js";

/*
 * A second process swaps a path between "inside" and "a symlink leading out" as fast as it can
 * while the broker works on it: the window between a check and an open is real here, so a broker
 * that checked a path and then opened it by name would sooner or later hand out the canary.
 */

const attackMs = 2_500;

let attacker: ChildProcess | undefined;
afterEach(() => {
  attacker?.kill("SIGKILL");
  attacker = undefined;
});

/** Runs `body` (a loop over renames) in another process for at most a few seconds; resolves once it runs. */
async function startSwapping(body: string, paths: Record<string, string>): Promise<void> {
  const script = `
    const fs = require("node:fs");
    const p = JSON.parse(process.argv[1]);
    const until = Date.now() + ${attackMs + 3_000};
    process.stdout.write("ready\\n");
    while (Date.now() < until) { try { ${body} } catch {} }
  `;
  const child = spawn(process.execPath, ["-e", script, JSON.stringify(paths)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  attacker = child;
  await new Promise<void>((resolve) => child.stdout?.once("data", () => resolve()));
}

/** Calls `attempt` repeatedly for a bounded time; returns each outcome (a value, or an error code). */
async function hammer(attempt: () => Promise<unknown>): Promise<{ values: unknown[]; codes: string[] }> {
  const values: unknown[] = [];
  const codes: string[] = [];
  const until = Date.now() + attackMs;
  for (let i = 0; i < 20_000 && Date.now() < until; i++) {
    try {
      values.push(await attempt());
    } catch (error) {
      codes.push((error as { code: string }).code);
    }
  }
  return { values, codes };
}

/**
 * Turns p.sub from the real directory into the symlink p.link and back, over and over. A
 * directory the broker created at p.sub while the real one was away is removed, so the swap
 * never stalls.
 */
const swapDirectoryAndSymlink = `
  const now = fs.lstatSync(p.sub, { throwIfNoEntry: false });
  if (now?.isSymbolicLink()) { fs.renameSync(p.sub, p.link); globalThis.next = "dir"; }
  else if (now && fs.existsSync(p.dir)) fs.rmSync(p.sub, { recursive: true });
  else if (now) { fs.renameSync(p.sub, p.dir); globalThis.next = "link"; }
  else if (globalThis.next === "link") fs.renameSync(p.link, p.sub);
  else fs.renameSync(p.dir, p.sub);
`;

async function layout() {
  const base = await tempDir();
  const root = join(base, "ws");
  const outside = join(base, "outside");
  await mkdir(join(root, "docs/sub"), { recursive: true });
  await mkdir(outside);
  await writeFile(join(root, "docs/sub/file.txt"), "inside");
  // Out of the swap's way, for the agent check after it.
  await writeFile(join(root, "docs/readme.md"), "steady");
  const canary = await canaryFile(outside, "file.txt");
  return { root, outside, canary };
}

describe("a directory swapped for a symlink between the broker's check and its use", () => {
  it("never lets a read return the file outside", async () => {
    const { root, outside, canary } = await layout();
    await symlink(outside, join(root, "docs/sub.link"));
    const { call } = brokerFor(root, ["fs.read:docs"]);
    const docs = join(root, "docs");
    await startSwapping(swapDirectoryAndSymlink, {
      sub: join(docs, "sub"),
      dir: join(docs, "sub.dir"),
      link: join(docs, "sub.link"),
    });

    const { values, codes } = await hammer(() => call("fs.readFile", "docs/sub/file.txt"));

    expect(values).not.toContain(canary.content);
    expect(new Set(values)).toEqual(new Set(["inside"]));
    // Both sides of the swap were seen: the race was on.
    expect(codes).toContain("CAPABILITY_DENIED");
    expect(values.length).toBeGreaterThan(0);
    attacker?.kill("SIGKILL");
    const used = await agentSession({
      root,
      grants: ["fs.read:docs"],
      use: 'return api.fs.readFile("docs/readme.md");',
      secrets: [canary.content],
    });
    expect(used).toBe("steady");
  });

  it("never lets a write land outside through a swapped parent directory", async () => {
    const { root, outside, canary } = await layout();
    await symlink(outside, join(root, "docs/sub.link"));
    const { call } = brokerFor(root, ["fs.write:docs"]);
    const docs = join(root, "docs");
    await startSwapping(swapDirectoryAndSymlink, {
      sub: join(docs, "sub"),
      dir: join(docs, "sub.dir"),
      link: join(docs, "sub.link"),
    });

    // Over the file that has a canary twin outside, and a new file that would appear outside.
    let n = 0;
    const { values, codes } = await hammer(() =>
      call("fs.writeFile", n++ % 2 ? "docs/sub/file.txt" : "docs/sub/written.txt", `write ${n}`),
    );

    attacker?.kill("SIGKILL");
    expect(await readdir(outside)).toEqual(["file.txt"]);
    expect(await canary.unchanged()).toBe(true);
    expect(values.length).toBeGreaterThan(0);
    expect(codes.length).toBeGreaterThan(0);
    expect(await agentWrites(root, [canary.content])).toBe("written by the agent's hook");
  });

  it("never lets a write follow a symlink renamed over the target file", async () => {
    const { root, canary } = await layout();
    await writeFile(join(root, "docs/target.txt"), "good");
    const { call } = brokerFor(root, ["fs.write:docs"]);
    const docs = join(root, "docs");
    await startSwapping(
      `fs.symlinkSync(p.canary, p.evil); fs.renameSync(p.evil, p.target); fs.writeFileSync(p.good, "good"); fs.renameSync(p.good, p.target);`,
      {
        canary: canary.path,
        evil: join(docs, ".evil"),
        good: join(docs, ".good"),
        target: join(docs, "target.txt"),
      },
    );

    const { values, codes } = await hammer(() => call("fs.writeFile", "docs/target.txt", "pwned"));

    attacker?.kill("SIGKILL");
    expect(await canary.unchanged()).toBe(true);
    expect(values.length).toBeGreaterThan(0);
    expect(codes.length).toBeGreaterThan(0);
    expect(await agentWrites(root, [canary.content])).toBe("written by the agent's hook");
  });
});

/** The agent check for fs.write:docs: its hook writes a file there; what the file then holds. */
async function agentWrites(root: string, secrets: string[]): Promise<string> {
  const used = await agentSession({
    root,
    grants: ["fs.write:docs"],
    use: 'await api.fs.writeFile("docs/agent.md", "written by the agent\'s hook"); return "wrote";',
    secrets,
  });
  expect(used).toBe("wrote");
  return readFile(join(root, "docs/agent.md"), "utf8");
}
