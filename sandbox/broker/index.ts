export { type AuditEntry, type AuditSink, jsonlAuditSink, memoryAuditSink } from "./audit.js";
export { type Broker, type BrokerOptions, createBroker } from "./broker.js";
export { BrokerError, type BrokerErrorCode, brokerErrorCodes, CapabilityDenied } from "./errors.js";
export type { FileStat } from "./fs.js";
export { type BrokerLimits, defaultBrokerLimits } from "./limits.js";
export { type BrokerMethod, brokerMethods } from "./methods.js";
export type { FetchResult } from "./net.js";
export type { ExecResult } from "./process.js";
