import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { parseBlobsUrl } from "../../../registry/blobs/blob-url.js";
import { s3Env } from "../../helpers/s3.js";
import { tempDir } from "../../helpers/temp.js";
import { processWaitMs } from "../../helpers/timeouts.js";
import { backends, call, cluster, filesUnder, hookPackage, publishPath, s3 } from "../helpers.js";
import { builtModule, startScriptServer, startServerProcess } from "../server-process.js";

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(20);
  }
}

/** Where a backend's registry keeps its rows and blobs, and how to count what is in its bucket. */
async function deployment(backend: string, data: string) {
  if (backend === "sqlite") {
    return { options: {}, args: [], env: {}, blobs: () => filesUnder(join(data, "blobs")) };
  }
  const database = await (await cluster()).createDatabase();
  const blobs = await (await s3()).createBucket();
  const { bucket } = parseBlobsUrl(blobs) as { bucket: string };
  return {
    options: { database, blobs },
    args: ["--database", database, "--blobs", blobs],
    env: s3Env,
    blobs: async () => {
      const listed = await (await s3()).client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: "sha512/" }),
      );
      return (listed.Contents ?? []).map((object) => object.Key ?? "");
    },
  };
}

describe.each(backends)("a registry killed in the middle of a publish (%s)", (backend) => {
  it("shows no version after a restart, and the start-up sweep removes the orphan blob", async () => {
    const root = await tempDir();
    const data = join(root, "data");
    const where = await deployment(backend, data);
    // The first registry is built by this test's script with a beforeCommit hook that never
    // returns: every publish stops after its blob is stored and before its row is committed.
    const paused = `
      import { buildRegistry } from ${JSON.stringify(builtModule("registry/app.js"))};
      const hooks = {
        beforeCommit(pending) {
          process.stderr.write("paused before commit: " + JSON.stringify(pending) + "\\n");
          return new Promise(() => {});
        },
      };
      const app = await buildRegistry({ dataDir: ${JSON.stringify(data)}, ...${JSON.stringify(where.options)}, hooks });
      const address = await app.listen({ port: 0, host: "127.0.0.1" });
      process.stderr.write("admin token (shown this once): " + app.registry.initialAdminToken + "\\n");
      process.stderr.write("hookyard registry listening on " + address + "\\n");
    `;
    const first = await startScriptServer(paused, { cwd: root, env: where.env });
    const token = first.adminToken ?? "";
    expect(token).toMatch(/^hyk_/);

    const tarball = await hookPackage({ name: "guard" });
    const publishing = call(first.url, publishPath("guard", "1.0.0"), {
      method: "PUT",
      token,
      body: tarball,
    }).then(
      () => "answered",
      () => "connection lost",
    );
    await waitFor(() => first.stderr().includes("paused before commit:"), processWaitMs);
    // Paused between the two steps: the blob is stored, the row is not committed.
    expect(await where.blobs()).toHaveLength(1);
    first.child.kill("SIGKILL");
    expect(await first.exited).toBe("SIGKILL");
    expect(await publishing).toBe("connection lost");

    // The restart is the real `hookyard registry serve` on the same data dir.
    const serve = ["registry", "serve", "--data", data, ...where.args, "--port", "0", "--log-level", "warn"];
    const second = await startServerProcess(serve, { cwd: root, env: where.env });
    expect(second.adminToken).toBeUndefined();
    expect((await call(second.url, "/v1/packages/guard")).status).toBe(404);
    expect(await where.blobs()).toEqual([]);
    expect(await filesUnder(join(data, "tmp"))).toEqual([]);
    // The version was never taken: publishing it now succeeds.
    const again = await call(second.url, publishPath("guard", "1.0.0"), {
      method: "PUT",
      token,
      body: tarball,
    });
    expect(again.status).toBe(201);
    expect(await where.blobs()).toHaveLength(1);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });
});
