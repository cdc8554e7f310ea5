/**
 * Scope keys: which of this client's writes a read must wait for, keyed as the
 * server keys them (the same keys as the Python client's memoryd_client._scope_keys).
 *
 * A user's memory is keyed by user_id alone (agent_id, app_id and thread_id do
 * not narrow a user's reads), shared memory by its agent_id and by its app_id,
 * and a forget of shared memory that leaves out the app (or the agent) also by a
 * wildcard that the reads it reaches consult. A scope with no ids at all (the
 * credential's own user, filled in by the server) has a key of its own.
 */
import type { Scope } from "./gen/memoryd/v1/memory_pb.js";

/** A set of scope keys. */
export type Keys = ReadonlySet<string>;

/** The ids of a scope; a missing scope is the empty one. */
export type ScopeIds = Partial<Pick<Scope, "userId" | "agentId" | "appId">> | undefined;

const SEPARATOR = "\x1f";
/** The key of a scope with no ids. */
export const OWN_SCOPE = "self";
/** A forget of shared memory without an app_id reaches every app's shared memory. */
export const EVERY_APP = `app${SEPARATOR}*`;
/** A forget of shared memory without an agent_id reaches every agent's shared memory. */
export const EVERY_AGENT = `agent${SEPARATOR}*`;

/** The keys a write to `scope` touches. */
export function scopeKeys(scope: ScopeIds): string[] {
  if (scope?.userId) {
    return [`user${SEPARATOR}${scope.userId}`];
  }
  const keys: string[] = [];
  if (scope?.agentId) {
    keys.push(`agent${SEPARATOR}${scope.agentId}`);
  }
  if (scope?.appId) {
    keys.push(`app${SEPARATOR}${scope.appId}`);
  }
  return keys.length > 0 ? keys : [OWN_SCOPE];
}

function isShared(scope: ScopeIds): boolean {
  return !scope?.userId && Boolean(scope?.agentId || scope?.appId);
}

/** The keys a forget of `scope` touches: its own, and the wildcards of the ids it leaves out. */
export function forgetKeys(scope: ScopeIds): string[] {
  const keys = scopeKeys(scope);
  if (isShared(scope)) {
    if (!scope?.appId) {
      keys.push(EVERY_APP);
    }
    if (!scope?.agentId) {
      keys.push(EVERY_AGENT);
    }
  }
  return keys;
}

/**
 * The keys a read of `scope` consults: its own, and the wildcards of the forgets
 * that reach it (a read of an app's shared memory sees every agent's forget of it).
 */
export function readKeys(scope: ScopeIds): string[] {
  const keys = scopeKeys(scope);
  if (isShared(scope)) {
    if (scope?.appId && !scope.agentId) {
      keys.push(EVERY_APP);
    }
    if (scope?.agentId && !scope.appId) {
      keys.push(EVERY_AGENT);
    }
  }
  return keys;
}

/** The keys a read of all of `scopes` consults. */
export function readsOf(scopes: readonly ScopeIds[]): Keys {
  return new Set(scopes.flatMap((scope) => readKeys(scope)));
}
