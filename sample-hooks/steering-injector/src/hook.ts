import { defineHook } from "hookyard";

/** A `## ` section of the conventions file. */
interface Section {
  heading: string;
  body: string;
}

/** What was injected in one session, so a section is injected once per session. */
interface Injected {
  sessionId: string;
  headings: string[];
}

const defaultFile = "docs/conventions.md";
const defaultRecentMessages = 2;
const defaultMaxChars = 4000;
/** Sessions remembered: enough for sessions that overlap, while the state file stays small. */
const rememberedSessions = 20;
/** The end of a message that is read: what it talks about now, at a CPU cost that stays within the sandbox's limit. */
const scannedChars = 20_000;
/** Heading words that say nothing about a topic. */
const stopWords = new Set(
  "a an and are as at be by for from how in into is it of on or our the to we what when with you your".split(
    " ",
  ),
);
const fence = /^\s*(```|~~~)/;

function sectionsOf(markdown: string): Section[] {
  const sections: Section[] = [];
  let current: { heading: string; lines: string[] } | undefined;
  const close = () => {
    const body = current?.lines.join("\n").trim();
    if (current && body) sections.push({ heading: current.heading, body });
  };
  let inFence = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (fence.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^##\s+(.+?)[\s#]*$/.exec(line);
    if (heading?.[1]) {
      close();
      current = { heading: heading[1], lines: [] };
    } else current?.lines.push(line);
  }
  close();
  return sections;
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Simple forms of one word meet at one stem: test, tests, tested, testing → test; style, styling → styl. */
function stem(word: string): string {
  let w = word;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("ing") && w.length >= 6) w = undouble(w.slice(0, -3));
  else if (w.endsWith("ed") && w.length >= 5) w = undouble(w.slice(0, -2));
  else if (w.endsWith("s") && !w.endsWith("ss") && w.length >= 4) w = w.slice(0, -1);
  return w.endsWith("e") && w.length > 3 ? w.slice(0, -1) : w;
}

/** running → runn → run, committed → committ → commit. */
function undouble(w: string): string {
  return /([b-df-hj-np-tv-z])\1$/.test(w) ? w.slice(0, -1) : w;
}

/** Whether the stems of `phrase` occur in `said`, next to each other and in order. */
function mentions(said: string[], phrase: string[]): boolean {
  if (phrase.length === 0) return false;
  for (let i = 0; i + phrase.length <= said.length; i++) {
    if (phrase.every((stemmed, k) => said[i + k] === stemmed)) return true;
  }
  return false;
}

/** Each section's topics: every telling word of its heading, and the config's extra words for it. */
function topicsOf(section: Section, extra: Record<string, unknown>): string[][] {
  const own = words(section.heading)
    .filter((w) => !stopWords.has(w))
    .map((w) => [stem(w)]);
  const heading = section.heading.trim().toLowerCase();
  const added = Object.entries(extra)
    .filter(([, target]) => typeof target === "string" && target.trim().toLowerCase() === heading)
    .map(([phrase]) => words(phrase).map(stem));
  return [...own, ...added];
}

function positiveInt(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : fallback;
}

/** The remembered sessions, keeping only well-formed entries (the state file is the user's to edit). */
function readInjected(stored: unknown): Injected[] {
  if (!Array.isArray(stored)) return [];
  return stored.filter(
    (entry): entry is Injected =>
      isRecord(entry) &&
      typeof entry.sessionId === "string" &&
      Array.isArray(entry.headings) &&
      entry.headings.every((heading) => typeof heading === "string"),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Set once the file was found missing, so a missing file is said once per sandbox, not per model call. */
let toldMissing = false;

export default defineHook({
  name: "steering-injector",
  on: {
    async llm_before(ctx, api) {
      const file =
        typeof api.config.file === "string" && api.config.file !== "" ? api.config.file : defaultFile;
      const recent = ctx.messages
        .filter((m) => m.role === "user" || m.role === "assistant")
        .slice(-positiveInt(api.config.recentMessages, defaultRecentMessages));
      const said = words(recent.map((m) => m.content.slice(-scannedChars)).join("\n")).map(stem);
      if (said.length === 0) return;

      let markdown: string;
      try {
        // Only a missing file is expected. A file nobody granted fails the call loudly, as the
        // sandbox's CapabilityDenied, which names the grant it needs.
        markdown = await api.fs.readFile(file);
      } catch (error) {
        if ((error as { code?: unknown } | null)?.code !== "BROKER_ERR_NOT_FOUND") throw error;
        if (!toldMissing) api.log(`${file} does not exist: no conventions to inject`);
        toldMissing = true;
        return;
      }

      const extra = isRecord(api.config.topics) ? api.config.topics : {};
      const history = readInjected(await api.state.get("injected"));
      const mine = history.find((entry) => entry.sessionId === ctx.sessionId);
      const done = new Set(mine?.headings ?? []);
      const due = sectionsOf(markdown).filter(
        (section) =>
          !done.has(section.heading) && topicsOf(section, extra).some((phrase) => mentions(said, phrase)),
      );
      if (due.length === 0) return;

      const headings = [...done, ...due.map((section) => section.heading)];
      const others = history.filter((entry) => entry.sessionId !== ctx.sessionId);
      await api.state.set("injected", [
        ...others.slice(-(rememberedSessions - 1)),
        { sessionId: ctx.sessionId, headings },
      ]);

      const maxChars = positiveInt(api.config.maxChars, defaultMaxChars);
      const blocks = due.map((section) => {
        const body =
          section.body.length > maxChars
            ? `${section.body.slice(0, maxChars)}… (cut; the rest is in ${file})`
            : section.body;
        return `Project conventions (${file}), section "${section.heading}":\n${body}`;
      });
      return { inject: blocks.join("\n\n") };
    },
  },
});
