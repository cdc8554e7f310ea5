package dev.memoryd.client;

import dev.memoryd.v1.Scope;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Read-your-writes in the client: the writes a client has in flight, and the newest
 * write_token, per scope.
 *
 * <p>memoryd makes every read wait until the writes already acknowledged in its scope are
 * indexed. What no server can see is a write still on its way: one whose RPC is sent but not
 * yet answered. So a client keeps, per scope key ({@code ScopeKeys}, as the server keys
 * scopes):
 *
 * <ul>
 *   <li>the writes in flight: a read of the scope first waits until each of them is answered,
 *       bounded by the read's own deadline (past it the read fails with {@link
 *       WriteInFlightException} rather than return stale results);
 *   <li>the newest acknowledged write_token: a read of the scope carries it as {@code
 *       consistency_token} (unless the caller set one), so the server waits for that very write.
 * </ul>
 *
 * <p>Memory stays bounded: one token per key, and beyond {@code maxScopes} keys the least
 * recently used are forgotten; the server's own per-scope wait still covers their writes. A
 * token the server refuses is forgotten and the read is sent again without it.
 *
 * <p>Every {@link MemorydClient} has one; pass the same one to several clients ({@link
 * MemorydClient.Builder#scopeWrites}) to make each wait for the others' writes. Thread-safe.
 */
public final class ScopeWrites {
  /** Scope keys remembered before the least recently used are forgotten. */
  public static final int DEFAULT_MAX_SCOPES = 10_000;

  /** One write RPC that has been sent and not yet answered. */
  static final class InFlight {
    final Set<String> keys;
    private final CountDownLatch answered = new CountDownLatch(1);

    InFlight(Set<String> keys) {
      this.keys = Set.copyOf(keys);
    }
  }

  private record Token(long order, String value) {}

  private final int maxScopes;
  private final Set<InFlight> inFlight = new HashSet<>();
  /** Key to token, least recently used first (access order). */
  private final LinkedHashMap<String, Token> tokens = new LinkedHashMap<>(16, 0.75f, true);

  private long order;

  /** Bookkeeping for up to {@link #DEFAULT_MAX_SCOPES} scope keys. */
  public ScopeWrites() {
    this(DEFAULT_MAX_SCOPES);
  }

  /** Bookkeeping for up to {@code maxScopes} scope keys (at least 1). */
  public ScopeWrites(int maxScopes) {
    if (maxScopes < 1) {
      throw new IllegalArgumentException(
          "maxScopes must be at least 1, got " + maxScopes + "; the default is " + DEFAULT_MAX_SCOPES);
    }
    this.maxScopes = maxScopes;
  }

  /**
   * Makes later reads of {@code scope} carry {@code writeToken}, e.g. the token of a write
   * another service made and passed on.
   */
  public void note(Scope scope, String writeToken) {
    if (writeToken != null && !writeToken.isEmpty()) {
      synchronized (this) {
        remember(ScopeKeys.scopeKeys(scope), writeToken);
      }
    }
  }

  /** The newest write_token a read of {@code scope} carries; "" if none. */
  public String tokenFor(Scope scope) {
    return tokenOf(ScopeKeys.readKeys(scope));
  }

  // --- what the client calls: by key ---------------------------------------------------

  /** Records a write about to be sent; call {@link #finish} after. */
  synchronized InFlight begin(Set<String> keys) {
    InFlight write = new InFlight(keys);
    inFlight.add(write);
    return write;
  }

  /** The write was answered: with its write_token, or "" if it failed. */
  void finish(InFlight write, String writeToken) {
    synchronized (this) {
      inFlight.remove(write);
      if (writeToken != null && !writeToken.isEmpty()) {
        remember(write.keys, writeToken);
      }
    }
    write.answered.countDown();
  }

  private void remember(Set<String> keys, String writeToken) {
    long next = ++order;
    for (String key : keys) {
      tokens.remove(key);
      tokens.put(key, new Token(next, writeToken));
    }
    Iterator<String> oldest = tokens.keySet().iterator();
    while (tokens.size() > maxScopes && oldest.hasNext()) {
      oldest.next();
      oldest.remove();
    }
  }

  /** Forgets a token wherever it is kept (the server refused it). */
  synchronized void forgetToken(String writeToken) {
    tokens.values().removeIf(token -> token.value().equals(writeToken));
  }

  /** The newest write_token of a write into any of {@code keys}; "" if none. */
  synchronized String tokenOf(Set<String> keys) {
    Token newest = null;
    for (String key : keys) {
      Token token = tokens.get(key); // marks the key recently used
      if (token != null && (newest == null || token.order() > newest.order())) {
        newest = token;
      }
    }
    return newest == null ? "" : newest.value();
  }

  /** The writes into any of {@code keys} that are sent and not yet answered. */
  synchronized List<InFlight> inFlight(Set<String> keys) {
    List<InFlight> found = new ArrayList<>();
    for (InFlight write : inFlight) {
      if (!Collections.disjoint(write.keys, keys)) {
        found.add(write);
      }
    }
    return found;
  }

  /**
   * Blocks until the writes in flight into {@code keys} are answered, or throws {@link
   * WriteInFlightException} once {@code deadlineNanos} ({@link System#nanoTime()}) has passed.
   */
  void await(Set<String> keys, long deadlineNanos) {
    for (InFlight write : inFlight(keys)) {
      boolean answered;
      try {
        answered = write.answered.await(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        throw MemorydException.create(
            MemorydException.Details.of(
                Status.Code.CANCELLED, "", "interrupted while waiting for a write in flight"));
      }
      if (!answered) {
        throw MemorydException.create(
            MemorydException.Details.of(
                Status.Code.DEADLINE_EXCEEDED,
                ErrorClasses.WRITE_IN_FLIGHT,
                "a write into this scope was still in flight when the read's deadline passed; "
                    + "the read waited for it rather than return stale results. Retry with a "
                    + "longer deadline"));
      }
    }
  }

  /** How many keys have a token (for tests). */
  synchronized int size() {
    return tokens.size();
  }

  /** The token of each key (for tests). */
  synchronized Map<String, String> snapshot() {
    Map<String, String> copy = new LinkedHashMap<>();
    tokens.forEach((key, token) -> copy.put(key, token.value()));
    return copy;
  }
}
