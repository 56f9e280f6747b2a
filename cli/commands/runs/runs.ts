import type { CommandGroup } from "../../command.js";
import runsList from "./runs-list.js";
import runsShow from "./runs-show.js";

/** `hookyard runs list|show`: the runs recorded in the workspace's `.hookyard/runs/`, read and never changed. */
export default {
  name: "runs",
  summary: "List the runs recorded in this workspace, or show one",
  subcommands: [runsList, runsShow],
} satisfies CommandGroup;
