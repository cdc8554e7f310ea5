/**
 * watch against a real memoryd server (test/real-server.ts): changes made
 * through the same client arrive as typed events, a watch resumes after a
 * sequence, and a resume outside the kept history is a typed error.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import {
  ChangeHistoryExpiredError,
  ChangeType,
  WriteMode,
  createMemorydClient,
  type MemoryChange,
  type MemorydClient,
  type WatchEvent,
} from "../src/index.js";
import { startServer, type RealServer } from "./real-server.js";

let server: RealServer;
let client: MemorydClient;

before(async () => {
  server = await startServer();
  client = createMemorydClient({ address: server.address, timeoutMs: 30_000 });
});

after(async () => {
  client?.close();
  if (server) {
    assert.equal(await server.stop(), 0, server.log.join(""));
  }
});

/** The next event of a watch; fails if the stream ends first. */
async function nextEvent(events: AsyncGenerator<WatchEvent, void, undefined>): Promise<WatchEvent> {
  const next = await events.next();
  assert.ok(!next.done, "the watch ended early");
  return next.value;
}

async function nextChange(events: AsyncGenerator<WatchEvent, void, undefined>): Promise<MemoryChange> {
  const event = await nextEvent(events);
  assert.equal(event.case, "change");
  return event.value as MemoryChange;
}

async function store(content: string, scope: { userId: string }): Promise<string> {
  const created = await client.createMemory({ memory: { content, scope }, mode: WriteMode.SYNC });
  assert.ok(created.memory?.id);
  return created.memory.id;
}

describe("watch against a real server", { timeout: 120_000 }, () => {
  it("sees a memory created after started, then resumes after its sequence with only later changes", async () => {
    const scope = { userId: `watch-${randomUUID()}` };
    const live = client.watch({ scope });
    const started = await nextEvent(live);
    assert.equal(started.case, "started");
    const afterSequence = started.value.afterSequence;

    const first = await store("The user lives in Lisbon and works remotely", scope);
    const created = await nextChange(live);
    assert.equal(created.type, ChangeType.CREATED);
    assert.equal(created.memory?.id, first);
    assert.equal(created.memory?.content, "The user lives in Lisbon and works remotely");
    assert.ok(created.sequence > afterSequence, `${created.sequence} > ${afterSequence}`);
    assert.ok(created.changeTime, "a change has its change_time");
    await live.return(undefined);

    const second = await store("The user's favourite editor is Emacs", scope);
    const third = await store("The user is allergic to peanuts", scope);
    const resumed = client.watch({ scope, startAfterSequence: created.sequence });
    const restarted = await nextEvent(resumed);
    assert.equal(restarted.case, "started");
    assert.equal(restarted.value.afterSequence, created.sequence);
    const later = [await nextChange(resumed), await nextChange(resumed)];
    await resumed.return(undefined);
    assert.deepEqual(
      later.map((change) => [change.type, change.memory?.id]),
      [
        [ChangeType.CREATED, second],
        [ChangeType.CREATED, third],
      ],
    );
    assert.ok(later[0]!.sequence > created.sequence && later[1]!.sequence > later[0]!.sequence);
  });

  it("fails a resume far past the end of the history with ChangeHistoryExpiredError", async () => {
    const scope = { userId: `watch-${randomUUID()}` };
    await assert.rejects(nextEvent(client.watch({ scope, startAfterSequence: 1n << 60n })), (error: unknown) => {
      assert.ok(error instanceof ChangeHistoryExpiredError, String(error));
      assert.equal(error.code, "OUT_OF_RANGE");
      assert.equal(error.reason, "CHANGE_HISTORY_EXPIRED");
      return true;
    });
  });
});
