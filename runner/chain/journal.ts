/**
 * A journaled, revocable view of a ctx for one hook call.
 *
 * Trusted hooks mutate the live ctx. Cloning it before every hook would make exact rollback cost
 * O(ctx) per hook (history grows each turn); instead every write through the view is journaled
 * and undone in reverse on failure, so a no-op hook costs one Proxy. After the call the view is
 * revoked: a hook that timed out and keeps running cannot touch the ctx any more.
 */
export class CtxJournal<T extends object> {
  readonly view: T;
  private isRevoked = false;
  // The rest is made on first need: most hooks never write, and many never read below the top.
  private touchedFields: Set<string> | undefined;
  private undo: Array<() => void> | undefined;
  private proxies: Map<string, WeakMap<object, object>> | undefined;

  constructor(root: T) {
    // A plain Proxy and a flag rather than Proxy.revocable: one object less per call, and every
    // view this journal hands out is revoked at once.
    this.view = new Proxy(root, new ViewHandler(this, undefined) as ProxyHandler<T>);
  }

  /** Top-level fields written through the view, whatever the depth of the write. */
  get touched(): Set<string> {
    this.touchedFields ??= new Set();
    return this.touchedFields;
  }

  get changed(): boolean {
    return this.undo !== undefined && this.undo.length > 0;
  }

  get revoked(): boolean {
    return this.isRevoked;
  }

  rollback(): void {
    if (!this.undo) return;
    for (let i = this.undo.length - 1; i >= 0; i--) this.undo[i]?.();
    this.undo.length = 0;
    this.touchedFields?.clear();
  }

  revoke(): void {
    this.isRevoked = true;
    this.proxies = undefined;
  }

  /** @internal The view of a nested object, made once per object and top-level field. */
  wrap(value: unknown, rootKey: string): unknown {
    if (typeof value !== "object" || value === null) return value;
    this.proxies ??= new Map();
    let byTarget = this.proxies.get(rootKey);
    if (!byTarget) {
      byTarget = new WeakMap();
      this.proxies.set(rootKey, byTarget);
    }
    let proxy = byTarget.get(value);
    if (!proxy) {
      proxy = new Proxy(value, new ViewHandler(this, rootKey));
      proxyTargets.set(proxy, value);
      byTarget.set(value, proxy);
    }
    return proxy;
  }

  /** @internal Journals a write of `key` on `target`, under the top-level field `rootKey`. */
  record(target: object, key: string | symbol, rootKey: string, next?: unknown): void {
    // Arrays change `length` and their tail without a trap: a write past the end grows length, a
    // shorter length deletes the tail. Journal those too, so rollback leaves no holes behind.
    if (Array.isArray(target)) {
      if (key !== "length") this.rememberOne(target, "length");
      else if (typeof next === "number") {
        for (let i = target.length - 1; i >= next; i--) this.rememberOne(target, String(i));
      }
    }
    this.rememberOne(target, key);
    this.touched.add(rootKey);
  }

  private rememberOne(target: object, key: string | symbol): void {
    const previous = Reflect.getOwnPropertyDescriptor(target, key);
    this.undo ??= [];
    this.undo.push(() => {
      if (previous) Reflect.defineProperty(target, key, previous);
      else Reflect.deleteProperty(target, key);
    });
  }
}

/**
 * The traps of one view, as methods: a small object per view instead of a handler of closures.
 * Once the journal is revoked every trap throws, as those of a revoked Proxy do.
 */
class ViewHandler implements ProxyHandler<object> {
  constructor(
    private readonly journal: CtxJournal<object>,
    /** The top-level field this view is under; undefined for the view of the ctx itself. */
    private readonly rootKey: string | undefined,
  ) {}

  get(target: object, key: string | symbol, receiver: unknown): unknown {
    this.live("get");
    const value = Reflect.get(target, key, receiver);
    if (typeof key === "symbol" || typeof value !== "object" || value === null) return value;
    // A proxy invariant: a frozen property must read back as its own value.
    const own = Reflect.getOwnPropertyDescriptor(target, key);
    if (own && !own.configurable && !own.writable) return value;
    return this.journal.wrap(value, this.rootOf(key));
  }

  // Descriptors hand out views too (`Object.getOwnPropertyDescriptors` is a common clone idiom).
  getOwnPropertyDescriptor(target: object, key: string | symbol): PropertyDescriptor | undefined {
    this.live("getOwnPropertyDescriptor");
    const own = Reflect.getOwnPropertyDescriptor(target, key);
    if (!own || !("value" in own) || typeof key === "symbol" || (!own.configurable && !own.writable)) {
      return own;
    }
    return { ...own, value: this.journal.wrap(own.value, this.rootOf(key)) };
  }

  set(target: object, key: string | symbol, value: unknown): boolean {
    this.live("set");
    // `x.__proto__ = p` would reach the target's prototype past the setPrototypeOf trap.
    if (key === "__proto__" && !Object.hasOwn(target, key)) return false;
    this.journal.record(target, key, this.rootOf(key), value);
    return Reflect.set(target, key, unwrapDeep(value));
  }

  deleteProperty(target: object, key: string | symbol): boolean {
    this.live("deleteProperty");
    if (!Object.hasOwn(target, key)) return true;
    this.journal.record(target, key, this.rootOf(key));
    return Reflect.deleteProperty(target, key);
  }

  defineProperty(target: object, key: string | symbol, descriptor: PropertyDescriptor): boolean {
    this.live("defineProperty");
    // Refused like a frozen object would refuse it: rollback could not undo this.
    if (irreversible(Reflect.getOwnPropertyDescriptor(target, key), descriptor)) return false;
    this.journal.record(target, key, this.rootOf(key), descriptor.value);
    const own = { ...descriptor };
    if ("value" in own) own.value = unwrapDeep(own.value);
    return Reflect.defineProperty(target, key, own);
  }

  // freeze, seal and preventExtensions cannot be undone; they throw in the hook instead, and so
  // does a prototype change, which no write to ctx needs.
  preventExtensions(): boolean {
    this.live("preventExtensions");
    return false;
  }

  setPrototypeOf(): boolean {
    this.live("setPrototypeOf");
    return false;
  }

  // The traps below only forward; they exist so that a revoked view throws on them too.
  has(target: object, key: string | symbol): boolean {
    this.live("has");
    return Reflect.has(target, key);
  }

  ownKeys(target: object): ArrayLike<string | symbol> {
    this.live("ownKeys");
    return Reflect.ownKeys(target);
  }

  getPrototypeOf(target: object): object | null {
    this.live("getPrototypeOf");
    return Reflect.getPrototypeOf(target);
  }

  isExtensible(target: object): boolean {
    this.live("isExtensible");
    return Reflect.isExtensible(target);
  }

  private live(trap: string): void {
    if (this.journal.revoked) {
      throw new TypeError(`Cannot perform '${trap}' on a proxy that has been revoked`);
    }
  }

  private rootOf(key: string | symbol): string {
    return this.rootKey ?? String(key);
  }
}

const proxyTargets = new WeakMap<object, object>();

/** A define that makes a property non-configurable, or a non-configurable one read-only, is for good. */
function irreversible(existing: PropertyDescriptor | undefined, next: PropertyDescriptor): boolean {
  if (existing && !existing.configurable) return existing.writable === true && next.writable === false;
  return next.configurable === false || (existing === undefined && next.configurable !== true);
}

/**
 * A value stored through the view may hold views of other ctx parts (`[...ctx.messages, m]`);
 * store their targets, so the ctx never keeps a proxy that is revoked after the call.
 */
function unwrapDeep(value: unknown, seen = new Set<object>()): unknown {
  if (typeof value !== "object" || value === null) return value;
  const target = proxyTargets.get(value);
  if (target) return target;
  if (seen.has(value)) return value;
  seen.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const inner = value[i];
      const unwrapped = unwrapDeep(inner, seen);
      if (unwrapped !== inner) value[i] = unwrapped;
    }
  } else if (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const inner = record[key];
      const unwrapped = unwrapDeep(inner, seen);
      if (unwrapped !== inner) record[key] = unwrapped;
    }
  }
  return value;
}
