import type { AuditSink, Broker } from "../broker/index.js";
import { stopsBatch } from "../wire/stops-batch.js";
import type { HookSpec, RunRequest } from "../wire/types.js";
import { BatchInput } from "./batch-input.js";
import { HookSlot } from "./hook-slot.js";
import { assertIsolateFlags } from "./node-flags.js";
import type { AnswerSink, RuntimeServices } from "./types.js";
import { IsolateWatchdog } from "./watchdog.js";

export interface RuntimeOptions {
  root: string;
  auditFile: string;
  hosts?: Record<string, string[]> | undefined;
  services: RuntimeServices;
  /** isolated-vm lost control of an isolate: the process holding it should not go on. */
  onCatastrophicError(message: string): void;
}

/**
 * The isolates of one process (the sandbox process, or the agent's own with inline isolation):
 * one slot per hook id, and one capability audit log shared by every hook's broker.
 */
export class SandboxRuntime {
  private readonly slots = new Map<string, HookSlot>();
  private readonly watchdog = new IsolateWatchdog();
  /** Opened with the first broker: a session whose hooks make no API call writes no audit log. */
  private audit: AuditSink | undefined;
  private brokers: Promise<typeof import("../broker/index.js")> | undefined;

  constructor(private readonly options: RuntimeOptions) {
    assertIsolateFlags();
  }

  /** Idempotent per id: the first spec given for an id is the one that runs. */
  register(spec: HookSpec): void {
    if (this.slots.has(spec.id)) return;
    let broker: Promise<Broker> | undefined;
    const brokerOnce = () => {
      broker ??= this.broker(spec);
      return broker;
    };
    this.slots.set(
      spec.id,
      new HookSlot(spec, brokerOnce, this.options.services, this.watchdog, this.options.onCatastrophicError),
    );
  }

  /** Calls the hooks in order, handing each answer to `emit` as soon as it is known; never throws. */
  async run(request: RunRequest, ids: readonly string[], emit: AnswerSink): Promise<void> {
    const input = new BatchInput(request);
    try {
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i] as string;
        const slot = this.slots.get(id);
        if (!slot) {
          const message = `hook ${id} was not registered with the sandbox process`;
          emit({ hook: id, status: "error", code: "SANDBOX_ERR_OPTIONS", message, ms: 0 }, [], true);
          return;
        }
        const called = slot.call(input);
        const { answer, logs } = called instanceof Promise ? await called : called;
        const last = i === ids.length - 1 || stopsBatch(answer);
        emit(answer, logs, last);
        if (last) return;
      }
    } finally {
      input.release();
    }
  }

  /** Disposes a hook's isolate for good (it was quarantined). */
  drop(id: string): void {
    this.slots.get(id)?.dispose();
  }

  async close(): Promise<void> {
    for (const slot of this.slots.values()) slot.dispose();
    await this.audit?.close();
  }

  /**
   * The broker module (and zod with it) and the audit log load on the first API call of any hook:
   * most of a cold start otherwise. A grant set createBroker refuses fails each API call of that
   * hook with its reason.
   */
  private async broker(spec: HookSpec): Promise<Broker> {
    this.brokers ??= import("../broker/index.js");
    const { createBroker, jsonlAuditSink } = await this.brokers;
    this.audit ??= jsonlAuditSink(this.options.auditFile);
    return createBroker({
      hook: spec.name,
      root: this.options.root,
      grants: spec.grants,
      audit: this.audit,
      ...(this.options.hosts ? { hosts: this.options.hosts } : {}),
    });
  }
}
