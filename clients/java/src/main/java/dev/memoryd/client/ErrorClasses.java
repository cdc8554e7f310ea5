package dev.memoryd.client;

import io.grpc.Status;
import java.util.Map;
import java.util.function.Function;

/** Which exception class each ErrorInfo reason and each status code raises. */
final class ErrorClasses {
  /** The reason WriteInFlightException carries; the client raises it itself. */
  static final String WRITE_IN_FLIGHT = "WRITE_IN_FLIGHT";

  /**
   * Each ErrorReason of the contract (the value's name without ERROR_REASON_), and the reason
   * this client raises itself.
   */
  static final Map<String, Function<MemorydException.Details, MemorydException>> BY_REASON =
      Map.ofEntries(
          Map.entry("INVALID_ARGUMENT", InvalidArgumentException::new),
          Map.entry("MESSAGE_TOO_LARGE", MessageTooLargeException::new),
          Map.entry("MEMORY_NOT_FOUND", MemoryNotFoundException::new),
          Map.entry("UNKNOWN_WRITE_TOKEN", UnknownWriteTokenException::new),
          Map.entry("VERSION_MISMATCH", VersionMismatchException::new),
          Map.entry("INCOMPATIBLE_INDEX", IncompatibleIndexException::new),
          Map.entry("EMBEDDING_UNAVAILABLE", EmbeddingUnavailableException::new),
          Map.entry("WRITE_BACKLOG_FULL", WriteBacklogFullException::new),
          Map.entry("SHUTTING_DOWN", ShuttingDownException::new),
          Map.entry("WRITE_NOT_YET_APPLIED", WriteNotYetAppliedException::new),
          Map.entry("WRITE_FAILED", WriteFailedException::new),
          Map.entry("PRELOAD_SCOPE_TIMED_OUT", PreloadScopeTimedOutException::new),
          Map.entry("UNAUTHENTICATED", UnauthenticatedException::new),
          Map.entry("SCOPE_NOT_PERMITTED", ScopeNotPermittedException::new),
          Map.entry("RATE_LIMITED", RateLimitedException::new),
          Map.entry("INTERNAL", InternalException::new),
          Map.entry("CHANGE_HISTORY_EXPIRED", ChangeHistoryExpiredException::new),
          Map.entry("REEMBED_IN_PROGRESS", ReembedInProgressException::new),
          Map.entry(WRITE_IN_FLIGHT, WriteInFlightException::new));

  /** The class of an error without a reason this client knows. */
  static final Map<Status.Code, Function<MemorydException.Details, MemorydException>> BY_CODE =
      Map.ofEntries(
          Map.entry(Status.Code.INVALID_ARGUMENT, InvalidArgumentException::new),
          Map.entry(Status.Code.OUT_OF_RANGE, InvalidArgumentException::new),
          Map.entry(Status.Code.NOT_FOUND, NotFoundException::new),
          Map.entry(Status.Code.ABORTED, AbortedException::new),
          Map.entry(Status.Code.PERMISSION_DENIED, PermissionDeniedException::new),
          Map.entry(Status.Code.UNAUTHENTICATED, UnauthenticatedException::new),
          Map.entry(Status.Code.FAILED_PRECONDITION, FailedPreconditionException::new),
          Map.entry(Status.Code.UNIMPLEMENTED, UnimplementedException::new),
          Map.entry(Status.Code.UNAVAILABLE, UnavailableException::new),
          Map.entry(Status.Code.DEADLINE_EXCEEDED, DeadlineExceededException::new),
          Map.entry(Status.Code.RESOURCE_EXHAUSTED, ResourceExhaustedException::new),
          Map.entry(Status.Code.CANCELLED, CancelledException::new),
          Map.entry(Status.Code.INTERNAL, InternalException::new),
          Map.entry(Status.Code.UNKNOWN, InternalException::new),
          Map.entry(Status.Code.DATA_LOSS, InternalException::new));

  private ErrorClasses() {}
}
