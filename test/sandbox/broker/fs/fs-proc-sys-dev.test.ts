import { symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir, writeFiles } from "../../../helpers/temp.js";
import { agentSession } from "../../agent-check.js";
import { brokerFor, canaryFile, expectBrokerError, expectDenied } from "../helpers.js";

const secretName = "HOOKYARD_BROKER_PROC_CANARY";
const secret = `proc-canary-${process.pid}`;
beforeEach(() => {
  process.env[secretName] = secret;
});
afterEach(() => {
  delete process.env[secretName];
});

describe("the kernel's views of the host (/proc, /sys, /dev)", () => {
  it("are out of reach of a grant of / : /proc/self/environ, /proc/self/root, devices", async () => {
    const root = await tempDir();
    const outside = await tempDir();
    const canary = await canaryFile(outside);
    const { call } = brokerFor(root, ["fs.read:/", "fs.write:/tmp"]);
    // The grant of / is real: an ordinary file outside the workspace is readable with it.
    expect(await call("fs.readFile", canary.path)).toBe(canary.content);

    await expectDenied(call("fs.readFile", "/proc/self/environ"), "fs.read:/proc/self/environ");
    await expectDenied(
      call("fs.readFile", `/proc/${process.pid}/environ`),
      `fs.read:/proc/${process.pid}/environ`,
    );
    await expectDenied(
      call("fs.readFile", `/proc/self/root${canary.path}`),
      `fs.read:/proc/self/root${canary.path}`,
    );
    await expectDenied(call("fs.readdir", "/proc/self/fd"), "fs.read:/proc/self/fd");
    await expectDenied(call("fs.readFile", "/sys/kernel/hostname"), "fs.read:/sys/kernel/hostname");
    await expectDenied(call("fs.readFile", "/dev/zero"), "fs.read:/dev/zero");
    await expectDenied(call("fs.stat", "/dev/null"), "fs.read:/dev/null");
    const used = await agentSession({
      root,
      grants: ["fs.read:/", "fs.write:/tmp"],
      use: `return api.fs.readFile(${JSON.stringify(canary.path)});`,
      secrets: [secret],
    });
    expect(used).toBe(canary.content);
  });

  it("cannot be reached through a symlink in the workspace, whatever the grants", async () => {
    const root = await tempDir();
    await writeFiles(root, { "docs/readme.md": "hi" });
    await symlink("/proc/self/environ", join(root, "docs/env"));
    await symlink("/proc/self", join(root, "docs/self"));
    const { call } = brokerFor(root, ["fs.read:docs", "fs.read:/"]);

    for (const path of ["docs/env", "docs/self/environ"]) {
      const error = await call("fs.readFile", path).catch((e: Error) => e);
      expect(error).toMatchObject({ name: "CapabilityDenied" });
      expect(String(error)).not.toContain(secret);
    }
    await expectBrokerError(call("fs.readFile", join(root, "docs/env")), "BROKER_ERR_REFUSED");
    const used = await agentSession({
      root,
      grants: ["fs.read:docs", "fs.read:/"],
      use: 'return api.fs.readFile("docs/readme.md");',
      secrets: [secret],
    });
    expect(used).toBe("hi");
  });

  it("are reachable through a grant that names a path in them, and only a regular file is read", async () => {
    const root = await tempDir();
    const { call } = brokerFor(root, ["fs.read:/proc/self/status", "fs.read:/dev"]);
    expect(await call("fs.readFile", "/proc/self/status")).toMatch(/^Name:/);
    await expectDenied(call("fs.readFile", "/proc/self/environ"), "fs.read:/proc/self/environ");
    // A device is not a file: /dev/zero would never end, /dev/tty would block.
    await expectBrokerError(call("fs.readFile", "/dev/zero"), "BROKER_ERR_WRONG_TYPE");
    const used = await agentSession({
      root,
      grants: ["fs.read:/proc/self/status", "fs.read:/dev"],
      use: 'return api.fs.readFile("/proc/self/status");',
      secrets: [secret],
    });
    expect(used).toMatch(/^Name:/);
  });
});
