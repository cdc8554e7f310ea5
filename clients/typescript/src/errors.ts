/**
 * Typed errors: one class per gRPC status code, and under it one per memoryd
 * ErrorReason, so `instanceof UnavailableError` also catches `ShuttingDownError`.
 * A reason this client does not know yet gives the class of its code.
 *
 * ```
 * MemorydError                         code, reason, message, fieldViolations, retryAfterMs
 *   BadRequestError                    INVALID_ARGUMENT, OUT_OF_RANGE
 *     InvalidArgumentError               INVALID_ARGUMENT: a bad field, named in fieldViolations
 *     MessageTooLargeError               MESSAGE_TOO_LARGE: the request is over the server's limit
 *     ChangeHistoryExpiredError          CHANGE_HISTORY_EXPIRED (OUT_OF_RANGE): a watch resumed
 *                                        outside the change history the server keeps
 *   NotFoundError                      NOT_FOUND (resourceName)
 *     MemoryNotFoundError                MEMORY_NOT_FOUND: absent, or in another scope
 *     UnknownWriteTokenError             UNKNOWN_WRITE_TOKEN: GetWriteStatus does not know it
 *   AbortedError                       ABORTED
 *     VersionMismatchError               VERSION_MISMATCH: stale expected_version
 *   PermissionDeniedError              PERMISSION_DENIED
 *     ScopeNotPermittedError             SCOPE_NOT_PERMITTED
 *   AuthenticationError                UNAUTHENTICATED
 *     UnauthenticatedError               UNAUTHENTICATED: missing, bad or expired credentials
 *   FailedPreconditionError            FAILED_PRECONDITION
 *     IncompatibleIndexError             INCOMPATIBLE_INDEX
 *     ReembedInProgressError             REEMBED_IN_PROGRESS: a re-embedding to another embedder runs
 *   UnimplementedError                 UNIMPLEMENTED
 *   InternalServerError                INTERNAL, UNKNOWN, DATA_LOSS
 *     InternalError                      INTERNAL: a server bug; metadata.incident is in its log
 *   TransientError                     may succeed if tried again later
 *     CancelledError                   CANCELLED
 *     UnavailableError                 UNAVAILABLE (after the client's retries)
 *       EmbeddingUnavailableError        EMBEDDING_UNAVAILABLE
 *       ShuttingDownError                SHUTTING_DOWN
 *       WriteFailedError                 WRITE_FAILED: a journaled write could not be applied
 *     DeadlineExceededError            DEADLINE_EXCEEDED (reason "" when the client's deadline passed)
 *       WriteNotYetAppliedError          WRITE_NOT_YET_APPLIED: a read waited for a write
 *       PreloadScopeTimedOutError        PRELOAD_SCOPE_TIMED_OUT
 *       WriteInFlightError               WRITE_IN_FLIGHT (client-side): a read waited for
 *                                        this client's own write, still unanswered
 *     ResourceExhaustedError           RESOURCE_EXHAUSTED (retryAfterMs from RetryInfo)
 *       WriteBacklogFullError            WRITE_BACKLOG_FULL
 *       RateLimitedError                 RATE_LIMITED
 * ```
 */
import { fromBinary } from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import type { Status } from "./gen/google/rpc/status_pb.js";
import {
  BadRequestSchema,
  ErrorInfoSchema,
  ResourceInfoSchema,
  RetryInfoSchema,
} from "./gen/google/rpc/error_details_pb.js";
import { connectionFailure } from "./transport.js";

/** The ErrorInfo domain of memoryd's reasons; a reason of another domain is not ours. */
export const ERROR_DOMAIN = "memoryd";

/** gRPC status code names, by number. */
export const CODE_NAMES: readonly string[] = [
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
];

/** The gRPC status code name of a code number ("UNKNOWN" for one out of range). */
export function codeName(code: number): string {
  return CODE_NAMES[code] ?? "UNKNOWN";
}

/** One bad field, named as the request spelled it (`requests[3].memory.content`). */
export interface FieldViolation {
  readonly field: string;
  readonly description: string;
}

/** What a MemorydError is made of; every field but code and message may be left out. */
export interface MemorydErrorInit {
  /** The gRPC status code name, e.g. "NOT_FOUND". */
  code: string;
  /** The server's message (or the client's, for client-side failures). */
  message: string;
  /** The ErrorInfo reason, e.g. "MEMORY_NOT_FOUND"; "" when none was sent. */
  reason?: string;
  /** The ErrorInfo metadata. */
  metadata?: Record<string, string>;
  /** The BadRequest field violations. */
  fieldViolations?: readonly FieldViolation[];
  /** The RetryInfo delay in milliseconds. */
  retryAfterMs?: number;
  /** The ResourceInfo resource name (a memory id, a write token). */
  resourceName?: string;
  /** The underlying error (a ConnectError, for instance). */
  cause?: unknown;
}

/** A memoryd call failed. Catch a subclass to handle one kind of failure. */
export class MemorydError extends Error {
  /** The gRPC status code name: "NOT_FOUND", "INVALID_ARGUMENT", ... */
  readonly code: string;
  /** The ErrorInfo reason (an ErrorReason name without its prefix); "" if none. */
  readonly reason: string;
  /** The ErrorInfo metadata (e.g. incident, size_bytes, limit_bytes). */
  readonly metadata: Readonly<Record<string, string>>;
  /** Each bad field of the request (BadRequest); empty when there is none. */
  readonly fieldViolations: readonly FieldViolation[];
  /** How long the server asks to wait before retrying (RetryInfo); undefined if it did not say. */
  readonly retryAfterMs: number | undefined;
  /** The resource the error is about (ResourceInfo): a memory id, a write token; "" if none. */
  readonly resourceName: string;

  constructor(init: MemorydErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = init.code;
    this.reason = init.reason ?? "";
    this.metadata = { ...(init.metadata ?? {}) };
    this.fieldViolations = [...(init.fieldViolations ?? [])];
    this.retryAfterMs = init.retryAfterMs;
    this.resourceName = init.resourceName ?? "";
  }
}

/** The request was rejected (INVALID_ARGUMENT, OUT_OF_RANGE); nothing was written. */
export class BadRequestError extends MemorydError {}
/** A field of the request is invalid: see fieldViolations. */
export class InvalidArgumentError extends BadRequestError {}
/** The request is larger than the server accepts (metadata size_bytes, limit_bytes). */
export class MessageTooLargeError extends BadRequestError {}
/**
 * (OUT_OF_RANGE) a watch asked to resume after a sequence older than the change
 * history the server keeps, or past its end: read the scope again (listAllMemories)
 * and watch from `started`.
 */
export class ChangeHistoryExpiredError extends BadRequestError {}

/** Something the request names does not exist (NOT_FOUND). */
export class NotFoundError extends MemorydError {}
/** No memory with that id in that scope (a memory of another scope looks the same). */
export class MemoryNotFoundError extends NotFoundError {
  /** The id that was not found ("" if the server did not name it). */
  get memoryId(): string {
    return this.resourceName;
  }
}
/** GetWriteStatus does not know the token: another server's, or past its retention. */
export class UnknownWriteTokenError extends NotFoundError {
  /** The token that is unknown ("" if the server did not name it). */
  get writeToken(): string {
    return this.resourceName;
  }
}

/** The operation was aborted (ABORTED). */
export class AbortedError extends MemorydError {}
/** expected_version did not match the memory's version: read it again and retry. */
export class VersionMismatchError extends AbortedError {}

/** The credentials may not do this (PERMISSION_DENIED). */
export class PermissionDeniedError extends MemorydError {}
/** The caller may not act in the scope it named. */
export class ScopeNotPermittedError extends PermissionDeniedError {}

/** No valid credentials (UNAUTHENTICATED). */
export class AuthenticationError extends MemorydError {}
/** Credentials are missing, malformed or expired. */
export class UnauthenticatedError extends AuthenticationError {}

/** The server is in a state that refuses the call (FAILED_PRECONDITION). */
export class FailedPreconditionError extends MemorydError {}
/** The stored index was built for another embedder or dimension than the server's. */
export class IncompatibleIndexError extends FailedPreconditionError {}
/** A re-embedding to another embedder is running; GetReembedStatus reports it. */
export class ReembedInProgressError extends FailedPreconditionError {}

/** The server does not implement this RPC (UNIMPLEMENTED). */
export class UnimplementedError extends MemorydError {}

/** The server failed unexpectedly (INTERNAL, UNKNOWN, DATA_LOSS). */
export class InternalServerError extends MemorydError {}
/** A server bug; its log names the incident id. */
export class InternalError extends InternalServerError {
  /** The incident id in the server log ("" if none was sent). */
  get incident(): string {
    return this.metadata["incident"] ?? "";
  }
}

/** The call may succeed if repeated later. */
export class TransientError extends MemorydError {}
/** The call was cancelled (CANCELLED). */
export class CancelledError extends TransientError {}
/** The server could not be reached, even after the client's retries (UNAVAILABLE). */
export class UnavailableError extends TransientError {}
/** The embedding provider could not embed the text; retry. */
export class EmbeddingUnavailableError extends UnavailableError {}
/** The server is shutting down and takes no new writes; retry elsewhere or later. */
export class ShuttingDownError extends UnavailableError {}
/** A journaled write could not be applied after the server's retries; none of it was. */
export class WriteFailedError extends UnavailableError {}
/** The deadline passed before an answer came (DEADLINE_EXCEEDED). */
export class DeadlineExceededError extends TransientError {}
/** A read waited for an acknowledged write of its scope until its deadline. */
export class WriteNotYetAppliedError extends DeadlineExceededError {}
/** A Preload scope was not searched before the deadline came near. */
export class PreloadScopeTimedOutError extends DeadlineExceededError {}
/** (Client-side) a read waited, until its deadline, for this client's own write into its scope. */
export class WriteInFlightError extends DeadlineExceededError {}
/** The server is over a limit (RESOURCE_EXHAUSTED); wait retryAfterMs. */
export class ResourceExhaustedError extends TransientError {}
/** The journal backlog is full and the write was not journaled. */
export class WriteBacklogFullError extends ResourceExhaustedError {}
/** The caller is over its request rate. */
export class RateLimitedError extends ResourceExhaustedError {}

/** A class of MemorydError. */
export type MemorydErrorClass = new (init: MemorydErrorInit) => MemorydError;

/**
 * ErrorInfo reason -> its class: each memoryd.v1.ErrorReason (the value's name
 * without ERROR_REASON_), and WRITE_IN_FLIGHT, which this client raises itself.
 */
export const CLASS_OF_REASON: Readonly<Record<string, MemorydErrorClass>> = {
  INVALID_ARGUMENT: InvalidArgumentError,
  MESSAGE_TOO_LARGE: MessageTooLargeError,
  MEMORY_NOT_FOUND: MemoryNotFoundError,
  UNKNOWN_WRITE_TOKEN: UnknownWriteTokenError,
  VERSION_MISMATCH: VersionMismatchError,
  INCOMPATIBLE_INDEX: IncompatibleIndexError,
  EMBEDDING_UNAVAILABLE: EmbeddingUnavailableError,
  WRITE_BACKLOG_FULL: WriteBacklogFullError,
  SHUTTING_DOWN: ShuttingDownError,
  WRITE_NOT_YET_APPLIED: WriteNotYetAppliedError,
  WRITE_FAILED: WriteFailedError,
  PRELOAD_SCOPE_TIMED_OUT: PreloadScopeTimedOutError,
  UNAUTHENTICATED: UnauthenticatedError,
  SCOPE_NOT_PERMITTED: ScopeNotPermittedError,
  RATE_LIMITED: RateLimitedError,
  INTERNAL: InternalError,
  CHANGE_HISTORY_EXPIRED: ChangeHistoryExpiredError,
  REEMBED_IN_PROGRESS: ReembedInProgressError,
  WRITE_IN_FLIGHT: WriteInFlightError,
};

/** Status code name -> the class of an error whose reason this client does not know. */
export const CLASS_OF_CODE: Readonly<Record<string, MemorydErrorClass>> = {
  INVALID_ARGUMENT: BadRequestError,
  OUT_OF_RANGE: BadRequestError,
  NOT_FOUND: NotFoundError,
  ABORTED: AbortedError,
  PERMISSION_DENIED: PermissionDeniedError,
  UNAUTHENTICATED: AuthenticationError,
  FAILED_PRECONDITION: FailedPreconditionError,
  UNIMPLEMENTED: UnimplementedError,
  INTERNAL: InternalServerError,
  UNKNOWN: InternalServerError,
  DATA_LOSS: InternalServerError,
  CANCELLED: CancelledError,
  UNAVAILABLE: UnavailableError,
  DEADLINE_EXCEEDED: DeadlineExceededError,
  RESOURCE_EXHAUSTED: ResourceExhaustedError,
};

/** The class of an error with this code and reason: the reason's, else the code's. */
export function errorClassOf(code: string, reason: string): MemorydErrorClass {
  return CLASS_OF_REASON[reason] ?? CLASS_OF_CODE[code] ?? MemorydError;
}

/** A status detail as a google.protobuf.Any: its type name (or type URL) and bytes. */
export interface StatusDetail {
  /** "google.rpc.ErrorInfo" or "type.googleapis.com/google.rpc.ErrorInfo". */
  readonly type: string;
  readonly value: Uint8Array;
}

/** The typed error of a status: a code number or name, a message and its details. */
export function errorFromParts(
  code: number | string,
  message: string,
  details: readonly StatusDetail[],
  cause?: unknown,
): MemorydError {
  const name = typeof code === "number" ? codeName(code) : code;
  const init: MemorydErrorInit = { code: name, message, cause };
  for (const detail of details) {
    const type = detail.type.slice(detail.type.lastIndexOf("/") + 1);
    try {
      switch (type) {
        case ErrorInfoSchema.typeName: {
          const info = fromBinary(ErrorInfoSchema, detail.value);
          if (info.domain === ERROR_DOMAIN || info.domain === "") {
            init.reason = info.reason;
            init.metadata = { ...info.metadata };
          }
          break;
        }
        case BadRequestSchema.typeName:
          init.fieldViolations = fromBinary(BadRequestSchema, detail.value).fieldViolations.map(
            (v) => ({ field: v.field, description: v.description }),
          );
          break;
        case ResourceInfoSchema.typeName:
          init.resourceName = fromBinary(ResourceInfoSchema, detail.value).resourceName;
          break;
        case RetryInfoSchema.typeName: {
          const delay = fromBinary(RetryInfoSchema, detail.value).retryDelay;
          if (delay) {
            init.retryAfterMs = Number(delay.seconds) * 1000 + delay.nanos / 1e6;
          }
          break;
        }
        default:
          break;
      }
    } catch {
      // A detail that does not decode is left out: the code and message still stand.
    }
  }
  return new (errorClassOf(init.code, init.reason ?? ""))(init);
}

/**
 * The typed error of a google.rpc.Status message, as GetWriteStatusResponse.error
 * and ScopeHits.error carry it.
 */
export function errorFromStatus(status: Status): MemorydError {
  return errorFromParts(
    status.code,
    status.message,
    status.details.map((any) => ({ type: any.typeUrl, value: any.value })),
  );
}

/**
 * The typed error of anything a call threw: a MemorydError as it is, a failed
 * or broken connection (a refused socket, a failed TLS handshake, an untrusted
 * server certificate) as UnavailableError, a ConnectError (or any other error)
 * by its code, ErrorInfo reason and details.
 */
export function toMemorydError(error: unknown): MemorydError {
  if (error instanceof MemorydError) {
    return error;
  }
  const connectError = connectionFailure(error) ?? ConnectError.from(error);
  const details: StatusDetail[] = [];
  for (const detail of connectError.details) {
    if ("type" in detail) {
      details.push({ type: detail.type, value: detail.value });
    }
  }
  return errorFromParts(connectError.code, connectError.rawMessage, details, error);
}
