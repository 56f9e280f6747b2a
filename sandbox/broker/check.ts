import { formatGrant, type Grant } from "../capabilities.js";
import type { AuditSink } from "./audit.js";
import { BrokerError, type BrokerErrorCode, CapabilityDenied } from "./errors.js";

/**
 * The decisions of one call, each written to the audit log as it is made. A call usually makes
 * one; a fetch makes one per redirect; an open that finds its target swapped makes a second.
 */
export class Check {
  /** Whether any decision was recorded: a call that fails before its first gets one recorded for it. */
  recorded = false;

  constructor(
    private readonly audit: AuditSink,
    private readonly hook: string,
    readonly method: string,
  ) {}

  allow(target: string, grant: Grant): void {
    this.record(target, true, { grant: formatGrant(grant) });
  }

  /** Records the denial; returns the error to throw. */
  deny(target: string, needs: string, why?: string): CapabilityDenied {
    this.record(target, false, { needs });
    return new CapabilityDenied(needs, why);
  }

  /** For a call that no grant could allow. Records it; returns the error to throw. */
  refuse(target: string, code: BrokerErrorCode, message: string): BrokerError {
    this.record(target, false, {});
    return new BrokerError(code, message);
  }

  record(target: string, allowed: boolean, detail: { grant?: string; needs?: string }): void {
    this.recorded = true;
    try {
      this.audit.record({
        time: new Date().toISOString(),
        hook: this.hook,
        method: this.method,
        target: target.length > maxTarget ? `${target.slice(0, maxTarget)}…` : target,
        allowed,
        ...detail,
      });
    } catch {
      // A sink's failure is the sink's to report; the hook's call goes on.
    }
  }
}

const maxTarget = 1000;
