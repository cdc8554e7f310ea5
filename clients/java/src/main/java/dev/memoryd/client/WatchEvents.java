package dev.memoryd.client;

import dev.memoryd.v1.MemoryServiceGrpc.MemoryServiceBlockingStub;
import dev.memoryd.v1.WatchMemoriesRequest;
import dev.memoryd.v1.WatchMemoriesResponse;
import io.grpc.Context;
import io.grpc.StatusRuntimeException;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The events of one WatchMemories call, read as they arrive, its failures typed; {@link #cancel}
 * ends the call. Not thread-safe: one consumer reads it, any thread may cancel it.
 */
final class WatchEvents implements Iterator<WatchMemoriesResponse> {
  private final Context.CancellableContext context;
  private final Iterator<WatchMemoriesResponse> responses;
  private WatchMemoriesResponse pending;

  /** Starts the call, in a cancellable child of the caller's context (and its deadline, if any). */
  WatchEvents(MemoryServiceBlockingStub stub, WatchMemoriesRequest request) {
    context = Context.current().withCancellation();
    Context previous = context.attach();
    try {
      responses = stub.watchMemories(request);
    } catch (StatusRuntimeException failure) {
      context.cancel(failure);
      throw MemorydException.from(failure);
    } finally {
      context.detach(previous);
    }
  }

  /** Blocks until the next event arrives (false once the server ends the stream). */
  @Override
  public boolean hasNext() {
    while (pending == null) {
      try {
        if (!responses.hasNext()) {
          return false;
        }
        WatchMemoriesResponse next = responses.next();
        if (next.getEventCase() != WatchMemoriesResponse.EventCase.EVENT_NOT_SET) {
          pending = next; // an event of a newer server this client does not know is skipped
        }
      } catch (StatusRuntimeException failure) {
        throw MemorydException.from(failure);
      }
    }
    return true;
  }

  @Override
  public WatchMemoriesResponse next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    WatchMemoriesResponse next = pending;
    pending = null;
    return next;
  }

  /** Cancels the call; a read blocked in {@link #hasNext} then throws CancelledException. */
  void cancel() {
    context.cancel(null);
  }
}
