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
  /** Top-level fields written through the view, whatever the depth of the write. */
  readonly touched = new Set<string>();
  private readonly undo: Array<() => void> = [];
  private readonly revokers: Array<() => void> = [];
  private readonly proxies = new Map<string, WeakMap<object, object>>();

  constructor(root: T) {
    const { proxy, revoke } = Proxy.revocable<T>(root, this.handler(undefined) as ProxyHandler<T>);
    this.revokers.push(revoke);
    this.view = proxy;
  }

  get changed(): boolean {
    return this.undo.length > 0;
  }

  rollback(): void {
    for (let i = this.undo.length - 1; i >= 0; i--) this.undo[i]?.();
    this.undo.length = 0;
    this.touched.clear();
  }

  revoke(): void {
    for (const revoke of this.revokers) revoke();
    this.revokers.length = 0;
  }

  private wrap(value: unknown, rootKey: string): unknown {
    if (typeof value !== "object" || value === null) return value;
    let byTarget = this.proxies.get(rootKey);
    if (!byTarget) {
      byTarget = new WeakMap();
      this.proxies.set(rootKey, byTarget);
    }
    let proxy = byTarget.get(value);
    if (!proxy) {
      const made = Proxy.revocable(value, this.handler(rootKey));
      this.revokers.push(made.revoke);
      proxyTargets.set(made.proxy, value);
      byTarget.set(value, made.proxy);
      proxy = made.proxy;
    }
    return proxy;
  }

  private handler(rootKey: string | undefined): ProxyHandler<object> {
    const rootOf = (key: string | symbol) => rootKey ?? String(key);
    return {
      get: (target, key, receiver) => {
        const value = Reflect.get(target, key, receiver);
        if (typeof key === "symbol" || typeof value !== "object" || value === null) return value;
        // A proxy invariant: a frozen property must read back as its own value.
        const own = Reflect.getOwnPropertyDescriptor(target, key);
        if (own && !own.configurable && !own.writable) return value;
        return this.wrap(value, rootOf(key));
      },
      // Descriptors hand out views too (`Object.getOwnPropertyDescriptors` is a common clone idiom).
      getOwnPropertyDescriptor: (target, key) => {
        const own = Reflect.getOwnPropertyDescriptor(target, key);
        if (!own || !("value" in own) || typeof key === "symbol" || (!own.configurable && !own.writable)) {
          return own;
        }
        return { ...own, value: this.wrap(own.value, rootOf(key)) };
      },
      set: (target, key, value) => {
        // `x.__proto__ = p` would reach the target's prototype past the setPrototypeOf trap.
        if (key === "__proto__" && !Object.hasOwn(target, key)) return false;
        this.remember(target, key, value);
        this.touched.add(rootOf(key));
        return Reflect.set(target, key, unwrapDeep(value));
      },
      deleteProperty: (target, key) => {
        if (!Object.hasOwn(target, key)) return true;
        this.remember(target, key);
        this.touched.add(rootOf(key));
        return Reflect.deleteProperty(target, key);
      },
      defineProperty: (target, key, descriptor) => {
        // Refused like a frozen object would refuse it: rollback could not undo this.
        if (irreversible(Reflect.getOwnPropertyDescriptor(target, key), descriptor)) return false;
        this.remember(target, key, descriptor.value);
        this.touched.add(rootOf(key));
        const own = { ...descriptor };
        if ("value" in own) own.value = unwrapDeep(own.value);
        return Reflect.defineProperty(target, key, own);
      },
      // freeze, seal and preventExtensions cannot be undone; they throw in the hook instead, and so
      // does a prototype change, which no write to ctx needs.
      preventExtensions: () => false,
      setPrototypeOf: () => false,
    };
  }

  private remember(target: object, key: string | symbol, next?: unknown): void {
    // Arrays change `length` and their tail without a trap: a write past the end grows length, a
    // shorter length deletes the tail. Journal those too, so rollback leaves no holes behind.
    if (Array.isArray(target)) {
      if (key !== "length") this.rememberOne(target, "length");
      else if (typeof next === "number") {
        for (let i = target.length - 1; i >= next; i--) this.rememberOne(target, String(i));
      }
    }
    this.rememberOne(target, key);
  }

  private rememberOne(target: object, key: string | symbol): void {
    const previous = Reflect.getOwnPropertyDescriptor(target, key);
    this.undo.push(() => {
      if (previous) Reflect.defineProperty(target, key, previous);
      else Reflect.deleteProperty(target, key);
    });
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
