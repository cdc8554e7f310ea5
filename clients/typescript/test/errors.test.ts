import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create, toBinary } from "@bufbuild/protobuf";
import { anyPack, durationFromMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  BadRequestSchema,
  ErrorInfoSchema,
  ResourceInfoSchema,
  RetryInfoSchema,
} from "../src/gen/google/rpc/error_details_pb.js";
import {
  BadRequestError,
  CLASS_OF_CODE,
  ChangeHistoryExpiredError,
  CLASS_OF_REASON,
  DeadlineExceededError,
  ErrorReason,
  FailedPreconditionError,
  ErrorReasonSchema,
  InvalidArgumentError,
  MemorydError,
  MemoryNotFoundError,
  NotFoundError,
  RateLimitedError,
  ReembedInProgressError,
  ResourceExhaustedError,
  ShuttingDownError,
  StatusSchema,
  TransientError,
  UnavailableError,
  UnknownWriteTokenError,
  errorFromParts,
  errorFromStatus,
  toMemorydError,
} from "../src/index.js";

const pascal = (name: string): string =>
  name
    .toLowerCase()
    .split("_")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");

function errorInfo(reason: string, metadata: Record<string, string> = {}) {
  return {
    type: ErrorInfoSchema.typeName,
    value: toBinary(ErrorInfoSchema, create(ErrorInfoSchema, { reason, domain: "memoryd", metadata })),
  };
}

describe("typed errors", () => {
  it("maps every ErrorReason value to a class of its own", () => {
    const reasons = ErrorReasonSchema.values.filter((v) => v.number !== ErrorReason.UNSPECIFIED);
    assert.equal(reasons.length, 18);
    const seen = new Set<unknown>();
    const codeClasses = new Set<unknown>(Object.values(CLASS_OF_CODE));
    for (const value of reasons) {
      const reason = value.name.replace(/^ERROR_REASON_/, "");
      const kind = CLASS_OF_REASON[reason];
      assert.ok(kind, `no class for ${reason}`);
      assert.equal(kind.name, `${pascal(reason)}Error`);
      assert.ok(!seen.has(kind), `${reason} shares its class`);
      assert.ok(!codeClasses.has(kind), `${reason} maps to a code-level class`);
      seen.add(kind);
      const error = errorFromParts(Code.Internal, "boom", [errorInfo(reason)]);
      assert.ok(error instanceof kind);
      assert.ok(error instanceof MemorydError);
      assert.equal(error.reason, reason);
    }
  });

  it("puts each reason class under the class of its status code", () => {
    const cases: [number, string, new (...a: never[]) => MemorydError][] = [
      [Code.NotFound, "MEMORY_NOT_FOUND", NotFoundError],
      [Code.NotFound, "UNKNOWN_WRITE_TOKEN", NotFoundError],
      [Code.InvalidArgument, "INVALID_ARGUMENT", BadRequestError],
      [Code.Unavailable, "SHUTTING_DOWN", UnavailableError],
      [Code.ResourceExhausted, "RATE_LIMITED", ResourceExhaustedError],
      [Code.DeadlineExceeded, "WRITE_NOT_YET_APPLIED", DeadlineExceededError],
      [Code.OutOfRange, "CHANGE_HISTORY_EXPIRED", BadRequestError],
      [Code.FailedPrecondition, "REEMBED_IN_PROGRESS", FailedPreconditionError],
    ];
    for (const [code, reason, base] of cases) {
      const error = errorFromParts(code, "m", [errorInfo(reason)]);
      assert.ok(error instanceof base, `${reason} is not a ${base.name}`);
    }
    assert.ok(errorFromParts(Code.Unavailable, "m", [errorInfo("SHUTTING_DOWN")]) instanceof TransientError);
    const expired = errorFromParts(Code.OutOfRange, "resume after 7 is past the end", [errorInfo("CHANGE_HISTORY_EXPIRED")]);
    assert.ok(expired instanceof ChangeHistoryExpiredError);
    assert.equal(expired.code, "OUT_OF_RANGE");
    const reembedding = errorFromParts(Code.FailedPrecondition, "busy", [errorInfo("REEMBED_IN_PROGRESS")]);
    assert.ok(reembedding instanceof ReembedInProgressError);
    assert.ok(!(reembedding instanceof TransientError));
  });

  it("falls back to the class of the code for an unknown or missing reason", () => {
    const unknown = errorFromParts(Code.NotFound, "gone", [errorInfo("SOMETHING_NEW")]);
    assert.equal(unknown.constructor, NotFoundError);
    assert.equal(unknown.reason, "SOMETHING_NEW");
    const bare = errorFromParts(Code.Unavailable, "no route", []);
    assert.equal(bare.constructor, UnavailableError);
    assert.equal(bare.reason, "");
    assert.equal(bare.code, "UNAVAILABLE");
    assert.equal(errorFromParts(99, "odd", []).code, "UNKNOWN");
  });

  it("ignores an ErrorInfo of another domain", () => {
    const value = toBinary(ErrorInfoSchema, create(ErrorInfoSchema, { reason: "MEMORY_NOT_FOUND", domain: "other" }));
    const error = errorFromParts(Code.NotFound, "m", [{ type: ErrorInfoSchema.typeName, value }]);
    assert.equal(error.constructor, NotFoundError);
    assert.equal(error.reason, "");
  });

  it("reads field violations, retry delay, resource name and metadata", () => {
    const error = errorFromParts("RESOURCE_EXHAUSTED", "slow down", [
      errorInfo("RATE_LIMITED", { limit: "20" }),
      {
        type: `type.googleapis.com/${RetryInfoSchema.typeName}`,
        value: toBinary(RetryInfoSchema, create(RetryInfoSchema, { retryDelay: durationFromMs(1500) })),
      },
    ]);
    assert.ok(error instanceof RateLimitedError);
    assert.equal(error.retryAfterMs, 1500);
    assert.deepEqual(error.metadata, { limit: "20" });

    const bad = errorFromParts(Code.InvalidArgument, "bad", [
      errorInfo("INVALID_ARGUMENT"),
      {
        type: BadRequestSchema.typeName,
        value: toBinary(
          BadRequestSchema,
          create(BadRequestSchema, { fieldViolations: [{ field: "memory.content", description: "empty" }] }),
        ),
      },
    ]);
    assert.ok(bad instanceof InvalidArgumentError);
    assert.deepEqual(bad.fieldViolations, [{ field: "memory.content", description: "empty" }]);

    const missing = errorFromParts(Code.NotFound, "no", [
      errorInfo("MEMORY_NOT_FOUND"),
      {
        type: ResourceInfoSchema.typeName,
        value: toBinary(ResourceInfoSchema, create(ResourceInfoSchema, { resourceName: "m-1" })),
      },
    ]);
    assert.ok(missing instanceof MemoryNotFoundError);
    assert.equal(missing.memoryId, "m-1");
  });

  it("converts a google.rpc.Status message (GetWriteStatus, ScopeHits)", () => {
    const status = create(StatusSchema, {
      code: Code.NotFound,
      message: "unknown token",
      details: [anyPack(ErrorInfoSchema, create(ErrorInfoSchema, { reason: "UNKNOWN_WRITE_TOKEN", domain: "memoryd" }))],
    });
    const error = errorFromStatus(status);
    assert.ok(error instanceof UnknownWriteTokenError);
    assert.equal(error.message, "unknown token");
    assert.equal(error.name, "UnknownWriteTokenError");
  });

  it("converts a ConnectError with incoming details, and keeps it as the cause", () => {
    const connectError = new ConnectError("stopping", Code.Unavailable);
    connectError.details = [errorInfo("SHUTTING_DOWN")];
    const error = toMemorydError(connectError);
    assert.ok(error instanceof ShuttingDownError);
    assert.equal(error.message, "stopping");
    assert.equal(error.cause, connectError);
    assert.equal(toMemorydError(error), error);
    const deadline = toMemorydError(new ConnectError("late", Code.DeadlineExceeded));
    assert.ok(deadline instanceof DeadlineExceededError);
    assert.equal(deadline.reason, "");
  });
});
