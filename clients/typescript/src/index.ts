/**
 * @memoryd/client: the TypeScript client of memoryd (memoryd.v1.MemoryService).
 *
 * `createMemorydClient(options)` returns a client with one method per RPC
 * (requests are the generated messages or their init shapes, responses the
 * generated messages), a paging iterator, Preload and Watch stream helpers, typed errors,
 * retries on UNAVAILABLE, request ids on writes, read-your-writes and W3C trace
 * context propagation.
 */
export {
  createMemorydClient,
  type CallOptions,
  type MemorydClient,
  type PreloadEvent,
  type RequestInit,
} from "./client.js";
export type { WatchEvent } from "./watch.js";
export {
  DEFAULT_ADDRESS,
  DEFAULT_INITIAL_BACKOFF_MS,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_BACKOFF_MS,
  DEFAULT_MAX_SCOPES,
  DEFAULT_TIMEOUT_MS,
  MAX_ATTEMPTS_CAP,
  resolveOptions,
  type MemorydClientOptions,
  type Pem,
  type ResolvedOptions,
  type TlsOptions,
} from "./options.js";
export * from "./errors.js";
export { InFlightWrite, ScopeWrites } from "./consistency.js";
export { forgetKeys, readKeys, readsOf, scopeKeys, type Keys, type ScopeIds } from "./scope-keys.js";
export {
  bearerToken,
  injectTraceContext,
  parseGrpcTimeout,
  requestIdHeader,
  retryOnUnavailable,
  traceContext,
  type RetryPolicy,
} from "./interceptors.js";
export * as filters from "./filters.js";
export * from "./gen/memoryd/v1/memory_pb.js";
export * from "./gen/memoryd/v1/memory_service_pb.js";
export { StatusSchema, type Status } from "./gen/google/rpc/status_pb.js";
