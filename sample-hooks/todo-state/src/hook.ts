import { defineHook } from "hookyard";

/** One open item as kept in `api.state` under "todos". */
interface Todo {
  text: string;
  /** The session whose answer added it: only items from other sessions are "from earlier sessions". */
  sessionId: string;
  added: string;
}

/** `TODO: text` / `DONE: text` at the start of a line, optionally as a list item (`- TODO: …`). */
const todoLine = /^\s*(?:[-*+]\s+)?TODO:\s*(\S.*?)\s*$/i;
const doneLine = /^\s*(?:[-*+]\s+)?DONE:\s*(\S.*?)\s*$/i;
/** A line that opens or closes a fenced code block: a TODO in code is the code's, not the agent's. */
const fence = /^\s*(```|~~~)/;
/** An item longer than this is cut: the list is injected into a prompt, so one line must not swamp it. */
const maxTextChars = 300;
const defaultMaxItems = 50;

/** What an answer asks for, in the order it says it. */
type Update = { kind: "todo" | "done"; text: string };

function updatesIn(answer: string): Update[] {
  const updates: Update[] = [];
  let inFence = false;
  for (const line of answer.split(/\r?\n/)) {
    if (fence.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const todo = todoLine.exec(line);
    if (todo?.[1]) updates.push({ kind: "todo", text: todo[1].slice(0, maxTextChars) });
    const done = doneLine.exec(line);
    if (done?.[1]) updates.push({ kind: "done", text: done[1] });
  }
  return updates;
}

/** Same item whatever its case, spacing or final full stop: "DONE: Rotate the key." closes "rotate the key". */
function sameItem(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/[.!]+$/, "")
    .trim();
}

/** The stored list, keeping only well-formed items (the state file is the user's to edit). */
function readTodos(stored: unknown): Todo[] {
  if (!Array.isArray(stored)) return [];
  return stored.filter(
    (item): item is Todo =>
      typeof item === "object" &&
      item !== null &&
      typeof item.text === "string" &&
      item.text !== "" &&
      typeof item.sessionId === "string" &&
      typeof item.added === "string",
  );
}

function maxItems(config: Readonly<Record<string, unknown>>): number {
  const value = config.maxItems;
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : defaultMaxItems;
}

export default defineHook({
  name: "todo-state",
  on: {
    async turn_after(ctx, api) {
      const updates = updatesIn(ctx.answer);
      if (updates.length === 0) return;
      // By item, in list order: one pass over the updates whatever their number.
      const open = new Map(
        readTodos(await api.state.get("todos")).map((todo) => [sameItem(todo.text), todo]),
      );
      const added = new Date().toISOString();
      for (const update of updates) {
        const key = sameItem(update.text);
        if (update.kind === "done") open.delete(key);
        else if (!open.has(key)) open.set(key, { text: update.text, sessionId: ctx.sessionId, added });
      }
      let todos = [...open.values()];
      const limit = maxItems(api.config);
      if (todos.length > limit) {
        api.log(`kept the newest ${limit} todos, dropped ${todos.length - limit} (config maxItems)`);
        todos = todos.slice(-limit);
      }
      await api.state.set("todos", todos);
    },

    async turn_before(ctx, api) {
      if (ctx.history.length > 0) return;
      const earlier = readTodos(await api.state.get("todos")).filter((t) => t.sessionId !== ctx.sessionId);
      if (earlier.length === 0) return;
      // One line, so a transcript shows the whole list where the inject is reported.
      const list = earlier.map((todo, i) => `${i + 1}. ${todo.text}`).join("; ");
      return {
        inject: `Open todos from earlier sessions: ${list}. When you finish one, write a line "DONE: <its text>".`,
      };
    },
  },
});
