import { createServer } from "node:net";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { type Io, main } from "../../../../cli/main.js";
import { runCli } from "../../../helpers/run-cli.js";
import { tempDir } from "../../../helpers/temp.js";
import { hookPackage, publish, startRegistry, type TestRegistry } from "../../../registry/helpers.js";

async function seed(reg: TestRegistry, packages: Array<{ name: string; description: string }>) {
  for (const spec of packages) {
    const answer = await publish(reg, reg.admin, await hookPackage(spec), spec.name);
    expect(answer.status).toBe(201);
  }
}

async function search(registry: string, ...args: string[]) {
  const home = await tempDir();
  return runCli(["search", ...args, "--registry", registry], {
    cwd: home,
    env: { HOOKYARD_CONFIG: join(home, "config.json") },
  });
}

/** A port nothing listens on: one the OS just gave out and that was closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

const guards = [
  { name: "guard-shell", description: "blocks rm -rf in bash" },
  { name: "guard-secrets", description: "blocks reading .env files" },
  { name: "guard-net", description: "blocks curl to unknown hosts" },
  { name: "notify-desktop", description: "desktop notifications when the agent waits" },
];

describe("hookyard search", () => {
  it("finds hooks by words in a table with name, version, downloads and description", async () => {
    const reg = await startRegistry();
    await seed(reg, guards);
    const result = await search(reg.url, "desk notif");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^NAME +VERSION +DOWNLOADS +DESCRIPTION$/);
    expect(lines[1]).toMatch(/^notify-desktop +1\.0\.0 +0 +desktop notifications when the agent waits$/);
    expect(lines.at(-1)).toBe("1-1 of 1");
    expect(result.stdout).not.toContain("guard");
  });

  it("pages with --limit and --offset, and says how to get the next page", async () => {
    const reg = await startRegistry();
    await seed(reg, guards);
    const first = await search(reg.url, "guard", "--limit", "2");
    expect(first.code).toBe(0);
    const rows = first.stdout.split("\n").filter((l) => l.startsWith("guard-"));
    expect(rows).toHaveLength(2);
    expect(first.stdout).toContain(
      `\n1-2 of 3; next page: hookyard search guard --offset 2 --limit 2 --registry ${reg.url}\n`,
    );

    const second = await search(reg.url, "guard", "--limit", "2", "--offset", "2");
    const last = second.stdout.split("\n").filter((l) => l.startsWith("guard-"));
    expect(last).toHaveLength(1);
    expect(second.stdout.trimEnd().endsWith("\n3-3 of 3")).toBe(true);
    const seen = [...rows, ...last].map((l) => l.split(" ")[0]).sort();
    expect(seen).toEqual(["guard-net", "guard-secrets", "guard-shell"]);

    const beyond = await search(reg.url, "guard", "--offset", "10");
    expect(beyond.code).toBe(0);
    expect(beyond.stdout).toBe("no results from #11: 3 hooks match guard\n");
  });

  it("a query with spaces is quoted in the next-page hint so it can be pasted back", async () => {
    const reg = await startRegistry();
    await seed(reg, guards);
    const result = await search(reg.url, "blocks r'", "--limit", "1");
    expect(result.stdout).toContain(
      "1-1 of 2; next page: hookyard search 'blocks r'\\''' --offset 1 --limit 1",
    );
  });

  it('says "no hooks match" when nothing does, and exits 0', async () => {
    const reg = await startRegistry();
    await seed(reg, guards);
    const result = await search(reg.url, "zebra");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("no hooks match zebra\n");
  });

  it("--json prints the page as the registry gave it, with the query and registry", async () => {
    const reg = await startRegistry();
    await seed(reg, guards);
    const result = await search(reg.url, "guard", "--limit", "1", "--json");
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({ registry: reg.url, query: "guard", total: 3, limit: 1, offset: 0 });
    expect(json.results).toHaveLength(1);
    expect(Object.keys(json.results[0]).sort()).toEqual([
      "description",
      "downloads",
      "keywords",
      "name",
      "version",
    ]);
  });

  it("cuts long descriptions to 60 characters when not on a terminal, and to the terminal's width on one", async () => {
    const reg = await startRegistry();
    const long = `blocks ${"dangerous ".repeat(30)}commands`;
    await seed(reg, [{ name: "guard-long", description: long }]);
    const piped = await search(reg.url, "guard");
    const row = piped.stdout.split("\n")[1] ?? "";
    const description = row.slice(row.indexOf("blocks"));
    expect(description).toHaveLength(60);
    expect(description.endsWith("…")).toBe(true);

    const out: string[] = [];
    const stdout = Object.assign(
      { write: (text: string) => out.push(text) > 0 },
      { isTTY: true, columns: 72 },
    );
    const home = await tempDir();
    const code = await main(["search", "guard", "--registry", reg.url], {
      stdout: stdout as unknown as Io["stdout"],
      stderr: { write: () => true } as unknown as Io["stderr"],
      stdin: Readable.from([]),
      env: { HOOKYARD_CONFIG: join(home, "config.json") },
      cwd: home,
    });
    expect(code).toBe(0);
    const lines = out.join("").split("\n");
    expect(lines[1]).toContain("guard-long");
    expect(lines[1]?.endsWith("…")).toBe(true);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(72);
  });

  it("a description's escape sequences never reach the terminal", async () => {
    const reg = await startRegistry();
    await seed(reg, [{ name: "guard-evil", description: "ok\u001b[2J\u001b[Hhidden\rline" }]);
    const result = await search(reg.url, "guard");
    for (const control of ["\u001b", "\r"]) expect(result.stdout).not.toContain(control);
    expect(result.stdout).toContain("ok [2J [Hhidden line");
  });

  it("a bad --limit or --offset is a usage error (exit 2) and asks the registry nothing", async () => {
    const unreachable = `http://127.0.0.1:${await closedPort()}`;
    for (const args of [
      ["--limit", "0"],
      ["--limit", "101"],
      ["--limit", "abc"],
      ["--limit", "1.5"],
      ["--limit", ""],
      ["--offset=-1"],
      ["--offset", "10001"],
      ["--offset", "0x10"],
    ]) {
      const result = await search(unreachable, "guard", ...args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toMatch(
        /^hookyard: CLI_ERR_USAGE: --(limit|offset) must be a whole number/,
      );
    }
  });

  it("a registry that is down is CLI_ERR_REGISTRY_UNREACHABLE naming it, exit 1", async () => {
    const unreachable = `http://127.0.0.1:${await closedPort()}`;
    const result = await search(unreachable, "guard");
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /^hookyard: CLI_ERR_REGISTRY_UNREACHABLE: could not reach the registry at /,
    );
    expect(result.stderr).toContain(unreachable);
  });
});
