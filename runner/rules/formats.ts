import { type Point, points } from "../../core/events.js";

export const ruleFormats = ["hookyard", "hookify"] as const;
export type RuleFormat = (typeof ruleFormats)[number];

/** Where an event name sends a rule: its points, and at tool points the tools it is about. */
export interface EventTarget {
  points: readonly Point[];
  /** Tool names (ours and the coding agent's); absent means every tool. */
  tools?: readonly string[];
}

/**
 * The events of the coding agent's rules plugin. `bash` and `file` are about their tools only: a
 * tool neither names (read_file, a web fetch) is matched by no such rule.
 */
const agentEvents = {
  bash: { points: ["tool_before"], tools: ["bash", "Bash"] },
  file: { points: ["tool_before"], tools: ["write_file", "Write", "Edit", "MultiEdit", "NotebookEdit"] },
  prompt: { points: ["turn_before"] },
  stop: { points: ["turn_after"] },
  all: { points: ["tool_before", "turn_before", "turn_after"] },
} satisfies Record<string, EventTarget>;

export interface FormatSpec {
  /** Which names in the folder are rule files; the first group is a rule's default name. */
  files: RegExp;
  /** The same, as people write it. */
  glob: string;
  /** Flags of every pattern: the plugin's patterns ignore case. */
  flags: string;
  events: Readonly<Record<string, EventTarget>>;
  /** The points a folder of such rules runs at. */
  points: readonly Point[];
}

export const formats: Record<RuleFormat, FormatSpec> = {
  /** `.hookyard/rules/*.md`: our points by name, and the plugin's event names. */
  hookyard: {
    files: /^([^.].*)\.md$/,
    glob: "*.md",
    flags: "",
    events: {
      ...Object.fromEntries(points.map((point): [string, EventTarget] => [point, { points: [point] }])),
      ...agentEvents,
    },
    points,
  },
  /** The plugin's own `.claude/hookify.<name>.local.md` files, read as that plugin reads them. */
  hookify: {
    files: /^hookify\.(.+)\.local\.md$/,
    glob: "hookify.*.local.md",
    flags: "i",
    events: agentEvents,
    points: agentEvents.all.points,
  },
};
