package dev.memoryd.client;

import com.google.protobuf.Message;
import dev.memoryd.v1.BatchCreateMemoriesRequest;
import dev.memoryd.v1.CreateMemoryRequest;
import dev.memoryd.v1.DeleteMemoryRequest;
import dev.memoryd.v1.ForgetMemoriesRequest;
import dev.memoryd.v1.GetMemoryRequest;
import dev.memoryd.v1.ListMemoriesRequest;
import dev.memoryd.v1.PreloadRequest;
import dev.memoryd.v1.Scope;
import dev.memoryd.v1.SearchMemoriesRequest;
import dev.memoryd.v1.UpdateMemoryRequest;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Scope keys: which of a client's writes a read must wait for, keyed as the server keys them
 * (server/memoryd/core/freshness.py) and exactly as the Python client does.
 *
 * <p>A user's memory is keyed by {@code user_id} alone (agent_id, app_id and thread_id do not
 * narrow a user's reads), shared memory by its {@code agent_id} and by its {@code app_id}, and
 * a forget of shared memory that leaves out the app (or the agent) also by a wildcard that the
 * reads it reaches consult. A scope with no ids at all (a credential's own user, filled in by
 * the server) has a key of its own.
 */
final class ScopeKeys {
  private static final String SEP = "\u001f";
  static final String OWN_SCOPE = "self";
  /** A forget of shared memory without an app_id reaches every app's shared memory. */
  static final String EVERY_APP = "app" + SEP + "*";
  /** A forget of shared memory without an agent_id reaches every agent's shared memory. */
  static final String EVERY_AGENT = "agent" + SEP + "*";

  private ScopeKeys() {}

  /** The keys a write to {@code scope} touches. */
  static Set<String> scopeKeys(Scope scope) {
    Set<String> keys = new LinkedHashSet<>();
    if (!scope.getUserId().isEmpty()) {
      keys.add("user" + SEP + scope.getUserId());
      return keys;
    }
    if (!scope.getAgentId().isEmpty()) {
      keys.add("agent" + SEP + scope.getAgentId());
    }
    if (!scope.getAppId().isEmpty()) {
      keys.add("app" + SEP + scope.getAppId());
    }
    if (keys.isEmpty()) {
      keys.add(OWN_SCOPE);
    }
    return keys;
  }

  private static boolean isShared(Scope scope) {
    return scope.getUserId().isEmpty()
        && !(scope.getAgentId().isEmpty() && scope.getAppId().isEmpty());
  }

  /** The keys a forget of {@code scope} touches: its own, and the wildcards it reaches. */
  static Set<String> forgetKeys(Scope scope) {
    Set<String> keys = scopeKeys(scope);
    if (isShared(scope)) {
      if (scope.getAppId().isEmpty()) {
        keys.add(EVERY_APP);
      }
      if (scope.getAgentId().isEmpty()) {
        keys.add(EVERY_AGENT);
      }
    }
    return keys;
  }

  /**
   * The keys a read of {@code scope} consults: its own, and the wildcards of the forgets that
   * reach it (a read of an app's memory sees every agent's).
   */
  static Set<String> readKeys(Scope scope) {
    Set<String> keys = scopeKeys(scope);
    if (isShared(scope)) {
      if (!scope.getAppId().isEmpty() && scope.getAgentId().isEmpty()) {
        keys.add(EVERY_APP);
      }
      if (!scope.getAgentId().isEmpty() && scope.getAppId().isEmpty()) {
        keys.add(EVERY_AGENT);
      }
    }
    return keys;
  }

  /** The keys a read request (Get, List, Search, Preload) consults. */
  static Set<String> readKeysOf(Message request) {
    if (request instanceof PreloadRequest preload) {
      Set<String> keys = readKeys(preload.getUserScope());
      if (preload.hasAgentScope()) {
        keys.addAll(readKeys(preload.getAgentScope()));
      }
      return keys;
    }
    if (request instanceof GetMemoryRequest get) {
      return readKeys(get.getScope());
    }
    if (request instanceof ListMemoriesRequest list) {
      return readKeys(list.getScope());
    }
    if (request instanceof SearchMemoriesRequest search) {
      return readKeys(search.getScope());
    }
    throw new IllegalArgumentException("not a read request: " + request.getDescriptorForType());
  }

  /** The keys a write request (Create, BatchCreate, Update, Delete, Forget) touches. */
  static Set<String> writeKeysOf(Message request) {
    if (request instanceof BatchCreateMemoriesRequest batch) {
      Set<String> keys = new LinkedHashSet<>();
      for (CreateMemoryRequest item : batch.getRequestsList()) {
        keys.addAll(scopeKeys(item.getMemory().getScope()));
      }
      return keys;
    }
    if (request instanceof CreateMemoryRequest create) {
      return scopeKeys(create.getMemory().getScope());
    }
    if (request instanceof UpdateMemoryRequest update) {
      return scopeKeys(update.getMemory().getScope());
    }
    if (request instanceof ForgetMemoriesRequest forget) {
      return forgetKeys(forget.getScope());
    }
    if (request instanceof DeleteMemoryRequest delete) {
      return scopeKeys(delete.getScope());
    }
    throw new IllegalArgumentException("not a write request: " + request.getDescriptorForType());
  }
}
