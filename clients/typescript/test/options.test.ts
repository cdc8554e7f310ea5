import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createMemorydClient, resolveOptions } from "../src/index.js";

describe("options", () => {
  it("has documented defaults", () => {
    const options = resolveOptions();
    assert.equal(options.address, "localhost:50051");
    assert.equal(options.host, "localhost");
    assert.equal(options.port, 50051);
    assert.equal(options.tls, undefined);
    assert.equal(options.token, undefined);
    assert.equal(options.timeoutMs, 5000);
    assert.equal(options.maxAttempts, 4);
    assert.equal(options.initialBackoffMs, 100);
    assert.equal(options.maxBackoffMs, 1000);
  });

  it("accepts IPv6, TLS material and an API key", () => {
    const options = resolveOptions({ address: "[::1]:6000", tls: { ca: "PEM", cert: "C", key: "K" }, apiKey: "k" });
    assert.equal(options.host, "[::1]");
    assert.equal(options.port, 6000);
    assert.equal(options.token, "k");
    assert.deepEqual(options.tls, { ca: "PEM", cert: "C", key: "K" });
  });

  it("says how to fix a bad value", () => {
    const cases: [object, RegExp][] = [
      [{ address: "http://localhost:50051" }, /has a scheme; pass 'host:port'/],
      [{ address: "localhost" }, /is not 'host:port'; pass e\.g\. 'localhost:50051'/],
      [{ address: "localhost:70000" }, /port 1-65535/],
      [{ address: " localhost:1" }, /empty or padded/],
      [{ tls: { cert: "C" } }, /mutual TLS needs both tls\.cert and tls\.key/],
      [{ token: "a", apiKey: "b" }, /set one of them/],
      [{ token: "two\nlines" }, /single-line/],
      [{ timeoutMs: 0 }, /timeoutMs is 0; pass a positive number of milliseconds/],
      [{ maxAttempts: 9 }, /from 1 \(no retries\) to 5/],
      [{ initialBackoffMs: 500, maxBackoffMs: 100 }, /raise maxBackoffMs/],
    ];
    for (const [options, message] of cases) {
      assert.throws(() => resolveOptions(options), message);
      assert.throws(() => createMemorydClient(options), message);
    }
  });
});
