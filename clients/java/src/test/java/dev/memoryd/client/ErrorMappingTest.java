package dev.memoryd.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Any;
import com.google.rpc.BadRequest;
import com.google.rpc.ErrorInfo;
import com.google.rpc.ResourceInfo;
import com.google.rpc.RetryInfo;
import dev.memoryd.v1.ErrorReason;
import io.grpc.Status;
import io.grpc.protobuf.StatusProto;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ErrorMappingTest {
  private static com.google.rpc.Status status(Status.Code code, String reason, Any... details) {
    com.google.rpc.Status.Builder status =
        com.google.rpc.Status.newBuilder().setCode(code.value()).setMessage("it failed");
    if (reason != null) {
      status.addDetails(
          Any.pack(ErrorInfo.newBuilder().setDomain("memoryd").setReason(reason).build()));
    }
    for (Any detail : details) {
      status.addDetails(detail);
    }
    return status.build();
  }

  /** VERSION_MISMATCH -> VersionMismatchException. */
  private static String className(String reason) {
    StringBuilder name = new StringBuilder();
    for (String word : reason.toLowerCase(Locale.ROOT).split("_")) {
      name.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
    }
    return name.append("Exception").toString();
  }

  @Test
  void everyErrorReasonMapsToItsOwnClass() {
    Map<Class<?>, String> seen = new HashMap<>();
    int reasons = 0;
    for (ErrorReason value : ErrorReason.values()) {
      if (value == ErrorReason.ERROR_REASON_UNSPECIFIED || value == ErrorReason.UNRECOGNIZED) {
        continue;
      }
      reasons++;
      String reason = value.name().substring("ERROR_REASON_".length());
      MemorydException error = MemorydException.fromStatus(status(Status.Code.UNKNOWN, reason));
      assertEquals(className(reason), error.getClass().getSimpleName(), reason);
      assertEquals(reason, error.reason());
      String other = seen.put(error.getClass(), reason);
      assertEquals(null, other, reason + " shares its class with " + other);
    }
    assertTrue(reasons >= 18, "the contract has at least 18 reasons");
  }

  @Test
  void reasonClassesExtendTheirCodeClasses() {
    assertInstanceOf(NotFoundException.class, MemorydException.fromStatus(status(Status.Code.NOT_FOUND, "MEMORY_NOT_FOUND")));
    assertInstanceOf(AbortedException.class, MemorydException.fromStatus(status(Status.Code.ABORTED, "VERSION_MISMATCH")));
    assertInstanceOf(InvalidArgumentException.class, MemorydException.fromStatus(status(Status.Code.INVALID_ARGUMENT, "MESSAGE_TOO_LARGE")));
    assertInstanceOf(PermissionDeniedException.class, MemorydException.fromStatus(status(Status.Code.PERMISSION_DENIED, "SCOPE_NOT_PERMITTED")));
    assertInstanceOf(ResourceExhaustedException.class, MemorydException.fromStatus(status(Status.Code.RESOURCE_EXHAUSTED, "RATE_LIMITED")));
    assertInstanceOf(ResourceExhaustedException.class, MemorydException.fromStatus(status(Status.Code.RESOURCE_EXHAUSTED, "WRITE_BACKLOG_FULL")));
    assertInstanceOf(UnavailableException.class, MemorydException.fromStatus(status(Status.Code.UNAVAILABLE, "SHUTTING_DOWN")));
    assertInstanceOf(DeadlineExceededException.class, MemorydException.fromStatus(status(Status.Code.DEADLINE_EXCEEDED, "WRITE_NOT_YET_APPLIED")));
    assertInstanceOf(TransientException.class, MemorydException.fromStatus(status(Status.Code.UNAVAILABLE, "EMBEDDING_UNAVAILABLE")));
    assertInstanceOf(FailedPreconditionException.class, MemorydException.fromStatus(status(Status.Code.FAILED_PRECONDITION, "INCOMPATIBLE_INDEX")));
    assertInstanceOf(FailedPreconditionException.class, MemorydException.fromStatus(status(Status.Code.FAILED_PRECONDITION, "REEMBED_IN_PROGRESS")));
    MemorydException expired = MemorydException.fromStatus(status(Status.Code.OUT_OF_RANGE, "CHANGE_HISTORY_EXPIRED"));
    assertInstanceOf(ChangeHistoryExpiredException.class, expired);
    assertInstanceOf(InvalidArgumentException.class, expired);
    assertEquals(Status.Code.OUT_OF_RANGE, expired.code());
  }

  @Test
  void unknownReasonsAndMissingReasonsFallBackToTheCodeClass() {
    assertSame(NotFoundException.class, MemorydException.fromStatus(status(Status.Code.NOT_FOUND, "SOMETHING_NEW")).getClass());
    assertSame(UnavailableException.class, MemorydException.fromStatus(status(Status.Code.UNAVAILABLE, null)).getClass());
    assertSame(InvalidArgumentException.class, MemorydException.fromStatus(status(Status.Code.OUT_OF_RANGE, null)).getClass());
    assertSame(InternalException.class, MemorydException.fromStatus(status(Status.Code.DATA_LOSS, null)).getClass());
    assertSame(MemorydException.class, MemorydException.fromStatus(status(Status.Code.ALREADY_EXISTS, null)).getClass());
    // Another domain's reason is not memoryd's.
    com.google.rpc.Status foreign = com.google.rpc.Status.newBuilder()
        .setCode(Status.Code.NOT_FOUND.value())
        .addDetails(Any.pack(ErrorInfo.newBuilder().setDomain("example.com").setReason("MEMORY_NOT_FOUND").build()))
        .build();
    MemorydException error = MemorydException.fromStatus(foreign);
    assertSame(NotFoundException.class, error.getClass());
    assertEquals("", error.reason());
  }

  @Test
  void detailsAreRead() {
    MemorydException invalid = MemorydException.fromStatus(status(Status.Code.INVALID_ARGUMENT, "INVALID_ARGUMENT",
        Any.pack(BadRequest.newBuilder().addFieldViolations(BadRequest.FieldViolation.newBuilder()
            .setField("memory.content").setDescription("must not be empty")).build())));
    assertEquals(java.util.List.of(new FieldViolation("memory.content", "must not be empty")), invalid.fieldViolations());
    assertEquals(Status.Code.INVALID_ARGUMENT, invalid.code());
    assertEquals("it failed", invalid.statusMessage());
    assertEquals("INVALID_ARGUMENT: it failed (INVALID_ARGUMENT)", invalid.getMessage());

    MemorydException limited = MemorydException.fromStatus(status(Status.Code.RESOURCE_EXHAUSTED, "RATE_LIMITED",
        Any.pack(RetryInfo.newBuilder().setRetryDelay(com.google.protobuf.Duration.newBuilder().setSeconds(1).setNanos(500_000_000)).build())));
    assertEquals(Duration.ofMillis(1500), limited.retryAfter().orElseThrow());

    MemoryNotFoundException missing = (MemoryNotFoundException) MemorydException.fromStatus(status(Status.Code.NOT_FOUND, "MEMORY_NOT_FOUND",
        Any.pack(ResourceInfo.newBuilder().setResourceName("m-1").build())));
    assertEquals("m-1", missing.memoryId());
    assertTrue(missing.retryAfter().isEmpty());

    com.google.rpc.Status large = com.google.rpc.Status.newBuilder().setCode(Status.Code.INVALID_ARGUMENT.value())
        .addDetails(Any.pack(ErrorInfo.newBuilder().setDomain("memoryd").setReason("MESSAGE_TOO_LARGE")
            .putMetadata("size_bytes", "9000000").putMetadata("limit_bytes", "8388608").build())).build();
    MessageTooLargeException tooLarge = (MessageTooLargeException) MemorydException.fromStatus(large);
    assertEquals(9_000_000L, tooLarge.sizeBytes());
    assertEquals(8_388_608L, tooLarge.limitBytes());
  }

  @Test
  void failedCallsAreTranslatedWithOrWithoutRichStatus() {
    MemorydException rich = MemorydException.from(
        StatusProto.toStatusRuntimeException(status(Status.Code.NOT_FOUND, "UNKNOWN_WRITE_TOKEN")));
    assertInstanceOf(UnknownWriteTokenException.class, rich);

    MemorydException bare = MemorydException.from(
        Status.DEADLINE_EXCEEDED.withDescription("deadline passed").asRuntimeException());
    assertSame(DeadlineExceededException.class, bare.getClass());
    assertEquals("", bare.reason());
    assertEquals("deadline passed", bare.statusMessage());

    assertInstanceOf(InternalException.class, MemorydException.from(new IllegalStateException("boom")));
  }
}
