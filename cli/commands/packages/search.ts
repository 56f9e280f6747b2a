import type { SearchAnswer } from "../../../client/registry-client.js";
import type { CliContext, Command } from "../../command.js";
import { CliError, exitCodes } from "../../errors.js";
import { registryOption } from "../../options/registry.js";
import { safeTable, terminalLine } from "../../ui/terminal-text.js";

/** The registry's own bounds for a page (GET /v1/search). */
const limits = { limit: { min: 1, max: 100 }, offset: { min: 0, max: 10_000 } } as const;
const defaultLimit = "20";
/** Descriptions are cut to this when the output is not a terminal (a pipe, a file). */
const pipedDescriptionWidth = 60;

export default {
  name: "search",
  summary: "Find hooks in the registry by words in their name, description and keywords",
  args: [
    { name: "<query>", description: 'words to look for, each matching as a prefix ("" lists every hook)' },
  ],
  options: [
    { flags: "--limit <n>", description: "results per page, 1-100", default: defaultLimit },
    { flags: "--offset <n>", description: "results to skip, for the next page: 0-10000", default: "0" },
    registryOption,
    { flags: "--json", description: "print JSON instead of a table" },
  ],
  help: "Best match first (a hit in the name counts most), then most downloaded.",
  async run(context, [query = ""], options) {
    const limit = wholeNumber("--limit", options.limit, limits.limit);
    const offset = wholeNumber("--offset", options.offset, limits.offset);
    const { registryAccess } = await import("../../../client/access/registry-access.js");
    const client = await registryAccess(context, options);
    const answer = await client.search(query, limit, offset);
    if (options.json) {
      context.stdout.write(`${JSON.stringify({ registry: client.url, query, ...answer }, null, 2)}\n`);
      return exitCodes.ok;
    }
    const { results, total } = answer;
    if (results.length === 0) {
      const shown = shellWord(terminalLine(query));
      context.stdout.write(
        total === 0
          ? `no hooks match ${shown}\n`
          : `no results from #${offset + 1}: ${total} hook${total === 1 ? "" : "s"} match ${shown}\n`,
      );
      return exitCodes.ok;
    }
    context.stdout.write(resultTable(context, results));
    const last = offset + results.length;
    let footer = `${offset + 1}-${last} of ${total}`;
    if (last < total) footer += `; next page: ${nextPage(query, last, limit, options.registry)}`;
    context.stdout.write(`\n${footer}\n`);
    return exitCodes.ok;
  },
} satisfies Command;

function resultTable(context: CliContext, results: SearchAnswer["results"]): string {
  const rows = [
    ["NAME", "VERSION", "DOWNLOADS", "DESCRIPTION"],
    ...results.map((r) => [r.name, r.version, String(r.downloads), r.description ?? ""]),
  ];
  const used = [0, 1, 2].reduce((sum, i) => sum + Math.max(...rows.map((row) => row[i]?.length ?? 0)) + 2, 0);
  const columns = (context.stdout as { columns?: number }).columns;
  const width = context.stdout.isTTY ? Math.max(20, (columns ?? 80) - used - 1) : pipedDescriptionWidth;
  for (const row of rows.slice(1)) row[3] = terminalLine(row[3] ?? "", width);
  return safeTable(rows);
}

/** The same search one page on, as a command to copy. */
function nextPage(query: string, offset: number, limit: number, registry: unknown): string {
  const words = ["hookyard", "search", shellWord(terminalLine(query)), "--offset", String(offset)];
  if (String(limit) !== defaultLimit) words.push("--limit", String(limit));
  if (typeof registry === "string") words.push("--registry", shellWord(registry));
  return words.join(" ");
}

/** A word as a POSIX shell reads it back. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

function wholeNumber(flag: string, value: unknown, range: { min: number; max: number }): number {
  const text = String(value);
  const n = Number(text);
  if (!/^[0-9]+$/.test(text) || n < range.min || n > range.max) {
    throw new CliError(
      "CLI_ERR_USAGE",
      `${flag} must be a whole number from ${range.min} to ${range.max}, not ${text}`,
      exitCodes.usage,
    );
  }
  return n;
}
