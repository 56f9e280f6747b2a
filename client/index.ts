// `hookyard/client`: the package client as a library. Nothing here prints or prompts; what a
// person should see arrives through the context's callbacks, and every failure is a ClientError.

export { type LogoutResult, logout } from "./access/logout.js";
export type { RegistryFlags } from "./access/registry-access.js";
export type { ClientContext, Notice } from "./context.js";
export { ClientError, type ClientErrorCode, clientErrorCodes } from "./errors.js";
export type { GrantsAfterChange } from "./install/change-grants.js";
export type { LockInstallSummary } from "./install/install-from-lock.js";
export type { InstallResult } from "./install/install-package.js";
export type { Uninstalled } from "./install/uninstall-packages.js";
export type { UpdateHow, UpdateOutcome } from "./install/update-package.js";
export { type PackedPackage, packPackage as pack } from "./pack/pack-package.js";
export { type Published, publish } from "./publish.js";
export {
  type Advisory,
  type NewAdvisory,
  type OwnersAnswer,
  type OwnersOf,
  type PackageDocument,
  RegistryClient,
  type RegistryToken,
  type RegistryVersion,
  registryErrorCode,
  type SearchAnswer,
} from "./registry-client.js";
export {
  grant,
  type InstallOptions,
  install,
  installFromLock,
  revoke,
  uninstall,
  update,
} from "./workspace-changes.js";
