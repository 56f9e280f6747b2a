import { createWriteStream, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { BrokerMethod } from "./methods.js";

/** One capability check: what a hook asked for, and the grant that allowed it or the one it needs. */
export interface AuditEntry {
  time: string;
  hook: string;
  method: BrokerMethod | string;
  target: string;
  allowed: boolean;
  grant?: string;
  needs?: string;
}

export interface AuditSink {
  record(entry: AuditEntry): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Appends one JSON line per entry. Writes are buffered by the stream; a log that cannot be
 * written is reported once on stderr and never fails a hook's call.
 */
export function jsonlAuditSink(file: string): AuditSink {
  let warned = false;
  const warn = (error: unknown) => {
    if (warned) return;
    warned = true;
    const why = (error as NodeJS.ErrnoException | undefined)?.code ?? String(error);
    process.stderr.write(`hookyard: the capability audit log ${file} cannot be written (${why})\n`);
  };
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch {
    // The stream's open fails next, and says so once.
  }
  const stream = createWriteStream(file, { flags: "a", mode: 0o600 });
  stream.on("error", warn);
  let closed = false;
  // A write callback runs after every earlier write reached the file (or failed).
  const settled = () => new Promise<void>((resolve) => stream.write("", () => resolve()));
  return {
    record(entry) {
      if (closed || stream.destroyed) return;
      stream.write(`${JSON.stringify(entry)}\n`);
    },
    async flush() {
      if (closed || stream.destroyed) return;
      await settled();
    },
    async close() {
      if (closed) return;
      closed = true;
      if (stream.destroyed) return;
      await new Promise<void>((resolve) => stream.end(() => resolve()));
    },
  };
}

/** Keeps entries in memory, for tests and for callers that forward them elsewhere. */
export function memoryAuditSink(): AuditSink & { entries: AuditEntry[] } {
  const entries: AuditEntry[] = [];
  return {
    entries,
    record: (entry) => {
      entries.push(entry);
    },
    flush: async () => {},
    close: async () => {},
  };
}
