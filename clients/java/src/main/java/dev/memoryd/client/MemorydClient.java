package dev.memoryd.client;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import dev.memoryd.v1.BatchCreateMemoriesRequest;
import dev.memoryd.v1.BatchCreateMemoriesResponse;
import dev.memoryd.v1.CreateMemoryRequest;
import dev.memoryd.v1.CreateMemoryResponse;
import dev.memoryd.v1.DeleteMemoryRequest;
import dev.memoryd.v1.DeleteMemoryResponse;
import dev.memoryd.v1.ForgetMemoriesRequest;
import dev.memoryd.v1.ForgetMemoriesResponse;
import dev.memoryd.v1.GetMemoryRequest;
import dev.memoryd.v1.GetMemoryResponse;
import dev.memoryd.v1.GetWriteStatusRequest;
import dev.memoryd.v1.GetWriteStatusResponse;
import dev.memoryd.v1.ListMemoriesRequest;
import dev.memoryd.v1.ListMemoriesResponse;
import dev.memoryd.v1.Memory;
import dev.memoryd.v1.MemoryServiceGrpc;
import dev.memoryd.v1.MemoryServiceGrpc.MemoryServiceBlockingStub;
import dev.memoryd.v1.PreloadRequest;
import dev.memoryd.v1.PreloadResponse;
import dev.memoryd.v1.SearchMemoriesRequest;
import dev.memoryd.v1.SearchMemoriesResponse;
import dev.memoryd.v1.UpdateMemoryRequest;
import dev.memoryd.v1.UpdateMemoryResponse;
import dev.memoryd.v1.WatchMemoriesRequest;
import dev.memoryd.v1.WatchMemoriesResponse;
import io.grpc.Channel;
import io.grpc.ClientInterceptor;
import io.grpc.ClientInterceptors;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Blocking, thread-safe client of {@code memoryd.v1.MemoryService}.
 *
 * <pre>{@code
 * try (MemorydClient client = MemorydClient.builder().target("localhost:50051").build()) {
 *   client.createMemory(CreateMemoryRequest.newBuilder()
 *       .setMemory(Memory.newBuilder().setContent("I'm in UTC-5")
 *           .setScope(Scope.newBuilder().setUserId("u1")))
 *       .build());
 *   SearchMemoriesResponse hits = client.searchMemories(SearchMemoriesRequest.newBuilder()
 *       .setQuery("What timezone is the user in?")
 *       .setScope(Scope.newBuilder().setUserId("u1")).build());
 * }
 * }</pre>
 *
 * <p>Each method takes the generated request and returns the generated response. Every call:
 *
 * <ul>
 *   <li>has a deadline: the builder's read or write timeout, or the one of a {@link
 *       #withTimeout} view (a {@link #watch} runs until closed);
 *   <li>is retried on UNAVAILABLE by gRPC's retry policy (service config), and a write without
 *       a {@code request_id} gets a fresh UUID one, so a retried write is never applied twice;
 *   <li>throws a {@link MemorydException} subclass on failure (see there);
 *   <li>reads its own writes: a read (Get, List, Search, Preload) of a scope first waits,
 *       within its deadline, for this client's writes into that scope still in flight, and
 *       carries the newest write_token of that scope as {@code consistency_token} unless the
 *       caller set one (see {@link ScopeWrites}).
 * </ul>
 */
public final class MemorydClient implements AutoCloseable {
  /** The fully qualified service name. */
  public static final String SERVICE = "memoryd.v1.MemoryService";

  /** The first and the longest pause between waitForWrite's polls. */
  static final Duration WAIT_POLL_START = Duration.ofMillis(5);
  static final Duration WAIT_POLL_MAX = Duration.ofMillis(200);

  private static final String REQUEST_ID = "request_id";
  private static final String CONSISTENCY_TOKEN = "consistency_token";

  private final ManagedChannel channel;
  private final MemoryServiceBlockingStub stub;
  private final ScopeWrites writes;
  private final ClientSettings settings;
  private final Duration readTimeout;
  private final Duration writeTimeout;
  private final boolean owner;

  MemorydClient(ManagedChannel channel, ClientSettings settings, ScopeWrites writes) {
    this.channel = channel;
    this.settings = settings;
    this.writes = writes;
    // The built-in interceptor is last, so it runs first: extra interceptors see its headers.
    ClientInterceptor[] all = new ClientInterceptor[settings.interceptors().size() + 1];
    settings.interceptors().toArray(all);
    all[all.length - 1] = new MemorydInterceptor(settings.token());
    Channel intercepted = ClientInterceptors.intercept(channel, all);
    this.stub = MemoryServiceGrpc.newBlockingStub(intercepted);
    this.readTimeout = settings.readTimeout();
    this.writeTimeout = settings.writeTimeout();
    this.owner = true;
  }

  private MemorydClient(MemorydClient base, Duration readTimeout, Duration writeTimeout) {
    this.channel = base.channel;
    this.settings = base.settings;
    this.writes = base.writes;
    this.stub = base.stub;
    this.readTimeout = readTimeout;
    this.writeTimeout = writeTimeout;
    this.owner = false;
  }

  /** A builder with every option at its documented default. */
  public static MemorydClientBuilder builder() {
    return new MemorydClientBuilder();
  }

  /**
   * A view of this client whose calls, reads and writes alike, have {@code timeout} as their
   * deadline. It shares this client's channel and read-your-writes bookkeeping; closing it does
   * nothing (close the client you built).
   */
  public MemorydClient withTimeout(Duration timeout) {
    MemorydClientBuilder.requirePositive("timeout", timeout);
    return new MemorydClient(this, timeout, timeout);
  }

  /** The server address this client connects to. */
  public String target() {
    return settings.target();
  }

  /** The deadline of each read (Get, List, Search, Preload, GetWriteStatus). */
  public Duration readTimeout() {
    return readTimeout;
  }

  /** The deadline of each write (Create, BatchCreate, Update, Delete, Forget). */
  public Duration writeTimeout() {
    return writeTimeout;
  }

  /** This client's read-your-writes bookkeeping (share it with {@link MemorydClientBuilder#scopeWrites}). */
  public ScopeWrites scopeWrites() {
    return writes;
  }

  // --- writes -------------------------------------------------------------------------

  /** Stores a memory (or updates the one with the same memory_key); see the contract. */
  public CreateMemoryResponse createMemory(CreateMemoryRequest request) {
    return write(request, MemoryServiceBlockingStub::createMemory, CreateMemoryResponse::getWriteToken);
  }

  /** Stores up to 100 memories in one write. */
  public BatchCreateMemoriesResponse batchCreateMemories(BatchCreateMemoriesRequest request) {
    return write(
        request,
        MemoryServiceBlockingStub::batchCreateMemories,
        BatchCreateMemoriesResponse::getWriteToken);
  }

  /** Changes the fields of a memory named in update_mask. */
  public UpdateMemoryResponse updateMemory(UpdateMemoryRequest request) {
    return write(request, MemoryServiceBlockingStub::updateMemory, UpdateMemoryResponse::getWriteToken);
  }

  /** Deletes one memory. */
  public DeleteMemoryResponse deleteMemory(DeleteMemoryRequest request) {
    return write(request, MemoryServiceBlockingStub::deleteMemory, DeleteMemoryResponse::getWriteToken);
  }

  /** Deletes (or with dry_run counts) the memories of a scope matching the selection. */
  public ForgetMemoriesResponse forgetMemories(ForgetMemoriesRequest request) {
    return write(
        request, MemoryServiceBlockingStub::forgetMemories, ForgetMemoriesResponse::getWriteToken);
  }

  // --- reads --------------------------------------------------------------------------

  /** Returns one memory; {@link MemoryNotFoundException} if it is not in that scope. */
  public GetMemoryResponse getMemory(GetMemoryRequest request) {
    return read(request, MemoryServiceBlockingStub::getMemory);
  }

  /** Returns one page of a scope's memories, newest first. */
  public ListMemoriesResponse listMemories(ListMemoriesRequest request) {
    return read(request, MemoryServiceBlockingStub::listMemories);
  }

  /**
   * Every memory the list request selects, newest first, fetched page by page (the request's
   * page_size is the page size) as the stream is consumed. Each page's call has the read
   * deadline; a failure is thrown from the stream's operation as a {@link MemorydException}.
   */
  public Stream<Memory> listAll(ListMemoriesRequest request) {
    Objects.requireNonNull(request, "request");
    Iterator<Memory> memories =
        new Iterator<>() {
          private ListMemoriesRequest next = request;
          private Iterator<Memory> page = java.util.Collections.emptyIterator();

          @Override
          public boolean hasNext() {
            while (!page.hasNext() && next != null) {
              ListMemoriesResponse response = listMemories(next);
              page = response.getMemoriesList().iterator();
              next =
                  response.getNextPageToken().isEmpty()
                      ? null
                      : next.toBuilder().setPageToken(response.getNextPageToken()).build();
            }
            return page.hasNext();
          }

          @Override
          public Memory next() {
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            return page.next();
          }
        };
    return StreamSupport.stream(
        Spliterators.spliteratorUnknownSize(memories, Spliterator.ORDERED | Spliterator.NONNULL),
        false);
  }

  /** Finds the memories of a scope closest in meaning to a query, best first. */
  public SearchMemoriesResponse searchMemories(SearchMemoriesRequest request) {
    return read(request, MemoryServiceBlockingStub::searchMemories);
  }

  /** Where a write stands, by its write_token ({@link UnknownWriteTokenException} if unknown). */
  public GetWriteStatusResponse getWriteStatus(GetWriteStatusRequest request) {
    Objects.requireNonNull(request, "request");
    return call(MemoryServiceBlockingStub::getWriteStatus, request, deadlineAfter(readTimeout));
  }

  /**
   * Polls GetWriteStatus until the write of {@code writeToken} (from a write's response, e.g.
   * one in {@code WRITE_MODE_ASYNC}) is APPLIED, and returns that status. The pause between
   * polls starts at 5 ms and doubles up to 200 ms. The whole wait has the write timeout as its
   * deadline (a {@link #withTimeout} view gives another: {@code
   * client.withTimeout(Duration.ofSeconds(30)).waitForWrite(token)}).
   *
   * @throws MemorydException if the write FAILED: the class of the write's own error (as the
   *     RPC would have failed in WRITE_MODE_SYNC), its {@link MemorydException#writeToken()}
   *     the token; {@link DeadlineExceededException} if the write is still pending at the
   *     deadline; or the error of a GetWriteStatus call ({@link UnknownWriteTokenException} for
   *     a token the server does not know)
   */
  public GetWriteStatusResponse waitForWrite(String writeToken) {
    Objects.requireNonNull(writeToken, "writeToken");
    long deadline = deadlineAfter(writeTimeout);
    GetWriteStatusRequest request = GetWriteStatusRequest.newBuilder().setWriteToken(writeToken).build();
    long pauseNanos = WAIT_POLL_START.toNanos();
    while (true) {
      if (deadline - System.nanoTime() <= 0) {
        throw stillPending(writeToken);
      }
      GetWriteStatusResponse status = call(MemoryServiceBlockingStub::getWriteStatus, request, deadline);
      switch (status.getState()) {
        case WRITE_STATE_APPLIED:
          return status;
        case WRITE_STATE_FAILED:
          throw MemorydException.ofFailedWrite(writeToken, status.hasError() ? status.getError() : null);
        default:
          break;
      }
      if (System.nanoTime() + pauseNanos >= deadline) {
        throw stillPending(writeToken);
      }
      try {
        TimeUnit.NANOSECONDS.sleep(pauseNanos);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        throw MemorydException.create(MemorydException.Details.of(
            Status.Code.CANCELLED, "", "interrupted while waiting for write " + writeToken));
      }
      pauseNanos = Math.min(pauseNanos * 2, WAIT_POLL_MAX.toNanos());
    }
  }

  private static MemorydException stillPending(String writeToken) {
    return MemorydException.create(MemorydException.Details.of(
        Status.Code.DEADLINE_EXCEEDED, "", "write " + writeToken + " is still pending"));
  }

  /**
   * The Preload stream's events, in the order received: one {@code hits} per scope, then
   * {@code context}, then {@code done}; or a single {@code not_modified}. The read timeout is
   * the deadline of the whole stream. The call starts at once; a failure is thrown from the
   * stream's operations as a {@link MemorydException}. Close the stream (try-with-resources) to
   * cancel a call you stop reading early.
   */
  public Stream<PreloadResponse> preload(PreloadRequest request) {
    Objects.requireNonNull(request, "request");
    PreloadEvents events = new PreloadEvents(request);
    return StreamSupport.stream(
            Spliterators.spliteratorUnknownSize(events, Spliterator.ORDERED | Spliterator.NONNULL),
            false)
        .onClose(events::cancel);
  }

  /**
   * Runs Preload and returns its context block, ready to be a system message: "" when no
   * memory is included, when the format is PLAIN, or when if_none_match still holds.
   */
  public String preloadContext(PreloadRequest request) {
    String text = "";
    try (Stream<PreloadResponse> events = preload(request)) {
      for (Iterator<PreloadResponse> it = events.iterator(); it.hasNext(); ) {
        PreloadResponse event = it.next();
        if (event.hasContext()) {
          text = event.getContext().getText();
        }
      }
    }
    return text;
  }

  /**
   * The WatchMemories stream: the changes to the memories of the request's scope, as they are
   * applied, in the order received. Each response holds one event: first {@code started} (its
   * {@code after_sequence} is the sequence the stream continues after), then a {@code change}
   * per applied change ({@code sequence}, {@code type} CREATED, UPDATED, DELETED or EXPIRED,
   * {@code memory}, {@code change_time}); a consumer that reads too slowly gets one {@code
   * fell_behind} ({@code resume_after_sequence}) and the stream ends. Set {@code
   * start_after_sequence} to the last sequence received to resume; unset means from now on.
   *
   * <p>A watch has no deadline of its own (the read timeout does not apply; a deadline of the
   * caller's {@link io.grpc.Context} does): reading blocks until the next event. Close the
   * stream (try-with-resources) to end the call; a read blocked meanwhile on another thread
   * then throws {@link CancelledException}. The call starts at once; a failure is thrown from
   * the stream's operations as a {@link MemorydException}, e.g. {@link
   * ChangeHistoryExpiredException} for a {@code start_after_sequence} outside the kept history.
   *
   * <pre>{@code
   * try (Stream<WatchMemoriesResponse> events = client.watch(WatchMemoriesRequest.newBuilder()
   *     .setScope(user).setStartAfterSequence(last).build())) {
   *   events.filter(WatchMemoriesResponse::hasChange).forEach(e -> apply(e.getChange()));
   * }
   * }</pre>
   */
  public Stream<WatchMemoriesResponse> watch(WatchMemoriesRequest request) {
    Objects.requireNonNull(request, "request");
    WatchEvents events = new WatchEvents(stub, request);
    return StreamSupport.stream(
            Spliterators.spliteratorUnknownSize(events, Spliterator.ORDERED | Spliterator.NONNULL),
            false)
        .onClose(events::cancel);
  }

  /**
   * Closes the channel (a view made by {@link #withTimeout} leaves it open). Idempotent. Calls
   * still running are cancelled after a short grace period.
   */
  @Override
  public void close() {
    if (!owner) {
      return;
    }
    channel.shutdown();
    try {
      if (!channel.awaitTermination(2, TimeUnit.SECONDS)) {
        channel.shutdownNow();
      }
    } catch (InterruptedException interrupted) {
      channel.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  // --- the machinery ------------------------------------------------------------------

  private static long deadlineAfter(Duration timeout) {
    return System.nanoTime() + timeout.toNanos();
  }

  private MemoryServiceBlockingStub stubUntil(long deadlineNanos) {
    return stub.withDeadlineAfter(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
  }

  private <Q, R> R call(BiFunction<MemoryServiceBlockingStub, Q, R> rpc, Q request, long deadline) {
    try {
      return rpc.apply(stubUntil(deadline), request);
    } catch (StatusRuntimeException error) {
      throw MemorydException.from(error);
    }
  }

  private <Q extends Message, R> R write(
      Q request, BiFunction<MemoryServiceBlockingStub, Q, R> rpc, Function<R, String> tokenOf) {
    Objects.requireNonNull(request, "request");
    long deadline = deadlineAfter(writeTimeout);
    Q sent = stringField(request, REQUEST_ID).isEmpty()
        ? withStringField(request, REQUEST_ID, UUID.randomUUID().toString())
        : request;
    ScopeWrites.InFlight write = writes.begin(ScopeKeys.writeKeysOf(request));
    String token = "";
    try {
      R response = call(rpc, sent, deadline);
      token = tokenOf.apply(response);
      return response;
    } finally {
      writes.finish(write, token);
    }
  }

  private <Q extends Message, R> R read(Q request, BiFunction<MemoryServiceBlockingStub, Q, R> rpc) {
    Objects.requireNonNull(request, "request");
    long deadline = deadlineAfter(readTimeout);
    Set<String> keys = ScopeKeys.readKeysOf(request);
    writes.await(keys, deadline);
    String token = stringField(request, CONSISTENCY_TOKEN).isEmpty() ? writes.tokenOf(keys) : "";
    Q sent = token.isEmpty() ? request : withStringField(request, CONSISTENCY_TOKEN, token);
    try {
      return call(rpc, sent, deadline);
    } catch (MemorydException error) {
      if (token.isEmpty() || !tokenRefused(error)) {
        throw error;
      }
    }
    // The server does not know the token this client added (another server's, or a replaced
    // data directory's): a read must not fail for it.
    writes.forgetToken(token);
    return call(rpc, request, deadline);
  }

  /** The server refused a consistency_token: INVALID_ARGUMENT naming that field. */
  static boolean tokenRefused(MemorydException error) {
    return error instanceof InvalidArgumentException
        && error.fieldViolations().stream().anyMatch(v -> v.field().equals(CONSISTENCY_TOKEN));
  }

  private static String stringField(Message message, String name) {
    return (String) message.getField(field(message, name));
  }

  @SuppressWarnings("unchecked")
  private static <Q extends Message> Q withStringField(Q message, String name, String value) {
    return (Q) message.toBuilder().setField(field(message, name), value).build();
  }

  private static FieldDescriptor field(Message message, String name) {
    FieldDescriptor field = message.getDescriptorForType().findFieldByName(name);
    if (field == null) {
      throw new IllegalArgumentException(message.getDescriptorForType().getFullName() + " has no " + name);
    }
    return field;
  }

  /** The Preload stream: read-your-writes as in {@link #read}, and cancellable. */
  private final class PreloadEvents implements Iterator<PreloadResponse> {
    private final PreloadRequest request;
    private final long deadline;
    private String token;
    private Context.CancellableContext context;
    private Iterator<PreloadResponse> responses;
    private PreloadResponse pending;
    private boolean started;

    PreloadEvents(PreloadRequest request) {
      this.request = request;
      this.deadline = deadlineAfter(readTimeout);
      Set<String> keys = ScopeKeys.readKeysOf(request);
      writes.await(keys, deadline);
      this.token = request.getConsistencyToken().isEmpty() ? writes.tokenOf(keys) : "";
      start(token.isEmpty() ? request : request.toBuilder().setConsistencyToken(token).build());
    }

    private void start(PreloadRequest sent) {
      context = Context.current().withCancellation();
      Context previous = context.attach();
      try {
        responses = stubUntil(deadline).preload(sent);
      } finally {
        context.detach(previous);
      }
    }

    @Override
    public boolean hasNext() {
      while (pending == null) {
        try {
          if (!responses.hasNext()) {
            return false;
          }
          PreloadResponse next = responses.next();
          started = true;
          if (next.getEventCase() != PreloadResponse.EventCase.EVENT_NOT_SET) {
            pending = next; // an event of a newer server this client does not know is skipped
          }
        } catch (StatusRuntimeException failure) {
          MemorydException error = MemorydException.from(failure);
          if (started || token.isEmpty() || !tokenRefused(error)) {
            throw error;
          }
          // A token the server does not know (see read): ask again without it.
          writes.forgetToken(token);
          token = "";
          start(request);
        }
      }
      return true;
    }

    @Override
    public PreloadResponse next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      PreloadResponse next = pending;
      pending = null;
      return next;
    }

    void cancel() {
      context.cancel(null);
    }
  }
}
