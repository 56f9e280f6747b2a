import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { RegistryError } from "../errors.js";
import type { BlobStore } from "./blob-store.js";
import { FsBlobStore } from "./fs-blob-store.js";

/**
 * Where the tarballs live. Only `file:<dir>` here: a stand-in with the exported names of branch
 * registry-s3's file, which adds `s3://…`; the lead keeps that one when both land.
 */
export type BlobsLocation = { kind: "file"; dir: string };

const remedy = "(pass file:<dir>)";

/** A blobs URL as messages show it. */
export function describeBlobs(text: string): string {
  return text.startsWith("file:") ? text : text.replace(/^([^:/]*:\/\/)(.*)@/, "$1***@");
}

/** Reads a blobs URL; REG_ERR_BLOBS_URL says what is wrong with a bad one. */
export function parseBlobsUrl(text: string): BlobsLocation {
  const refuse = (problem: string) =>
    new RegistryError(
      "REG_ERR_BLOBS_URL",
      `the blobs URL ${JSON.stringify(describeBlobs(text))} ${problem} ${remedy}`,
    );
  if (text.startsWith("file:")) {
    const dir = text.slice("file:".length).replace(/^\/\/(?=\/)/, "");
    if (dir === "") throw refuse("names no directory");
    return { kind: "file", dir: resolve(dir) };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1];
  throw refuse(scheme ? `has a scheme this hookyard does not know (${scheme}:)` : "has no scheme");
}

/** `file:<dir>`'s blobs as the data dir's `blobs/` holds them (`<dir>/sha512/…`), written through `<dir>/tmp`. */
export async function openBlobStoreFromUrl(
  url: string | BlobsLocation,
  options: { tmpDir?: string } = {},
): Promise<BlobStore> {
  const location = typeof url === "string" ? parseBlobsUrl(url) : url;
  const tmpDir = options.tmpDir ?? join(location.dir, "tmp");
  try {
    await mkdir(tmpDir, { recursive: true });
  } catch (error) {
    throw new RegistryError(
      "REG_ERR_BLOBS_UNREACHABLE",
      `cannot use ${location.dir} for the registry's tarballs: ${(error as Error).message} (pass a directory you may write to)`,
      { cause: error },
    );
  }
  return new FsBlobStore(location.dir, tmpDir);
}
