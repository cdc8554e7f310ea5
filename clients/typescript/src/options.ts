/**
 * Connection options: where memoryd is, how to reach it, and how long to wait.
 * Every option has a usable default; bad values throw a TypeError or RangeError
 * whose message says how to fix them.
 */
import type { Interceptor } from "@connectrpc/connect";

/** PEM text or bytes. */
export type Pem = string | Uint8Array;

/** TLS settings; mutual TLS when both `cert` and `key` are set. */
export interface TlsOptions {
  /** CA certificates (PEM) to verify the server with; the system roots when unset. */
  ca?: Pem;
  /** The client certificate chain (PEM), for mutual TLS; needs `key`. */
  cert?: Pem;
  /** The client private key (PEM), for mutual TLS; needs `cert`. */
  key?: Pem;
  /** The name to verify the server certificate against; the address's host when unset. */
  serverName?: string;
}

/** How a client connects to memoryd. */
export interface MemorydClientOptions {
  /** `host:port` of the server (`[::1]:50051` for IPv6). Default `localhost:50051`. */
  address?: string;
  /** `true` for TLS with the system roots, or TLS settings. Default: plaintext. */
  tls?: boolean | TlsOptions;
  /** A bearer token (an API key or a JWT), sent as `authorization: Bearer <token>`. */
  token?: string;
  /** Another name for `token`: an API key, sent the same way. Set one of the two. */
  apiKey?: string;
  /**
   * The default deadline of each call in milliseconds, retries and the
   * read-your-writes wait included; a call's own `timeoutMs` overrides it.
   * For Preload it bounds the whole stream. Default 5000.
   */
  timeoutMs?: number;
  /**
   * Attempts per call on UNAVAILABLE, the first one included: 1 (no retries)
   * to 5. Default 4. Every write carries a request_id, so a retried write is
   * applied once.
   */
  maxAttempts?: number;
  /** The pause before the first retry, in ms (doubling, randomized, up to maxBackoffMs). Default 100. */
  initialBackoffMs?: number;
  /** The longest pause between retries, in ms. Default 1000. */
  maxBackoffMs?: number;
  /** Scope keys whose newest write_token is remembered, least recently used forgotten. Default 10000. */
  maxScopes?: number;
  /** More connect interceptors, run inside the built-in ones (auth, x-request-id, tracing, retries). */
  interceptors?: Interceptor[];
}

/** The options with every default filled in. */
export interface ResolvedOptions {
  readonly address: string;
  readonly host: string;
  readonly port: number;
  readonly tls: TlsOptions | undefined;
  readonly token: string | undefined;
  readonly timeoutMs: number;
  readonly maxAttempts: number;
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  readonly maxScopes: number;
  readonly interceptors: readonly Interceptor[];
}

export const DEFAULT_ADDRESS = "localhost:50051";
export const DEFAULT_TIMEOUT_MS = 5000;
export const DEFAULT_MAX_ATTEMPTS = 4;
export const MAX_ATTEMPTS_CAP = 5;
export const DEFAULT_INITIAL_BACKOFF_MS = 100;
export const DEFAULT_MAX_BACKOFF_MS = 1000;
export const DEFAULT_MAX_SCOPES = 10_000;

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) {
    return fallback;
  }
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(
      `${name} is ${String(value)}; pass a positive number of milliseconds (default ${fallback})`,
    );
  }
  return value;
}

function splitAddress(address: string): { host: string; port: number } {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(address)) {
    throw new TypeError(
      `address ${JSON.stringify(address)} has a scheme; pass 'host:port' such as ` +
        `'localhost:50051', and tls: true for TLS`,
    );
  }
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s/]+):(\d{1,5})$/.exec(address);
  const port = match ? Number(match[2]) : NaN;
  if (!match || !(port >= 1 && port <= 65535)) {
    throw new TypeError(
      `address ${JSON.stringify(address)} is not 'host:port'; pass e.g. 'localhost:50051' ` +
        `or '[::1]:50051' (port 1-65535)`,
    );
  }
  return { host: match[1]!, port };
}

function checkToken(name: string, token: string | undefined): void {
  if (token !== undefined && (typeof token !== "string" || token === "" || /[\r\n]/.test(token))) {
    throw new TypeError(`${name} must be a non-empty single-line string, or left out for no credentials`);
  }
}

/** The options with defaults filled in; throws a TypeError or RangeError saying how to fix a bad one. */
export function resolveOptions(options: MemorydClientOptions = {}): ResolvedOptions {
  const address = options.address ?? DEFAULT_ADDRESS;
  if (typeof address !== "string" || address.trim() !== address || address === "") {
    throw new TypeError(
      `address ${JSON.stringify(address)} is empty or padded; pass 'host:port', e.g. '${DEFAULT_ADDRESS}'`,
    );
  }
  const { host, port } = splitAddress(address);
  checkToken("token", options.token);
  checkToken("apiKey", options.apiKey);
  if (options.token !== undefined && options.apiKey !== undefined) {
    throw new TypeError("both token and apiKey are set; set one of them (both are sent as a bearer token)");
  }
  let tls: TlsOptions | undefined;
  if (options.tls === true) {
    tls = {};
  } else if (options.tls && typeof options.tls === "object") {
    tls = { ...options.tls };
    if (Boolean(tls.cert) !== Boolean(tls.key)) {
      throw new TypeError("mutual TLS needs both tls.cert and tls.key (PEM); set both, or neither");
    }
  } else if (options.tls !== undefined && options.tls !== false) {
    throw new TypeError("tls must be true, false, or an object { ca?, cert?, key?, serverName? }");
  }
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > MAX_ATTEMPTS_CAP) {
    throw new RangeError(
      `maxAttempts is ${String(maxAttempts)}; use a whole number from 1 (no retries) to ${MAX_ATTEMPTS_CAP}`,
    );
  }
  const initialBackoffMs = positive("initialBackoffMs", options.initialBackoffMs, DEFAULT_INITIAL_BACKOFF_MS);
  const maxBackoffMs = positive("maxBackoffMs", options.maxBackoffMs, DEFAULT_MAX_BACKOFF_MS);
  if (maxBackoffMs < initialBackoffMs) {
    throw new RangeError(
      `maxBackoffMs (${maxBackoffMs}) is below initialBackoffMs (${initialBackoffMs}); raise maxBackoffMs`,
    );
  }
  const maxScopes = options.maxScopes ?? DEFAULT_MAX_SCOPES;
  if (!Number.isInteger(maxScopes) || maxScopes < 1) {
    throw new RangeError(`maxScopes is ${String(maxScopes)}; use a whole number of at least 1`);
  }
  return {
    address,
    host,
    port,
    tls,
    token: options.token ?? options.apiKey,
    timeoutMs: positive("timeoutMs", options.timeoutMs, DEFAULT_TIMEOUT_MS),
    maxAttempts,
    initialBackoffMs,
    maxBackoffMs,
    maxScopes,
    interceptors: [...(options.interceptors ?? [])],
  };
}
