import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ROOT_CONTEXT, TraceFlags, trace, createTraceState } from "@opentelemetry/api";
import { injectTraceContext, parseGrpcTimeout } from "../src/index.js";

describe("interceptors", () => {
  it("injects the W3C trace context of a span", () => {
    const context = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: "0af7651916cd43dd8448eb211c80319c",
      spanId: "b7ad6b7169203331",
      traceFlags: TraceFlags.SAMPLED,
      traceState: createTraceState("vendor=value"),
    });
    const headers = new Headers();
    injectTraceContext(headers, context);
    assert.equal(headers.get("traceparent"), "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
    assert.equal(headers.get("tracestate"), "vendor=value");
  });

  it("injects nothing without a span", () => {
    const headers = new Headers();
    injectTraceContext(headers, ROOT_CONTEXT);
    assert.equal(headers.get("traceparent"), null);
  });

  it("reads grpc-timeout values", () => {
    assert.equal(parseGrpcTimeout("250m"), 250);
    assert.equal(parseGrpcTimeout("5S"), 5000);
    assert.equal(parseGrpcTimeout("2M"), 120000);
    assert.equal(parseGrpcTimeout(null), undefined);
    assert.equal(parseGrpcTimeout("soon"), undefined);
  });
});
