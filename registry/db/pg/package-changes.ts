import pg from "pg";
import type { PackageChangeListener } from "../../store.js";

const channel = "hookyard_package_changed";

/** Between attempts to listen again after the connection was lost. */
const reconnectMs = 1_000;

/**
 * How often the listening connection is asked to answer, and how long it may take: a connection
 * that died without a word (a dropped route, a frozen server) is noticed within twice this.
 */
const heartbeatMs = 5_000;

/**
 * Which packages other registry processes changed, from PostgreSQL's LISTEN/NOTIFY. A write sends
 * NOTIFY inside its transaction, so the server delivers it right after the commit (and never for a
 * rolled-back write); every process, the writer included, drops its copy of the document then.
 * While the listening connection is down, changes could be missed: the listeners are told "every
 * package" (null) when it is lost, after every failed attempt to listen again (each second) and
 * once listening resumes, so no document is kept for more than a second of an outage. A heartbeat
 * notices a connection that died silently. The same connection holds the shared "a registry runs
 * here" lock.
 */
export class PackageChanges {
  private readonly listeners: PackageChangeListener[] = [];
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  /** Set once this process holds the shared "a registry runs here" lock (whileAlone). */
  private entered = false;

  constructor(
    private readonly url: string,
    private readonly processesLockKey: number,
    private readonly startingLockKey: number,
  ) {}

  listen(listener: PackageChangeListener): void {
    this.listeners.push(listener);
  }

  async start(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: 10_000,
      keepAlive: true,
    });
    client.on("error", () => this.lost(client));
    client.on("end", () => this.lost(client));
    client.on("notification", (message) => {
      if (message.channel === channel && message.payload) this.tell(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
      // Listening again after a lost connection: this process still runs, so it says so again.
      if (this.entered) await client.query("SELECT pg_advisory_lock_shared($1)", [this.processesLockKey]);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    this.client = client;
    if (this.entered) this.startHeartbeat();
  }

  /** Only once joined: until then the connection may wait, rightly, for another process's start. */
  private startHeartbeat(): void {
    this.heartbeat ??= setInterval(() => this.beat(), heartbeatMs).unref();
  }

  private beat(): void {
    const client = this.client;
    if (!client) return;
    let timer: NodeJS.Timeout | undefined;
    const silent = new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(new Error("no answer")), heartbeatMs);
    });
    Promise.race([client.query("SELECT 1"), silent])
      .catch(() => this.lost(client))
      .finally(() => clearTimeout(timer));
  }

  /** Sends the names' change from inside the writing transaction. */
  async notify(tx: pg.PoolClient, names: readonly string[]): Promise<void> {
    for (const name of new Set(names)) await tx.query("SELECT pg_notify($1, $2)", [channel, name]);
  }

  /** This process's own change, told at once after the commit (its NOTIFY comes a moment later). */
  local(names: readonly string[]): void {
    for (const name of new Set(names)) this.tell(name);
  }

  /**
   * Joins the processes that serve the database (a shared lock held until close), running `work`
   * first if none serves it yet; undefined, without running it, if one does. Starts take turns (a
   * second lock, held only while starting), so two processes starting at once cannot both see the
   * other and both skip `work`: the first runs it, the second then finds it running.
   */
  async whileAlone<T>(work: () => Promise<T>): Promise<T | undefined> {
    const client = this.client;
    if (!client) throw new Error("whileAlone before start");
    await client.query("SELECT pg_advisory_lock($1)", [this.startingLockKey]);
    try {
      const got = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1) AS ok", [
        this.processesLockKey,
      ]);
      const alone = got.rows[0]?.ok === true;
      let result: T | undefined;
      try {
        if (alone) result = await work();
      } finally {
        await client.query("SELECT pg_advisory_lock_shared($1)", [this.processesLockKey]);
        if (alone) await client.query("SELECT pg_advisory_unlock($1)", [this.processesLockKey]);
        this.entered = true;
        this.startHeartbeat();
      }
      return result;
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [this.startingLockKey]);
    }
  }

  private tell(name: string | null): void {
    for (const listener of this.listeners) listener(name);
  }

  private lost(client: pg.Client): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => {});
    this.tell(null);
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.closed) return;
    this.retry = setTimeout(() => {
      this.start().then(
        () => this.tell(null),
        () => {
          this.tell(null);
          this.scheduleRetry();
        },
      );
    }, reconnectMs);
    this.retry.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.heartbeat);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}
