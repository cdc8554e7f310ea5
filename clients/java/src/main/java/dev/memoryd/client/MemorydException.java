package dev.memoryd.client;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.BadRequest;
import com.google.rpc.ErrorInfo;
import com.google.rpc.ResourceInfo;
import com.google.rpc.RetryInfo;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A memoryd call failed. Every failure of a {@link MemorydClient} call is one of its
 * subclasses: the class of the error's reason (the contract's {@code ErrorReason}, e.g.
 * {@link MemoryNotFoundException} for {@code MEMORY_NOT_FOUND}), which extends the class of
 * its status code ({@link NotFoundException}). A reason this client does not know yet gives
 * the class of its code; an error without a reason (a transport failure, a deadline that
 * passed in the client) too.
 *
 * <pre>
 * MemorydException                         any failed call (code, reason, statusMessage, ...)
 *   InvalidArgumentException                 INVALID_ARGUMENT, OUT_OF_RANGE; reason INVALID_ARGUMENT
 *     MessageTooLargeException                 MESSAGE_TOO_LARGE
 *     ChangeHistoryExpiredException            CHANGE_HISTORY_EXPIRED (OUT_OF_RANGE)
 *   NotFoundException                        NOT_FOUND
 *     MemoryNotFoundException                  MEMORY_NOT_FOUND
 *     UnknownWriteTokenException               UNKNOWN_WRITE_TOKEN
 *   AbortedException                         ABORTED
 *     VersionMismatchException                 VERSION_MISMATCH
 *   PermissionDeniedException                PERMISSION_DENIED
 *     ScopeNotPermittedException               SCOPE_NOT_PERMITTED
 *   UnauthenticatedException                 UNAUTHENTICATED; reason UNAUTHENTICATED
 *   FailedPreconditionException              FAILED_PRECONDITION
 *     IncompatibleIndexException               INCOMPATIBLE_INDEX
 *     ReembedInProgressException               REEMBED_IN_PROGRESS
 *   UnimplementedException                   UNIMPLEMENTED
 *   InternalException                        INTERNAL, UNKNOWN, DATA_LOSS; reason INTERNAL
 *   TransientException                       may succeed if tried again later
 *     CancelledException                       CANCELLED
 *     UnavailableException                     UNAVAILABLE (after the retry policy's attempts)
 *       EmbeddingUnavailableException            EMBEDDING_UNAVAILABLE
 *       ShuttingDownException                    SHUTTING_DOWN
 *       WriteFailedException                     WRITE_FAILED
 *     DeadlineExceededException                DEADLINE_EXCEEDED
 *       WriteNotYetAppliedException              WRITE_NOT_YET_APPLIED
 *       PreloadScopeTimedOutException            PRELOAD_SCOPE_TIMED_OUT
 *       WriteInFlightException                   WRITE_IN_FLIGHT (raised by this client)
 *     ResourceExhaustedException               RESOURCE_EXHAUSTED, with retryAfter
 *       WriteBacklogFullException                WRITE_BACKLOG_FULL
 *       RateLimitedException                     RATE_LIMITED
 * </pre>
 */
public class MemorydException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The ErrorInfo domain of memoryd's reasons; another domain's reason is not ours. */
  public static final String DOMAIN = "memoryd";

  /**
   * What a failed call's status says.
   *
   * @param code the gRPC status code
   * @param reason the ErrorInfo reason ("MEMORY_NOT_FOUND"); "" when there is none
   * @param message the status message
   * @param fieldViolations the BadRequest's field violations; empty when none
   * @param retryAfter the RetryInfo delay; null when none
   * @param resourceName the ResourceInfo's resource name; "" when none
   * @param metadata the ErrorInfo metadata
   */
  public record Details(
      Status.Code code,
      String reason,
      String message,
      List<FieldViolation> fieldViolations,
      Duration retryAfter,
      String resourceName,
      Map<String, String> metadata)
      implements java.io.Serializable {
    public Details {
      reason = reason == null ? "" : reason;
      message = message == null ? "" : message;
      fieldViolations = List.copyOf(fieldViolations == null ? List.of() : fieldViolations);
      resourceName = resourceName == null ? "" : resourceName;
      metadata = Map.copyOf(metadata == null ? Map.of() : metadata);
    }

    /** Details with only a code, a reason and a message. */
    public static Details of(Status.Code code, String reason, String message) {
      return new Details(code, reason, message, List.of(), null, "", Map.of());
    }
  }

  private final Details details;
  private String writeToken = "";

  /** An error with these details; normally built by {@link #from}. */
  public MemorydException(Details details) {
    super(
        details.code()
            + ": "
            + details.message()
            + (details.reason().isEmpty() ? "" : " (" + details.reason() + ")"));
    this.details = details;
  }

  /** The gRPC status code. */
  public Status.Code code() {
    return details.code();
  }

  /**
   * The ErrorInfo reason: the contract's ErrorReason value name without the {@code
   * ERROR_REASON_} prefix ("MEMORY_NOT_FOUND"), or "" when the server sent none.
   */
  public String reason() {
    return details.reason();
  }

  /** The status message as the server (or gRPC) wrote it, without code or reason. */
  public String statusMessage() {
    return details.message();
  }

  /** Each bad field of the request (from a google.rpc.BadRequest); empty when none. */
  public List<FieldViolation> fieldViolations() {
    return details.fieldViolations();
  }

  /** How long the server asks the caller to wait before retrying (google.rpc.RetryInfo). */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(details.retryAfter());
  }

  /** The resource the error is about (google.rpc.ResourceInfo); "" when none. */
  public String resourceName() {
    return details.resourceName();
  }

  /** The ErrorInfo metadata (e.g. size_bytes, incident). */
  public Map<String, String> metadata() {
    return details.metadata();
  }

  /**
   * The write_token of the asynchronous write this error is the outcome of: set when {@link
   * MemorydClient#waitForWrite} found the write FAILED (the error is then the write's own, as
   * GetWriteStatus reported it); "" for the error of a call.
   */
  public String writeToken() {
    return writeToken;
  }

  /** All of the above at once. */
  public Details details() {
    return details;
  }

  /**
   * The typed error of a failed gRPC call: from the rich google.rpc.Status in its trailers
   * when the server sent one, else from the bare status. A MemorydException is returned as
   * it is; any other throwable becomes UNKNOWN.
   */
  public static MemorydException from(Throwable error) {
    if (error instanceof MemorydException typed) {
      return typed;
    }
    com.google.rpc.Status rich = StatusProto.fromThrowable(error);
    if (rich != null) {
      return fromStatus(rich);
    }
    Status status = Status.fromThrowable(error);
    String message = status.getDescription();
    if (message == null) {
      message =
          status.getCause() != null && status.getCause().getMessage() != null
              ? status.getCause().getMessage()
              : status.getCode().name();
    }
    MemorydException typed = create(Details.of(status.getCode(), "", message));
    if (error instanceof StatusRuntimeException || error instanceof StatusException) {
      typed.initCause(error);
    }
    return typed;
  }

  /**
   * The typed error of a google.rpc.Status, as sent in trailers or in GetWriteStatusResponse's
   * {@code error}: the class of its reason, else of its code.
   */
  public static MemorydException fromStatus(com.google.rpc.Status status) {
    String reason = "";
    Map<String, String> metadata = Map.of();
    List<FieldViolation> violations = new ArrayList<>();
    Duration retryAfter = null;
    String resourceName = "";
    for (Any detail : status.getDetailsList()) {
      try {
        if (detail.is(ErrorInfo.class)) {
          ErrorInfo info = detail.unpack(ErrorInfo.class);
          if (info.getDomain().isEmpty() || info.getDomain().equals(DOMAIN)) {
            reason = info.getReason();
            metadata = info.getMetadataMap();
          }
        } else if (detail.is(BadRequest.class)) {
          for (BadRequest.FieldViolation v : detail.unpack(BadRequest.class).getFieldViolationsList()) {
            violations.add(new FieldViolation(v.getField(), v.getDescription()));
          }
        } else if (detail.is(ResourceInfo.class)) {
          resourceName = detail.unpack(ResourceInfo.class).getResourceName();
        } else if (detail.is(RetryInfo.class)) {
          com.google.protobuf.Duration delay = detail.unpack(RetryInfo.class).getRetryDelay();
          retryAfter = Duration.ofSeconds(delay.getSeconds(), delay.getNanos());
        }
      } catch (InvalidProtocolBufferException malformed) {
        // A detail that does not parse tells nothing; the code and message still do.
      }
    }
    Status.Code code = Status.fromCodeValue(status.getCode()).getCode();
    return create(
        new Details(code, reason, status.getMessage(), violations, retryAfter, resourceName, metadata));
  }

  /**
   * The typed error of a write that FAILED when applied: the class of {@code error}'s reason
   * (else code), its message prefixed with the write, {@link #writeToken()} set, and the
   * error as the server reported it as the cause.
   */
  static MemorydException ofFailedWrite(String writeToken, com.google.rpc.Status error) {
    MemorydException cause =
        error == null || error.getCode() == Status.Code.OK.value()
            ? create(Details.of(Status.Code.UNKNOWN, "", "the write failed without a status"))
            : fromStatus(error);
    Details d = cause.details();
    MemorydException failed = create(new Details(
        d.code(), d.reason(), "write " + writeToken + " failed: " + d.message(),
        d.fieldViolations(), d.retryAfter(), d.resourceName(), d.metadata()));
    failed.writeToken = writeToken;
    failed.initCause(cause);
    return failed;
  }

  /** The error of the class its details call for (see the class comment). */
  public static MemorydException create(Details details) {
    Function<Details, MemorydException> constructor = ErrorClasses.BY_REASON.get(details.reason());
    if (constructor == null) {
      constructor = ErrorClasses.BY_CODE.getOrDefault(details.code(), MemorydException::new);
    }
    return constructor.apply(details);
  }
}
