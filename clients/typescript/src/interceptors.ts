/**
 * The built-in connect interceptors: credentials, x-request-id, W3C trace
 * context, and retries on UNAVAILABLE.
 */
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";

/** Sends `authorization: Bearer <token>` on every call. */
export function bearerToken(token: string): Interceptor {
  const value = `Bearer ${token}`;
  return (next) => (req) => {
    req.header.set("authorization", value);
    return next(req);
  };
}

/** Sends an `x-request-id` (a UUID) on every call that has none; retries keep it. */
export function requestIdHeader(): Interceptor {
  return (next) => (req) => {
    if (!req.header.has("x-request-id")) {
      req.header.set("x-request-id", randomUUID());
    }
    return next(req);
  };
}

// --- W3C trace context -------------------------------------------------------

/** The parts of @opentelemetry/api this client uses (an optional peer dependency). */
interface OtelApi {
  context: { active(): unknown };
  propagation: {
    inject(context: unknown, carrier: Headers, setter: { set(carrier: Headers, key: string, value: string): void }): void;
  };
  trace: {
    getSpanContext(context: unknown):
      | { traceId: string; spanId: string; traceFlags: number; traceState?: { serialize(): string } }
      | undefined;
    isSpanContextValid(spanContext: unknown): boolean;
  };
}

let otel: OtelApi | null | undefined;

/** @opentelemetry/api when it is installed, else null. */
export function openTelemetry(): OtelApi | null {
  if (otel === undefined) {
    try {
      otel = createRequire(import.meta.url)("@opentelemetry/api") as OtelApi;
    } catch {
      otel = null;
    }
  }
  return otel;
}

const headerSetter = {
  set(carrier: Headers, key: string, value: string): void {
    carrier.set(key, value);
  },
};

/**
 * Writes the trace context of `context` (default: the active one) into
 * `headers`: through the registered OpenTelemetry propagator (which may add
 * baggage too), and as W3C `traceparent`/`tracestate` when the propagator did
 * not (none registered). Does nothing without @opentelemetry/api or a valid span.
 */
export function injectTraceContext(headers: Headers, context?: unknown): void {
  const api = openTelemetry();
  if (!api) {
    return;
  }
  const active = context ?? api.context.active();
  api.propagation.inject(active, headers, headerSetter);
  if (headers.has("traceparent")) {
    return;
  }
  const span = api.trace.getSpanContext(active);
  if (!span || !api.trace.isSpanContextValid(span)) {
    return;
  }
  const flags = (span.traceFlags & 0xff).toString(16).padStart(2, "0");
  headers.set("traceparent", `00-${span.traceId}-${span.spanId}-${flags}`);
  const state = span.traceState?.serialize();
  if (state) {
    headers.set("tracestate", state);
  }
}

/** Propagates the caller's active W3C trace context on every call. */
export function traceContext(): Interceptor {
  return (next) => (req) => {
    injectTraceContext(req.header);
    return next(req);
  };
}

// --- retries -----------------------------------------------------------------

/** How the retry interceptor retries. */
export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  maxAttempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
}

/** The pauses between attempts: gRPC's randomized exponential backoff. */
export class Backoff {
  private next: number;

  constructor(private readonly policy: RetryPolicy) {
    this.next = policy.initialBackoffMs;
  }

  /** The pause before the next attempt, in ms: random up to the current ceiling, which doubles. */
  pause(): number {
    const pause = Math.random() * this.next;
    this.next = Math.min(this.next * 2, this.policy.maxBackoffMs);
    return pause;
  }
}

/** Resolves after `ms`; rejects with the signal's reason if it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Chains the caller's signal to a controller of our own, which can cancel the call too. */
export function linkedController(signal?: AbortSignal): AbortController {
  const controller = new AbortController();
  if (signal) {
    if (signal.aborted) {
      controller.abort(signal.reason);
    } else {
      signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
    }
  }
  return controller;
}

/** The milliseconds a grpc-timeout header value gives ("250m", "5S"); undefined if none. */
export function parseGrpcTimeout(value: string | null): number | undefined {
  const match = value ? /^(\d{1,8})([HMSmun])$/.exec(value) : null;
  if (!match) {
    return undefined;
  }
  const unitMs: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 1e-3, n: 1e-6 };
  return Number(match[1]) * unitMs[match[2]!]!;
}

/**
 * Retries unary calls that fail with UNAVAILABLE, up to `maxAttempts` in all,
 * with randomized exponential backoff, within the call's deadline (each retry's
 * grpc-timeout is the time left). connect has no service-config retries; this
 * is safe because every write carries a request_id. Server streams (Preload)
 * are retried by the client itself, only before their first event.
 */
export function retryOnUnavailable(policy: RetryPolicy): Interceptor {
  return (next) => async (req) => {
    if (req.stream || policy.maxAttempts <= 1) {
      return next(req);
    }
    const timeoutMs = parseGrpcTimeout(req.header.get("grpc-timeout"));
    const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
    const backoff = new Backoff(policy);
    for (let attempt = 1; ; attempt++) {
      try {
        return await next(req);
      } catch (error) {
        if (
          attempt >= policy.maxAttempts ||
          req.signal.aborted ||
          ConnectError.from(error).code !== Code.Unavailable
        ) {
          throw error;
        }
        const pause = backoff.pause();
        if (deadline !== undefined && Date.now() + pause >= deadline) {
          throw error;
        }
        try {
          await sleep(pause, req.signal);
        } catch {
          throw error;
        }
        if (deadline !== undefined) {
          req.header.set("grpc-timeout", `${Math.max(1, Math.ceil(deadline - Date.now()))}m`);
        }
      }
    }
  };
}
