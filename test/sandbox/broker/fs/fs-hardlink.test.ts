import { link, mkdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, writeFiles } from "../../../helpers/temp.js";
import { agentSession } from "../../agent-check.js";
import { brokerFor, canaryFile, expectBrokerError } from "../helpers.js";

describe("a hard link inside a granted directory to a file outside", () => {
  it("is never written: the outside file keeps its content", async () => {
    const base = await tempDir();
    const root = join(base, "ws");
    await writeFiles(root, { "docs/own.txt": "own" });
    await mkdir(join(base, "outside"));
    const canary = await canaryFile(join(base, "outside"));
    await link(canary.path, join(root, "docs/linked.txt"));
    const { call, audit } = brokerFor(root, ["fs.write:docs"]);

    const error = await expectBrokerError(
      call("fs.writeFile", "docs/linked.txt", "pwned"),
      "BROKER_ERR_REFUSED",
      [base],
    );
    expect(error.message).toContain("hard links");
    expect(await canary.unchanged()).toBe(true);
    // Not even emptied: the link count is checked before anything is truncated.
    expect((await stat(canary.path)).size).toBe(canary.content.length);
    expect(audit.entries.at(-1)).toMatchObject({ target: "docs/linked.txt", allowed: false });

    // A file with one link is written as usual.
    expect(await call("fs.writeFile", "docs/own.txt", "changed")).toBeNull();
    expect(await readFile(join(root, "docs/own.txt"), "utf8")).toBe("changed");
    const used = await agentSession({
      root,
      grants: ["fs.write:docs"],
      use: 'await api.fs.writeFile("docs/own.txt", "by the agent\'s hook"); return "wrote";',
      secrets: [canary.content],
    });
    expect(used).toBe("wrote");
    expect(await readFile(join(root, "docs/own.txt"), "utf8")).toBe("by the agent's hook");
    expect(await canary.unchanged()).toBe(true);
  });
});
