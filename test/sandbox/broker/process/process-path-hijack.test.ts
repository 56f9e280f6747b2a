import { existsSync } from "node:fs";
import { chmod, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, workspace } from "../../../helpers/temp.js";
import { agentSession } from "../../agent-check.js";
import { brokerFor } from "../helpers.js";

/** A fake git that leaves a mark when it runs. */
async function plantFakeGit(dir: string, mark: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "git"), `#!/bin/sh\ntouch ${mark}\necho fake git\n`);
  await chmod(join(dir, "git"), 0o755);
}

describe("PATH tricks around a granted command", () => {
  it("a fake git in the workspace, first on PATH, does not run; nor through a link or a relative entry", async () => {
    const root = await workspace();
    const mark = join(await tempDir(), "hijacked");
    await plantFakeGit(join(root, "bin"), mark);
    const linked = join(await tempDir(), "bin-link");
    await symlink(join(root, "bin"), linked);

    for (const PATH of [`${join(root, "bin")}:/usr/bin`, `${linked}:/usr/bin`, "bin:.::/usr/bin"]) {
      const { call } = brokerFor(root, ["process:git"], { env: { PATH } });
      const result = (await call("process.exec", "git", ["--version"])) as { stdout: string };
      expect(result.stdout, PATH).toMatch(/^git version /);
      // The child's own PATH is the system's, whatever the host's was.
      const cwdResult = (await call("process.exec", "git", ["--version"], { cwd: "bin" })) as {
        stdout: string;
      };
      expect(cwdResult.stdout).toMatch(/^git version /);
    }
    expect(existsSync(mark)).toBe(false);
    expect(await agentRunsGit(root)).toMatch(/^git version /);
    expect(existsSync(mark)).toBe(false);
  });

  it("a fake git planted on PATH after the broker was made does not change what runs", async () => {
    const root = await workspace();
    const early = await tempDir();
    const mark = join(await tempDir(), "hijacked");
    const { call } = brokerFor(root, ["process:git"], { env: { PATH: `${early}:/usr/bin` } });
    await plantFakeGit(early, mark);
    expect(await call("process.exec", "git", ["--version"])).toMatchObject({
      stdout: expect.stringMatching(/^git version /),
    });
    expect(existsSync(mark)).toBe(false);
    expect(await agentRunsGit(root)).toMatch(/^git version /);
    expect(existsSync(mark)).toBe(false);
  });
});

/** The agent check: a hook granted process:git runs it in a real session; what it printed. */
function agentRunsGit(root: string): Promise<string> {
  return agentSession({
    root,
    grants: ["process:git"],
    use: 'return (await api.process.exec("git", ["--version"])).stdout;',
  });
}
