import type { Command } from "../../command.js";

export default {
  name: "list",
  summary: "List the recorded runs, newest first",
  options: [{ flags: "--json", description: "print the list as JSON" }],
  help: [
    "One line per run in .hookyard/runs/: its id, when it started, how it ended (finished with its",
    "reason, unfinished when it crashed or was killed, damaged when its record cannot be read), its",
    "steps and its prompt. `hookyard runs show <id>` shows one; `hookyard run --replay <id>` prints it.",
  ].join("\n"),
  async run(context, _args, options) {
    const { listRuns } = await import("../../../runner/runs/read-record.js");
    const { workspaceRuns } = await import("../../runs/run-records.js");
    const { printAnswer } = await import("../../ui/print-answer.js");
    const { safeTable } = await import("../../ui/terminal-text.js");
    const runsDir = await workspaceRuns(context.cwd);
    const runs = (await listRuns(runsDir)).map(({ id, record, error }) =>
      record
        ? {
            id,
            startedAt: record.header.startedAt,
            status: record.finished ? "finished" : "unfinished",
            ...(record.finished ? { reason: record.finished.reason } : {}),
            steps: record.steps.length + 1,
            prompt: record.header.prompt,
          }
        : { id, status: "damaged", error: { code: error?.code, message: error?.message } },
    );
    const { terminalLine } = await import("../../ui/terminal-text.js");
    const rows = runs.map((run) => [
      run.id,
      "startedAt" in run ? (run.startedAt ?? "") : "",
      "reason" in run ? `finished: ${run.reason}` : run.status,
      "steps" in run ? String(run.steps) : "",
      "prompt" in run ? terminalLine(run.prompt ?? "", 60) : (run.error?.code ?? ""),
    ]);
    const lines =
      runs.length === 0
        ? [`no runs recorded in ${runsDir}`]
        : [safeTable([["id", "started", "status", "steps", "prompt"], ...rows], "  ").trimEnd()];
    return printAnswer(context, options, { runsDir, runs }, lines);
  },
} satisfies Command;
