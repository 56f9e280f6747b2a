import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import * as z from "zod";
import { describeIssues } from "../../core/errors.js";
import type { ToolSpec } from "../../core/events.js";
import { killProcessGroup } from "../process-group.js";

/** A failure the model should read as the tool's result (tool_error fires with this message). */
export class ToolFailure extends Error {
  override readonly name = "ToolFailure";
}

export interface Tool {
  spec: ToolSpec;
  run(args: Record<string, unknown>, context: { cwd: string }): Promise<string>;
}

const readCap = 256 * 1024;
const bashOutputCap = 64 * 1024;
const bashDefaultTimeoutS = 120;

function tool<S extends z.ZodObject>(
  name: string,
  description: string,
  schema: S,
  run: (args: z.infer<S>, context: { cwd: string }) => Promise<string>,
): Tool {
  return {
    spec: { name, description, parameters: z.toJSONSchema(schema) as Record<string, unknown> },
    run: (args, context) => {
      const parsed = schema.safeParse(args);
      if (!parsed.success)
        throw new ToolFailure(`invalid arguments for ${name}: ${describeIssues(parsed.error)}`);
      return run(parsed.data, context);
    },
  };
}

const fsFailure = (error: unknown): never => {
  // Node's fs messages already start with the code: "ENOENT: no such file or directory, open '…'".
  throw new ToolFailure(error instanceof Error ? error.message : String(error));
};

export const readFileTool = tool(
  "read_file",
  "Read a UTF-8 text file. Paths are relative to the workspace.",
  z.object({ path: z.string().min(1) }),
  async ({ path }, { cwd }) => {
    const text = await readFile(resolve(cwd, path), "utf8").catch(fsFailure);
    return text.length > readCap ? `${text.slice(0, readCap)}\n[truncated at ${readCap} characters]` : text;
  },
);

export const writeFileTool = tool(
  "write_file",
  "Write a UTF-8 text file, creating parent directories. Paths are relative to the workspace.",
  z.object({ path: z.string().min(1), content: z.string() }),
  async ({ path, content }, { cwd }) => {
    const target = resolve(cwd, path);
    await mkdir(dirname(target), { recursive: true }).catch(fsFailure);
    await writeFile(target, content).catch(fsFailure);
    return `wrote ${Buffer.byteLength(content)} bytes to ${path}`;
  },
);

export const listDirTool = tool(
  "list_dir",
  "List a directory; directories end with /.",
  z.object({ path: z.string().default(".") }),
  async ({ path }, { cwd }) => {
    const entries = await readdir(resolve(cwd, path), { withFileTypes: true }).catch(fsFailure);
    return entries
      .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
      .sort()
      .join("\n");
  },
);

export const bashTool = tool(
  "bash",
  "Run a shell command in the workspace with bash -c. Output is stdout and stderr combined.",
  z.object({ command: z.string().min(1), timeout: z.number().positive().max(3600).optional() }),
  ({ command, timeout }, { cwd }) => runBash(command, cwd, (timeout ?? bashDefaultTimeoutS) * 1000),
);

export const defaultTools: Tool[] = [readFileTool, writeFileTool, listDirTool, bashTool];

function runBash(command: string, cwd: string, timeoutMs: number): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn("bash", ["-c", command], { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const collect = (chunk: Buffer) => {
      if (output.length < bashOutputCap) output += chunk.toString("utf8");
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killProcessGroup(child);
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      fail(new ToolFailure(`could not start bash: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const text =
        output.length > bashOutputCap ? `${output.slice(0, bashOutputCap)}\n[output truncated]` : output;
      if (timedOut) fail(new ToolFailure(`timed out after ${timeoutMs / 1000} s and was killed\n${text}`));
      else if (code === 0) done(text);
      else fail(new ToolFailure(`exit code ${code ?? signal}\n${text}`));
    });
  });
}
