import type { Advisory } from "../../../client/registry-client.js";
import type { Command } from "../../command.js";
import { CliError, exitCodes } from "../../errors.js";
import { registryOption } from "../../options/registry.js";
import type { PackageInfo } from "../../package-info.js";
import { safeTable, terminalLine } from "../../ui/terminal-text.js";

/** Versions listed in the text output; --json lists every one. */
const listedVersions = 20;

export default {
  name: "info",
  summary: "Show what a hook package does and asks for: events, effects, capabilities, versions, advisories",
  args: [{ name: "<package>", description: "name, name@version or name@range (^1.2.0, ~1.2, 1.x)" }],
  options: [registryOption, { flags: "--json", description: "print JSON instead of text" }],
  help: [
    "With no version: the latest (dist-tags.latest). An exact version is shown even if yanked.",
    "A range: the highest version that satisfies it and is neither yanked nor a prerelease.",
  ].join("\n"),
  async run(context, [text = ""], options) {
    const { parsePackageSpec, resolveVersion } = await import("../../../client/install/package-spec.js");
    const { defaultVersion, packageInfo } = await import("../../package-info.js");
    const { registryAccess } = await import("../../../client/access/registry-access.js");
    const spec = parsePackageSpec(text);
    const client = await registryAccess(context, options);
    const [document, advisories] = await Promise.all([
      client.packageDocument(spec.name),
      client.advisories([spec.name]),
    ]);
    const shown = spec.range === undefined ? defaultVersion(document) : resolveVersion(document, spec.range);
    if (!shown) {
      throw new CliError("CLI_ERR_NO_MATCHING_VERSION", `${document.name} has no versions in ${client.url}`);
    }
    const info = packageInfo(client, document, shown, advisories[spec.name] ?? []);
    context.stdout.write(options.json ? `${JSON.stringify(info, null, 2)}\n` : await infoText(info));
    return exitCodes.ok;
  },
} satisfies Command;

async function infoText(info: PackageInfo): Promise<string> {
  const { capabilityLines } = await import("../../ui/capability-lines.js");
  // Names and versions were checked by the registry at publish, but this reads any registry.
  const out: string[] = [terminalLine(`${info.name}@${info.version}`)];
  if (info.description) out.push(terminalLine(info.description));
  out.push("");
  if (info.yanked) out.push(`YANKED: ${terminalLine(info.yankedReason ?? "no reason given")}`);
  if (info.deprecated !== null) out.push(`DEPRECATED: ${terminalLine(info.deprecated)}`);
  if (info.yanked || info.deprecated !== null) out.push("");

  const matcher = Object.entries(info.hook.matcher).map(([field, pattern]) => `${field} matches ${pattern}`);
  out.push(
    safeTable([
      ["published", `${info.publishedAt}${info.publishedBy ? ` by ${info.publishedBy}` : ""}`],
      ["integrity", info.integrity],
      ["signed by", `registry key ${info.keyId}`],
      ["registry", info.registry],
      ["events", info.hook.events.map((e) => `${e.point} (${e.text})`).join(", ") || "none"],
      ["priority", `${info.hook.priority}${info.hook.defaultPriority ? " (the default)" : ""}`],
      ["matcher", matcher.join(", ") || "none: every call at its events"],
    ]),
  );

  out.push("Effects it may have");
  if (info.effects.length === 0) out.push("  none: it only observes");
  else
    out.push(
      safeTable(
        info.effects.map(({ effect, text }) => [effect, text]),
        "  ",
      ).trimEnd(),
    );
  out.push("", "Capabilities it requests (the most you can grant it)");
  out.push(capabilityLines(info.capabilities.lines.map((l) => l.grant)).trimEnd());

  const { affecting, other } = info.advisories;
  const version = terminalLine(info.version);
  if (affecting.length > 0) out.push("", `Advisories for ${version}`, advisoryTable(affecting));
  if (other.length > 0) out.push("", `Other advisories (not ${version})`, advisoryTable(other));

  out.push("", "Versions");
  const rows = info.versions
    .slice(0, listedVersions)
    .map((v) => [
      v.version,
      v.publishedAt.slice(0, 10),
      [
        v.version === info.latest ? "latest" : "",
        v.yanked ? `yanked: ${v.yankedReason ?? "no reason given"}` : "",
        v.deprecated !== null ? `deprecated: ${v.deprecated}` : "",
      ]
        .filter(Boolean)
        .join("; "),
    ]);
  out.push(safeTable(rows, "  ").trimEnd());
  const more = info.versions.length - listedVersions;
  if (more > 0) out.push(`  … and ${more} older (--json lists every version)`);
  out.push("", `Install: ${terminalLine(info.install)}`);
  return `${out.join("\n")}\n`;
}

function advisoryTable(advisories: readonly Advisory[]): string {
  const rows = advisories.map((a) => [a.severity, `versions ${a.range}`, `${a.text} (advisory ${a.id})`]);
  return safeTable(rows, "  ").trimEnd();
}
