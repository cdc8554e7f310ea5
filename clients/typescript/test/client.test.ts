/**
 * The client against an in-process memoryd stand-in (a connect-node gRPC server
 * on a loopback port) that records what it is sent.
 */
import assert from "node:assert/strict";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { after, before, beforeEach, describe, it } from "node:test";
import { Code, ConnectError, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { BadRequestSchema, ErrorInfoSchema } from "../src/gen/google/rpc/error_details_pb.js";
import {
  ChangeHistoryExpiredError,
  ChangeType,
  InvalidArgumentError,
  MemoryNotFoundError,
  MemoryService,
  PreloadScope,
  UnavailableError,
  WriteInFlightError,
  WriteOutcome,
  createMemorydClient,
  type MemorydClient,
  type PreloadEvent,
  type WatchEvent,
} from "../src/index.js";

interface Seen {
  method: string;
  timeoutMs?: number;
  startAfterSequence?: bigint;
  requestId?: string;
  consistencyToken?: string;
  headers: Record<string, string>;
}

/** A promise and the function that resolves it. */
function signalled(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const state = {
  seen: [] as Seen[],
  writeCount: 0,
  unavailableLeft: 0,
  createDelayMs: 0,
  refuseTokens: new Set<string>(),
  /** Resolves when a watch that waits for the client to stop sees the call cancelled. */
  watchCancelled: signalled(),
};

function record(method: string, context: HandlerContext, fields: Partial<Seen> = {}): void {
  const headers: Record<string, string> = {};
  context.requestHeader.forEach((value, key) => {
    headers[key] = value;
  });
  state.seen.push({ method, headers, ...fields });
}

function refuseToken(token: string): void {
  if (state.refuseTokens.has(token)) {
    throw new ConnectError("unknown consistency_token", Code.InvalidArgument, undefined, [
      { desc: ErrorInfoSchema, value: { reason: "INVALID_ARGUMENT", domain: "memoryd" } },
      { desc: BadRequestSchema, value: { fieldViolations: [{ field: "consistency_token", description: "unknown" }] } },
    ]);
  }
}

const MEMORIES = Array.from({ length: 5 }, (_, i) => ({ id: `m${i}`, content: `memory ${i}` }));

function routes(router: ConnectRouter): void {
  router.service(MemoryService, {
    async createMemory(request, context) {
      record("CreateMemory", context, { requestId: request.requestId });
      if (state.createDelayMs) {
        await new Promise((resolve) => setTimeout(resolve, state.createDelayMs));
      }
      return { memory: request.memory, outcome: WriteOutcome.ACCEPTED, writeToken: `t-${++state.writeCount}` };
    },
    async forgetMemories(request, context) {
      record("ForgetMemories", context, { requestId: request.requestId });
      return { writeToken: `t-${++state.writeCount}` };
    },
    async getMemory(request, context) {
      record("GetMemory", context, { consistencyToken: request.consistencyToken });
      refuseToken(request.consistencyToken);
      if (request.id === "missing") {
        throw new ConnectError("no such memory", Code.NotFound, undefined, [
          { desc: ErrorInfoSchema, value: { reason: "MEMORY_NOT_FOUND", domain: "memoryd" } },
        ]);
      }
      return { memory: { id: request.id, scope: request.scope } };
    },
    async searchMemories(request, context) {
      record("SearchMemories", context, { consistencyToken: request.consistencyToken });
      if (state.unavailableLeft > 0) {
        state.unavailableLeft--;
        throw new ConnectError("try again", Code.Unavailable);
      }
      return { results: [] };
    },
    async listMemories(request, context) {
      record("ListMemories", context, { consistencyToken: request.consistencyToken });
      const start = request.pageToken ? Number(request.pageToken) : 0;
      const end = start + (request.pageSize || 50);
      return {
        memories: MEMORIES.slice(start, end),
        nextPageToken: end < MEMORIES.length ? String(end) : "",
      };
    },
    async *watchMemories(request, context) {
      record("WatchMemories", context, { timeoutMs: context.timeoutMs(), startAfterSequence: request.startAfterSequence });
      if (state.unavailableLeft > 0) {
        state.unavailableLeft--;
        throw new ConnectError("try again", Code.Unavailable);
      }
      if (request.startAfterSequence === 999n) {
        throw new ConnectError("start_after_sequence 999 is past the end of the change history (42)", Code.OutOfRange, undefined, [
          { desc: ErrorInfoSchema, value: { reason: "CHANGE_HISTORY_EXPIRED", domain: "memoryd" } },
        ]);
      }
      // Listen from the start: the client may cancel as soon as it has the events.
      const held = request.scope?.userId !== "slow";
      const seen = state.watchCancelled;
      const cancelled = new Promise<void>((resolve) => context.signal.addEventListener("abort", () => resolve(), { once: true }));
      if (held) {
        void cancelled.then(() => seen.resolve());
      }
      const after = request.startAfterSequence ?? 41n;
      yield { event: { case: "started", value: { afterSequence: after } } };
      yield {
        event: {
          case: "change",
          value: { sequence: after + 1n, type: ChangeType.CREATED, memory: { id: "m1", scope: request.scope } },
        },
      };
      if (!held) {
        yield { event: { case: "fellBehind", value: { resumeAfterSequence: after + 1n } } };
        return;
      }
      await cancelled;
    },
    async *preload(request, context) {
      record("Preload", context, { consistencyToken: request.consistencyToken });
      refuseToken(request.consistencyToken);
      if (request.ifNoneMatch === "etag-1") {
        yield { event: { case: "notModified", value: { etag: "etag-1" } } };
        return;
      }
      yield { event: { case: "hits", value: { scope: PreloadScope.USER } } };
      yield { event: { case: "context", value: { text: "[Long-term Memory Context]\n- x" } } };
      yield { event: { case: "done", value: { etag: "etag-1", userHitCount: 1 } } };
    },
  });
}

let server: http2.Http2Server;
let address = "";
let client: MemorydClient;

before(async () => {
  server = http2.createServer(connectNodeAdapter({ routes }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  client?.close();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  client?.close();
  client = createMemorydClient({ address, token: "secret", timeoutMs: 2000, initialBackoffMs: 1, maxBackoffMs: 5 });
  Object.assign(state, {
    seen: [],
    unavailableLeft: 0,
    createDelayMs: 0,
    refuseTokens: new Set(),
    watchCancelled: signalled(),
  });
});

const scope = { userId: "u1" };

describe("client", () => {
  it("gives every write a request_id, keeps a caller's, and sends credentials and x-request-id", async () => {
    await client.createMemory({ memory: { content: "a", scope } });
    await client.createMemory({ memory: { content: "b", scope }, requestId: "mine" });
    const [first, second] = state.seen;
    assert.match(first!.requestId!, /^[0-9a-f-]{36}$/);
    assert.equal(second!.requestId, "mine");
    assert.equal(first!.headers["authorization"], "Bearer secret");
    assert.match(first!.headers["x-request-id"]!, /^[0-9a-f-]{36}$/);
  });

  it("does not change the caller's request message", async () => {
    const request = { memory: { content: "a", scope } };
    await client.createMemory(request);
    assert.deepEqual(request, { memory: { content: "a", scope } });
  });

  it("sends the newest write_token of a scope with its reads, and not with other scopes'", async () => {
    await client.createMemory({ memory: { content: "a", scope } });
    const written = await client.createMemory({ memory: { content: "b", scope } });
    await client.getMemory({ id: "x", scope });
    await client.getMemory({ id: "x", scope: { userId: "other" } });
    await client.getMemory({ id: "x", scope, consistencyToken: "callers" });
    const reads = state.seen.filter((s) => s.method === "GetMemory").map((s) => s.consistencyToken);
    assert.deepEqual(reads, [written.writeToken, "", "callers"]);
  });

  it("covers shared memory through the forget wildcards", async () => {
    const forgot = await client.forgetMemories({ scope: { agentId: "bot" } });
    await client.searchMemories({ query: "q", scope: { agentId: "bot", appId: "app" } });
    await client.searchMemories({ query: "q", scope: { appId: "app" } });
    const reads = state.seen.filter((s) => s.method === "SearchMemories").map((s) => s.consistencyToken);
    assert.deepEqual(reads, [forgot.writeToken, forgot.writeToken]);
  });

  it("forgets a token the server refuses and reads again without it", async () => {
    const written = await client.createMemory({ memory: { content: "a", scope } });
    state.refuseTokens.add(written.writeToken);
    const response = await client.getMemory({ id: "x", scope });
    assert.equal(response.memory?.id, "x");
    const reads = state.seen.filter((s) => s.method === "GetMemory").map((s) => s.consistencyToken);
    assert.deepEqual(reads, [written.writeToken, ""]);
    assert.equal(client.writes.tokenFor(scope), "");
  });

  it("does not retry a token the caller set", async () => {
    state.refuseTokens.add("callers");
    await assert.rejects(client.getMemory({ id: "x", scope, consistencyToken: "callers" }), InvalidArgumentError);
  });

  it("waits for its own write in flight before a read of the scope", async () => {
    state.createDelayMs = 150;
    const writing = client.createMemory({ memory: { content: "slow", scope } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await client.getMemory({ id: "x", scope });
    const written = await writing;
    const order = state.seen.map((s) => s.method);
    assert.deepEqual(order, ["CreateMemory", "GetMemory"]);
    assert.equal(state.seen[1]!.consistencyToken, written.writeToken);
  });

  it("fails a read whose deadline passes while its scope's write is in flight", async () => {
    state.createDelayMs = 300;
    const writing = client.createMemory({ memory: { content: "slow", scope } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await assert.rejects(client.getMemory({ id: "x", scope }, { timeoutMs: 50 }), WriteInFlightError);
    await writing;
  });

  it("retries UNAVAILABLE up to maxAttempts", async () => {
    state.unavailableLeft = 3;
    await client.searchMemories({ query: "q", scope });
    assert.equal(state.seen.filter((s) => s.method === "SearchMemories").length, 4);
    const ids = new Set(state.seen.map((s) => s.headers["x-request-id"]));
    assert.equal(ids.size, 1, "every attempt carries the same x-request-id");
    state.seen = [];
    state.unavailableLeft = 10;
    await assert.rejects(client.searchMemories({ query: "q", scope }), UnavailableError);
    assert.equal(state.seen.length, 4);
  });

  it("throws typed errors with their reason", async () => {
    await assert.rejects(client.getMemory({ id: "missing", scope }), (error: unknown) => {
      assert.ok(error instanceof MemoryNotFoundError);
      assert.equal(error.code, "NOT_FOUND");
      assert.equal(error.reason, "MEMORY_NOT_FOUND");
      assert.equal(error.message, "no such memory");
      return true;
    });
  });

  it("pages through every memory with listAllMemories", async () => {
    const ids: string[] = [];
    for await (const memory of client.listAllMemories({ scope, pageSize: 2 })) {
      ids.push(memory.id);
    }
    assert.deepEqual(ids, ["m0", "m1", "m2", "m3", "m4"]);
    assert.equal(state.seen.length, 3);
  });

  it("streams Preload events and returns the context block", async () => {
    const events: PreloadEvent[] = [];
    for await (const event of client.preload({ query: "q", userScope: scope })) {
      events.push(event);
    }
    assert.deepEqual(
      events.map((e) => e.case),
      ["hits", "context", "done"],
    );
    assert.equal(await client.preloadContext({ query: "q", userScope: scope }), "[Long-term Memory Context]\n- x");
    assert.equal(await client.preloadContext({ query: "q", userScope: scope, ifNoneMatch: "etag-1" }), "");
  });

  it("retries Preload without a refused token before the first event", async () => {
    const written = await client.createMemory({ memory: { content: "a", scope } });
    state.refuseTokens.add(written.writeToken);
    assert.equal(await client.preloadContext({ query: "q", userScope: scope }), "[Long-term Memory Context]\n- x");
    const sent = state.seen.filter((s) => s.method === "Preload").map((s) => s.consistencyToken);
    assert.deepEqual(sent, [written.writeToken, ""]);
  });

  it("streams WatchMemories events, with no deadline unless one is given, to fell_behind", async () => {
    const events: WatchEvent[] = [];
    for await (const event of client.watch({ scope: { userId: "slow" } })) {
      events.push(event);
    }
    assert.deepEqual(
      events.map((e) => e.case),
      ["started", "change", "fellBehind"],
    );
    const [started, change, fellBehind] = events;
    assert.ok(started?.case === "started" && started.value.afterSequence === 41n);
    assert.ok(change?.case === "change" && change.value.sequence === 42n && change.value.type === ChangeType.CREATED);
    assert.equal(change.value.memory?.id, "m1");
    assert.ok(fellBehind?.case === "fellBehind" && fellBehind.value.resumeAfterSequence === 42n);
    assert.equal(state.seen[0]!.timeoutMs, undefined, "a watch has no deadline by default");
    assert.equal(state.seen[0]!.startAfterSequence, undefined, "unset start_after_sequence stays unset");

    for await (const event of client.watch({ scope: { userId: "slow" }, startAfterSequence: 7n }, { timeoutMs: 60_000 })) {
      assert.ok(event.case);
    }
    assert.equal(state.seen[1]!.startAfterSequence, 7n);
    assert.ok((state.seen[1]!.timeoutMs ?? 0) > 0, "timeoutMs becomes the call's deadline");
  });

  it("cancels the watch when the caller leaves the loop", async () => {
    for await (const event of client.watch({ scope })) {
      if (event.case === "change") {
        break;
      }
    }
    await state.watchCancelled.promise;
  });

  it("retries an UNAVAILABLE watch before its first event and types its errors", async () => {
    state.unavailableLeft = 2;
    const events: string[] = [];
    for await (const event of client.watch({ scope: { userId: "slow" } })) {
      events.push(event.case);
    }
    assert.deepEqual(events, ["started", "change", "fellBehind"]);
    assert.equal(state.seen.length, 3);

    await assert.rejects(
      async () => {
        for await (const event of client.watch({ scope, startAfterSequence: 999n })) {
          assert.fail(`no event expected, got ${event.case}`);
        }
      },
      (error: unknown) => {
        assert.ok(error instanceof ChangeHistoryExpiredError);
        assert.equal(error.code, "OUT_OF_RANGE");
        assert.equal(error.reason, "CHANGE_HISTORY_EXPIRED");
        return true;
      },
    );
  });

  it("fails a call whose deadline has passed with DEADLINE_EXCEEDED", async () => {
    state.createDelayMs = 200;
    await assert.rejects(client.createMemory({ memory: { content: "a", scope } }, { timeoutMs: 20 }), (error: unknown) => {
      assert.ok(error instanceof Error && "code" in error);
      assert.equal((error as { code: string }).code, "DEADLINE_EXCEEDED");
      return true;
    });
  });
});
