import type { DownloadProgress } from "../../client/registry-client.js";
import type { CliContext } from "../command.js";

const barWidth = 24;

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/**
 * A progress bar for a download on stderr, redrawn in place: only on a TTY (a log file gets no
 * carriage returns). `done()` clears the line.
 */
export function downloadProgress(
  context: CliContext,
  label: string,
): { update: (progress: DownloadProgress) => void; done: () => void } {
  if (!context.stderr.isTTY) return { update: () => {}, done: () => {} };
  let drawn = false;
  return {
    update({ received, total }) {
      const share = total ? Math.min(1, received / total) : 0;
      const filled = Math.round(share * barWidth);
      const bar = total ? `[${"#".repeat(filled)}${".".repeat(barWidth - filled)}] ` : "";
      context.stderr.write(`\r${label} ${bar}${kb(received)}${total ? ` / ${kb(total)}` : ""}\x1b[K`);
      drawn = true;
    },
    done() {
      if (drawn) context.stderr.write("\r\x1b[K");
    },
  };
}
