import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ScopeWrites, WriteInFlightError, readsOf } from "../src/index.js";

const user = (id: string) => ({ userId: id, agentId: "", appId: "" });

describe("ScopeWrites", () => {
  it("gives a read the newest token of its scope", () => {
    const writes = new ScopeWrites();
    const keys = readsOf([user("u")]);
    assert.equal(writes.tokenOf(keys), "");
    const first = writes.begin(keys);
    const second = writes.begin(keys);
    writes.finish(second, "t-2");
    writes.finish(first, "t-1");
    assert.equal(writes.tokenOf(keys), "t-1", "the token answered last is the newest");
    assert.equal(writes.tokenFor(user("other")), "");
    writes.forgetToken("t-1");
    assert.equal(writes.tokenOf(keys), "");
  });

  it("forgets the least recently used scopes past maxScopes", () => {
    const writes = new ScopeWrites(2);
    writes.note(user("a"), "ta");
    writes.note(user("b"), "tb");
    assert.equal(writes.tokenFor(user("a")), "ta");
    writes.note(user("c"), "tc");
    assert.equal(writes.tokenFor(user("b")), "", "b was the least recently used");
    assert.equal(writes.tokenFor(user("a")), "ta");
    assert.equal(writes.tokenFor(user("c")), "tc");
  });

  it("makes a read wait for a write in flight into its scope, and only that scope", async () => {
    const writes = new ScopeWrites();
    const write = writes.begin(readsOf([user("u")]));
    await writes.wait(readsOf([user("other")]), 10);
    let waited = false;
    const reading = writes.wait(readsOf([user("u")]), 5000).then(() => {
      waited = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(waited, false);
    writes.finish(write, "t");
    await reading;
    assert.equal(waited, true);
  });

  it("fails a read with WriteInFlightError when the write outlives its deadline", async () => {
    const writes = new ScopeWrites();
    writes.begin(readsOf([user("u")]));
    await assert.rejects(writes.wait(readsOf([user("u")]), 20), (error: unknown) => {
      assert.ok(error instanceof WriteInFlightError);
      assert.equal(error.code, "DEADLINE_EXCEEDED");
      assert.equal(error.reason, "WRITE_IN_FLIGHT");
      return true;
    });
  });
});
