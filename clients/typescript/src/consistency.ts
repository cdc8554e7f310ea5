/**
 * Read-your-writes in the client: a read of a scope waits for this client's
 * writes into it, as the Python client's memoryd_client.consistency does.
 *
 * memoryd makes every read wait until the writes already acknowledged in its
 * scope are indexed. What no server can see is a write still on its way: sent,
 * not yet answered. So a client keeps, per scope key (see scope-keys.ts):
 *
 * - the writes in flight: a read of the scope first waits until each of them is
 *   answered, bounded by the read's own deadline (past it the read fails with
 *   WriteInFlightError, a DeadlineExceededError, rather than return stale results);
 * - the newest acknowledged write_token: a read of the scope carries it as
 *   consistency_token, so the server waits for that very write as well.
 *
 * Memory stays bounded: one token per key, and beyond maxScopes keys the least
 * recently used are forgotten; the server's own per-scope wait still covers
 * their writes. A token the server refuses is forgotten (forgetToken).
 */
import { WriteInFlightError } from "./errors.js";
import { readsOf, scopeKeys, type Keys, type ScopeIds } from "./scope-keys.js";

/** One write that has been sent and not yet answered. */
export class InFlightWrite {
  readonly keys: Keys;
  /** Resolves when the write is answered, whatever the answer. */
  readonly answered: Promise<void>;
  private resolve!: () => void;

  constructor(keys: Keys) {
    this.keys = keys;
    this.answered = new Promise<void>((resolve) => {
      this.resolve = resolve;
    });
  }

  /** Marks the write answered. */
  done(): void {
    this.resolve();
  }
}

function intersects(a: Keys, b: Keys): boolean {
  for (const key of a) {
    if (b.has(key)) {
      return true;
    }
  }
  return false;
}

/** The writes a client has in flight, and the newest write_token, per scope key. */
export class ScopeWrites {
  private readonly maxScopes: number;
  private readonly inFlightWrites = new Set<InFlightWrite>();
  /** key -> [order the token arrived in, token], least recently used first. */
  private readonly tokens = new Map<string, [number, string]>();
  private order = 0;

  constructor(maxScopes = 10_000) {
    if (!Number.isInteger(maxScopes) || maxScopes < 1) {
      throw new RangeError(`maxScopes must be a whole number of at least 1, got ${maxScopes}`);
    }
    this.maxScopes = maxScopes;
  }

  /**
   * Makes later reads of `scope` carry `writeToken`: for instance the token of a
   * write another service made and passed on.
   */
  note(scope: ScopeIds, writeToken: string): void {
    if (writeToken) {
      this.remember(new Set(scopeKeys(scope)), writeToken);
    }
  }

  /** The newest write_token a read of `scope` carries; "" if none. */
  tokenFor(scope: ScopeIds): string {
    return this.tokenOf(readsOf([scope]));
  }

  /** Records a write about to be sent into `keys`; call `finish` once it is answered. */
  begin(keys: Keys): InFlightWrite {
    const write = new InFlightWrite(keys);
    this.inFlightWrites.add(write);
    return write;
  }

  /** The write was answered: with its write_token, or "" if it failed. */
  finish(write: InFlightWrite, writeToken = ""): void {
    this.inFlightWrites.delete(write);
    if (writeToken) {
      this.remember(write.keys, writeToken);
    }
    write.done();
  }

  private remember(keys: Keys, writeToken: string): void {
    const order = ++this.order;
    for (const key of keys) {
      this.tokens.delete(key);
      this.tokens.set(key, [order, writeToken]);
    }
    while (this.tokens.size > this.maxScopes) {
      const oldest = this.tokens.keys().next().value as string;
      this.tokens.delete(oldest);
    }
  }

  /** Forgets a token wherever it is kept (the server refused it). */
  forgetToken(writeToken: string): void {
    for (const [key, [, token]] of [...this.tokens]) {
      if (token === writeToken) {
        this.tokens.delete(key);
      }
    }
  }

  /** The newest write_token of a write into any of `keys`; "" if none. */
  tokenOf(keys: Keys): string {
    let newest: [number, string] | undefined;
    for (const key of keys) {
      const entry = this.tokens.get(key);
      if (entry) {
        this.tokens.delete(key);
        this.tokens.set(key, entry);
        if (!newest || entry[0] > newest[0]) {
          newest = entry;
        }
      }
    }
    return newest ? newest[1] : "";
  }

  /** The writes into any of `keys` that are sent and not yet answered. */
  inFlight(keys: Keys): InFlightWrite[] {
    return [...this.inFlightWrites].filter((write) => intersects(write.keys, keys));
  }

  /**
   * Resolves once the writes in flight into `keys` are answered. Rejects with
   * WriteInFlightError if one is still in flight after `timeoutMs`, or with the
   * signal's reason if `signal` aborts first.
   */
  async wait(keys: Keys, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    const pending = this.inFlight(keys);
    if (pending.length === 0) {
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(writeInFlight()), Math.max(timeoutMs, 0));
      if (signal) {
        onAbort = () => reject(signal.reason);
        if (signal.aborted) {
          onAbort();
        } else {
          signal.addEventListener("abort", onAbort, { once: true });
        }
      }
    });
    try {
      await Promise.race([Promise.all(pending.map((write) => write.answered)), expired]);
    } finally {
      clearTimeout(timer);
      if (signal && onAbort) {
        signal.removeEventListener("abort", onAbort);
      }
    }
  }
}

function writeInFlight(): WriteInFlightError {
  return new WriteInFlightError({
    code: "DEADLINE_EXCEEDED",
    reason: "WRITE_IN_FLIGHT",
    message:
      "a write into this scope was still in flight when the read's deadline passed; the read " +
      "waited for it rather than return stale results. Retry with a longer deadline",
  });
}
