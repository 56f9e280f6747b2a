import { readFile } from "node:fs/promises";
import { PackageError } from "../../package/errors.js";
import { computeIntegrity } from "../../package/integrity.js";
import { readPackage } from "../../package/read-package.js";
import { TarballError } from "../../package/tarball/errors.js";
import { inspectTarball } from "../../package/tarball/inspect.js";
import { ClientError } from "../errors.js";

/** A package's tarball and the name and version its package.json gives. */
export interface PackageTarball {
  name: string;
  version: string;
  tarball: Buffer;
  integrity: string;
}

/**
 * A .tgz to publish as it is, checked with the registry's own inspection and manifest reading,
 * so a refusal is explained here, before the upload.
 */
export async function readTarballPackage(file: string): Promise<PackageTarball> {
  const tarball = await readFile(file);
  try {
    const inspected = await inspectTarball(tarball);
    const { name, version } = ownNameAndVersion(inspected.files.find((f) => f.path === "package.json")?.data);
    const { manifest } = readPackage(inspected, name, version);
    return { name: manifest.name, version: manifest.version, tarball, integrity: computeIntegrity(tarball) };
  } catch (error) {
    const code =
      error instanceof TarballError
        ? "CLI_ERR_TARBALL_INVALID"
        : error instanceof PackageError
          ? error.code === "PKG_ERR_UNSAFE_MATCHER"
            ? "CLI_ERR_UNSAFE_MATCHER"
            : "CLI_ERR_MANIFEST_INVALID"
          : undefined;
    if (!code) throw error;
    const { message, code: reason } = error as TarballError | PackageError;
    throw new ClientError(code, `${file}: ${message} (${reason})`, { cause: error });
  }
}

/** The name and version package.json claims, so readPackage checks it against itself; "" when unreadable (readPackage then says why). */
function ownNameAndVersion(data: Buffer | undefined): { name: string; version: string } {
  try {
    const json = JSON.parse(data?.toString("utf8").replace(/^\uFEFF/, "") ?? "") as Record<string, unknown>;
    return {
      name: typeof json.name === "string" ? json.name : "",
      version: typeof json.version === "string" ? json.version : "",
    };
  } catch {
    return { name: "", version: "" };
  }
}
