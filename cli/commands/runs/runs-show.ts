import type { Command } from "../../command.js";

export default {
  name: "show",
  summary: "Show one recorded run: how it ended, or where it stopped, and every step",
  args: [{ name: "<id>", description: "the run's id, as `hookyard runs list` shows it" }],
  options: [{ flags: "--json", description: "print the whole record as JSON" }],
  help: [
    "Shows the run's prompt, model and start, whether it finished (and why) or where it stopped,",
    "then one line per step: events, each point's chain and verdict, model calls, tools, and the",
    "hooks' state writes with their revisions. A record cut off by a crash is read up to its last",
    "complete step. Nothing runs and nothing is written.",
  ].join("\n"),
  async run(context, args, options) {
    const { readWorkspaceRun } = await import("../../runs/run-records.js");
    const { describe, stoppedAt } = await import("../../../runner/runs/stopped-at.js");
    const { printAnswer } = await import("../../ui/print-answer.js");
    const { terminalLine } = await import("../../ui/terminal-text.js");
    const record = await readWorkspaceRun(context.cwd, args[0] as string);
    const { header, finished } = record;
    const ending = finished ? `finished: ${finished.reason}` : `unfinished: ${stoppedAt(record)}`;
    const lines = [
      `run ${header.id}`,
      `  started  ${header.startedAt} in ${header.cwd}`,
      `  model    ${header.model}${typeof header.meta.modelSpec === "string" ? ` (${header.meta.modelSpec})` : ""}`,
      `  prompt   ${terminalLine(header.prompt, 200)}`,
      ...(typeof header.meta.resumedFrom === "string" ? [`  resumes  ${header.meta.resumedFrom}`] : []),
      `  status   ${ending}`,
      ...(record.torn ? ["  (the record's last line was cut off by a crash; it is left out)"] : []),
      "",
      `  1 run started`,
      ...record.steps.map((step) => `  ${step.seq} ${terminalLine(describe(step), 200)}`),
    ];
    const data = {
      ...record,
      status: finished ? "finished" : "unfinished",
      ...(finished ? {} : { stoppedAt: stoppedAt(record) }),
    };
    return printAnswer(context, options, data, lines);
  },
} satisfies Command;
