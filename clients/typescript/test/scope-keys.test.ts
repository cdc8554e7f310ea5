import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { forgetKeys, readKeys, readsOf, scopeKeys } from "../src/index.js";

const S = "\x1f";
const scope = (ids: { userId?: string; agentId?: string; appId?: string }) => ({
  userId: ids.userId ?? "",
  agentId: ids.agentId ?? "",
  appId: ids.appId ?? "",
});

describe("scope keys (as memoryd_client._scope_keys)", () => {
  it("keys a user by user_id alone", () => {
    assert.deepEqual(scopeKeys(scope({ userId: "u", agentId: "a", appId: "p" })), [`user${S}u`]);
    assert.deepEqual(readKeys(scope({ userId: "u", agentId: "a" })), [`user${S}u`]);
    assert.deepEqual(forgetKeys(scope({ userId: "u" })), [`user${S}u`]);
  });

  it("keys shared memory by agent_id and by app_id", () => {
    assert.deepEqual(scopeKeys(scope({ agentId: "a", appId: "p" })), [`agent${S}a`, `app${S}p`]);
    assert.deepEqual(scopeKeys(scope({ appId: "p" })), [`app${S}p`]);
  });

  it("adds the forget wildcards: a forget leaving out the app reaches every app", () => {
    assert.deepEqual(forgetKeys(scope({ agentId: "a" })), [`agent${S}a`, `app${S}*`]);
    assert.deepEqual(forgetKeys(scope({ appId: "p" })), [`app${S}p`, `agent${S}*`]);
    assert.deepEqual(forgetKeys(scope({ agentId: "a", appId: "p" })), [`agent${S}a`, `app${S}p`]);
    assert.deepEqual(readKeys(scope({ appId: "p" })), [`app${S}p`, `app${S}*`]);
    assert.deepEqual(readKeys(scope({ agentId: "a" })), [`agent${S}a`, `agent${S}*`]);
    assert.deepEqual(readKeys(scope({ agentId: "a", appId: "p" })), [`agent${S}a`, `app${S}p`]);
  });

  it("gives an empty or missing scope a key of its own", () => {
    assert.deepEqual(scopeKeys(scope({})), ["self"]);
    assert.deepEqual(scopeKeys(undefined), ["self"]);
    assert.deepEqual(forgetKeys(undefined), ["self"]);
    assert.deepEqual([...readsOf([undefined, scope({ userId: "u" })])], ["self", `user${S}u`]);
  });
});
