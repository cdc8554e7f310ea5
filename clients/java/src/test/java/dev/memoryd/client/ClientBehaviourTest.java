package dev.memoryd.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Any;
import com.google.rpc.BadRequest;
import com.google.rpc.ErrorInfo;
import dev.memoryd.v1.ChangeType;
import dev.memoryd.v1.CreateMemoryRequest;
import dev.memoryd.v1.CreateMemoryResponse;
import dev.memoryd.v1.GetWriteStatusRequest;
import dev.memoryd.v1.GetWriteStatusResponse;
import dev.memoryd.v1.ListMemoriesRequest;
import dev.memoryd.v1.ListMemoriesResponse;
import dev.memoryd.v1.Memory;
import dev.memoryd.v1.MemoryChange;
import dev.memoryd.v1.MemoryServiceGrpc;
import dev.memoryd.v1.PreloadContext;
import dev.memoryd.v1.PreloadDone;
import dev.memoryd.v1.PreloadRequest;
import dev.memoryd.v1.PreloadResponse;
import dev.memoryd.v1.SearchMemoriesRequest;
import dev.memoryd.v1.SearchMemoriesResponse;
import dev.memoryd.v1.WatchFellBehind;
import dev.memoryd.v1.WatchMemoriesRequest;
import dev.memoryd.v1.WatchMemoriesResponse;
import dev.memoryd.v1.WatchStarted;
import dev.memoryd.v1.WriteState;
import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The client's own behaviour against a scripted in-process server. */
class ClientBehaviourTest {
  private static final Metadata.Key<String> TRACEPARENT =
      Metadata.Key.of("traceparent", Metadata.ASCII_STRING_MARSHALLER);

  /** A MemoryService that records what it is sent and answers as each test scripts it. */
  static final class FakeService extends MemoryServiceGrpc.MemoryServiceImplBase {
    final List<CreateMemoryRequest> creates = new CopyOnWriteArrayList<>();
    final List<SearchMemoriesRequest> searches = new CopyOnWriteArrayList<>();
    final List<PreloadRequest> preloads = new CopyOnWriteArrayList<>();
    final AtomicInteger unavailableFirst = new AtomicInteger();
    volatile CountDownLatch holdCreates = new CountDownLatch(0);
    final AtomicInteger tokens = new AtomicInteger();
    /** GetWriteStatus's answers per token, in turn; the last one repeats. */
    final Map<String, ConcurrentLinkedDeque<GetWriteStatusResponse>> statuses = new ConcurrentHashMap<>();
    /** When each GetWriteStatus arrived (System.nanoTime()). */
    final List<Long> statusPolls = new CopyOnWriteArrayList<>();

    @Override
    public void getWriteStatus(GetWriteStatusRequest request, StreamObserver<GetWriteStatusResponse> out) {
      statusPolls.add(System.nanoTime());
      ConcurrentLinkedDeque<GetWriteStatusResponse> answers = statuses.get(request.getWriteToken());
      if (answers == null) {
        out.onError(StatusProto.toStatusRuntimeException(com.google.rpc.Status.newBuilder()
            .setCode(Status.Code.NOT_FOUND.value()).setMessage("unknown write_token")
            .addDetails(Any.pack(ErrorInfo.newBuilder().setDomain("memoryd").setReason("UNKNOWN_WRITE_TOKEN").build()))
            .build()));
        return;
      }
      out.onNext(answers.size() > 1 ? answers.poll() : answers.peek());
      out.onCompleted();
    }

    @Override
    public void createMemory(CreateMemoryRequest request, StreamObserver<CreateMemoryResponse> out) {
      creates.add(request);
      if (unavailableFirst.getAndDecrement() > 0) {
        out.onError(Status.UNAVAILABLE.withDescription("try again").asRuntimeException());
        return;
      }
      try {
        holdCreates.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      out.onNext(CreateMemoryResponse.newBuilder().setWriteToken("t" + tokens.incrementAndGet()).build());
      out.onCompleted();
    }

    @Override
    public void searchMemories(SearchMemoriesRequest request, StreamObserver<SearchMemoriesResponse> out) {
      searches.add(request);
      if (request.getConsistencyToken().equals("refused")) {
        out.onError(refusedToken());
        return;
      }
      out.onNext(SearchMemoriesResponse.getDefaultInstance());
      out.onCompleted();
    }

    @Override
    public void listMemories(ListMemoriesRequest request, StreamObserver<ListMemoriesResponse> out) {
      int page = request.getPageToken().isEmpty() ? 0 : Integer.parseInt(request.getPageToken());
      ListMemoriesResponse.Builder response = ListMemoriesResponse.newBuilder();
      for (int i = 0; i < request.getPageSize() && page * request.getPageSize() + i < 5; i++) {
        response.addMemories(Memory.newBuilder().setId("m" + (page * request.getPageSize() + i)));
      }
      if ((page + 1) * request.getPageSize() < 5) {
        response.setNextPageToken(String.valueOf(page + 1));
      }
      out.onNext(response.build());
      out.onCompleted();
    }

    @Override
    public void preload(PreloadRequest request, StreamObserver<PreloadResponse> out) {
      preloads.add(request);
      if (request.getConsistencyToken().equals("refused")) {
        out.onError(refusedToken());
        return;
      }
      if (request.getQuery().isEmpty()) {
        out.onError(StatusProto.toStatusRuntimeException(com.google.rpc.Status.newBuilder()
            .setCode(Status.Code.INVALID_ARGUMENT.value()).setMessage("no query")
            .addDetails(Any.pack(ErrorInfo.newBuilder().setDomain("memoryd").setReason("INVALID_ARGUMENT").build()))
            .build()));
        return;
      }
      out.onNext(PreloadResponse.newBuilder()
          .setContext(PreloadContext.newBuilder().setText("[Long-term Memory Context]")).build());
      out.onNext(PreloadResponse.newBuilder().setDone(PreloadDone.newBuilder().setEtag("e1")).build());
      out.onCompleted();
    }

    final List<WatchMemoriesRequest> watches = new CopyOnWriteArrayList<>();
    /** Whether each watch arrived with a deadline. */
    final List<Boolean> watchDeadlines = new CopyOnWriteArrayList<>();
    /** Counted down when a watch held open (scope user "held") is cancelled by the client. */
    final CountDownLatch watchCancelled = new CountDownLatch(1);

    @Override
    public void watchMemories(WatchMemoriesRequest request, StreamObserver<WatchMemoriesResponse> out) {
      watches.add(request);
      watchDeadlines.add(Context.current().getDeadline() != null);
      if (request.getStartAfterSequence() == 999) {
        out.onError(StatusProto.toStatusRuntimeException(com.google.rpc.Status.newBuilder()
            .setCode(Status.Code.OUT_OF_RANGE.value()).setMessage("start_after_sequence 999 is past the end")
            .addDetails(Any.pack(ErrorInfo.newBuilder().setDomain("memoryd").setReason("CHANGE_HISTORY_EXPIRED").build()))
            .build()));
        return;
      }
      boolean held = request.getScope().getUserId().equals("held");
      if (held) {
        ((ServerCallStreamObserver<WatchMemoriesResponse>) out).setOnCancelHandler(watchCancelled::countDown);
      }
      long after = request.hasStartAfterSequence() ? request.getStartAfterSequence() : 41;
      out.onNext(WatchMemoriesResponse.newBuilder()
          .setStarted(WatchStarted.newBuilder().setAfterSequence(after)).build());
      out.onNext(WatchMemoriesResponse.newBuilder().setChange(MemoryChange.newBuilder()
          .setSequence(after + 1).setType(ChangeType.CHANGE_TYPE_CREATED)
          .setMemory(Memory.newBuilder().setId("m1"))).build());
      if (held) {
        return; // open until the client cancels
      }
      out.onNext(WatchMemoriesResponse.newBuilder()
          .setFellBehind(WatchFellBehind.newBuilder().setResumeAfterSequence(after + 1)).build());
      out.onCompleted();
    }

    private static RuntimeException refusedToken() {
      return StatusProto.toStatusRuntimeException(com.google.rpc.Status.newBuilder()
          .setCode(Status.Code.INVALID_ARGUMENT.value())
          .setMessage("unknown consistency_token")
          .addDetails(Any.pack(ErrorInfo.newBuilder().setDomain("memoryd").setReason("INVALID_ARGUMENT").build()))
          .addDetails(Any.pack(BadRequest.newBuilder().addFieldViolations(
              BadRequest.FieldViolation.newBuilder().setField("consistency_token")).build()))
          .build());
    }
  }

  private final FakeService service = new FakeService();
  private final List<Metadata> headers = new CopyOnWriteArrayList<>();
  private Server server;
  private String serverName;
  private MemorydClient client;

  @BeforeAll
  static void installPropagator() {
    GlobalOpenTelemetry.set(OpenTelemetry.propagating(
        ContextPropagators.create(W3CTraceContextPropagator.getInstance())));
  }

  @BeforeEach
  void start() throws Exception {
    String name = InProcessServerBuilder.generateName();
    serverName = name;
    ServerInterceptor recorder = new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(
          ServerCall<Q, R> call, Metadata metadata, ServerCallHandler<Q, R> next) {
        headers.add(metadata);
        return next.startCall(call, metadata);
      }
    };
    server = InProcessServerBuilder.forName(name).executor(java.util.concurrent.Executors.newCachedThreadPool())
        .addService(ServerInterceptors.intercept(service, recorder)).build().start();
    client = MemorydClient.builder()
        .target("memoryd.test:50051")
        .bearerToken("k1")
        .timeout(Duration.ofSeconds(5))
        .retryBackoff(Duration.ofMillis(10), Duration.ofMillis(20))
        .channelBuilder((target, credentials) -> InProcessChannelBuilder.forName(name))
        .build();
  }

  @AfterEach
  void stop() {
    client.close();
    server.shutdownNow();
  }

  private static CreateMemoryRequest create(String user) {
    return CreateMemoryRequest.newBuilder().setMemory(Memory.newBuilder().setContent("c")
        .setScope(dev.memoryd.v1.Scope.newBuilder().setUserId(user))).build();
  }

  private static SearchMemoriesRequest search(String user) {
    return SearchMemoriesRequest.newBuilder().setQuery("q")
        .setScope(dev.memoryd.v1.Scope.newBuilder().setUserId(user)).build();
  }

  @Test
  void writesGetARequestIdThatRetriesOnUnavailableKeep() {
    service.unavailableFirst.set(1);
    client.createMemory(create("u1"));
    assertEquals(2, service.creates.size(), "one retry after UNAVAILABLE");
    String requestId = service.creates.get(0).getRequestId();
    assertEquals(36, requestId.length());
    assertEquals(requestId, service.creates.get(1).getRequestId());

    client.createMemory(create("u1").toBuilder().setRequestId("mine").build());
    assertEquals("mine", service.creates.get(2).getRequestId());
  }

  @Test
  void everyCallCarriesCredentialsAndTraceContextAndNoRequestIdHeader() {
    SpanContext span = SpanContext.create("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7",
        TraceFlags.getSampled(), TraceState.getDefault());
    try (Scope ignored = Span.wrap(span).makeCurrent()) {
      client.searchMemories(search("u1"));
    }
    Metadata sent = headers.get(0);
    assertEquals("Bearer k1", sent.get(MemorydInterceptor.AUTHORIZATION));
    assertFalse(sent.containsKey(Metadata.Key.of("x-request-id", Metadata.ASCII_STRING_MARSHALLER)),
        "the server reads no x-request-id");
    assertEquals("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", sent.get(TRACEPARENT));
  }

  @Test
  void readsCarryTheNewestTokenOfTheirScopeUnlessTheCallerSetOne() {
    client.createMemory(create("u1"));
    client.createMemory(create("u1"));
    client.createMemory(create("u2"));
    client.searchMemories(search("u1"));
    client.searchMemories(search("u3"));
    client.searchMemories(search("u2").toBuilder().setConsistencyToken("caller").build());
    assertEquals(List.of("t2", "", "caller"),
        service.searches.stream().map(SearchMemoriesRequest::getConsistencyToken).collect(Collectors.toList()));
  }

  @Test
  void aRefusedTokenIsForgottenAndTheReadSentAgainWithoutIt() {
    client.scopeWrites().note(dev.memoryd.v1.Scope.newBuilder().setUserId("u1").build(), "refused");
    client.searchMemories(search("u1"));
    client.searchMemories(search("u1"));
    assertEquals(List.of("refused", "", ""),
        service.searches.stream().map(SearchMemoriesRequest::getConsistencyToken).collect(Collectors.toList()));

    client.scopeWrites().note(dev.memoryd.v1.Scope.newBuilder().setUserId("u1").build(), "refused");
    PreloadRequest preload = PreloadRequest.newBuilder().setQuery("q")
        .setUserScope(dev.memoryd.v1.Scope.newBuilder().setUserId("u1")).build();
    assertEquals("[Long-term Memory Context]", client.preloadContext(preload));
    assertEquals(List.of("refused", ""),
        service.preloads.stream().map(PreloadRequest::getConsistencyToken).collect(Collectors.toList()));
    // A token the caller set is the caller's: its refusal is the caller's error.
    InvalidArgumentException refused = assertThrows(InvalidArgumentException.class,
        () -> client.searchMemories(search("u1").toBuilder().setConsistencyToken("refused").build()));
    assertEquals("consistency_token", refused.fieldViolations().get(0).field());
  }

  @Test
  void aReadWaitsForTheClientsWriteInFlightIntoItsScope() throws Exception {
    service.holdCreates = new CountDownLatch(1);
    CompletableFuture<CreateMemoryResponse> write =
        CompletableFuture.supplyAsync(() -> client.createMemory(create("u1")));
    while (service.creates.isEmpty()) {
      Thread.sleep(5);
    }
    // Another scope does not wait.
    client.searchMemories(search("u2"));
    // This scope waits, within the read's deadline.
    assertThrows(WriteInFlightException.class,
        () -> client.withTimeout(Duration.ofMillis(100)).searchMemories(search("u1")));
    CompletableFuture<SearchMemoriesResponse> read =
        CompletableFuture.supplyAsync(() -> client.searchMemories(search("u1")));
    Thread.sleep(100);
    assertFalse(read.isDone());
    service.holdCreates.countDown();
    write.get(5, TimeUnit.SECONDS);
    read.get(5, TimeUnit.SECONDS);
    assertEquals("t1", service.searches.get(service.searches.size() - 1).getConsistencyToken());
  }

  @Test
  void listAllPagesThroughEveryMemory() {
    ListMemoriesRequest request = ListMemoriesRequest.newBuilder().setPageSize(2)
        .setScope(dev.memoryd.v1.Scope.newBuilder().setUserId("u1")).build();
    assertEquals(List.of("m0", "m1", "m2", "m3", "m4"),
        client.listAll(request).map(Memory::getId).collect(Collectors.toList()));
  }

  @Test
  void preloadStreamsEventsAndThrowsTypedErrors() {
    PreloadRequest request = PreloadRequest.newBuilder().setQuery("q")
        .setUserScope(dev.memoryd.v1.Scope.newBuilder().setUserId("u1")).build();
    List<PreloadResponse> events = client.preload(request).collect(Collectors.toList());
    assertEquals(2, events.size());
    assertTrue(events.get(1).hasDone());
    MemorydException error = assertThrows(MemorydException.class,
        () -> client.preload(request.toBuilder().clearQuery().build()).forEach(event -> { }));
    assertInstanceOf(InvalidArgumentException.class, error);
    assertEquals("INVALID_ARGUMENT", error.reason());
  }

  private static WatchMemoriesRequest watch(String user) {
    return WatchMemoriesRequest.newBuilder()
        .setScope(dev.memoryd.v1.Scope.newBuilder().setUserId(user)).build();
  }

  @Test
  void watchStreamsEveryEventWithoutADeadline() {
    List<WatchMemoriesResponse> events;
    try (Stream<WatchMemoriesResponse> stream = client.watch(watch("u1"))) {
      events = stream.collect(Collectors.toList());
    }
    assertEquals(List.of(WatchMemoriesResponse.EventCase.STARTED, WatchMemoriesResponse.EventCase.CHANGE,
        WatchMemoriesResponse.EventCase.FELL_BEHIND),
        events.stream().map(WatchMemoriesResponse::getEventCase).collect(Collectors.toList()));
    assertEquals(41, events.get(0).getStarted().getAfterSequence());
    assertEquals(42, events.get(1).getChange().getSequence());
    assertEquals("m1", events.get(1).getChange().getMemory().getId());
    assertEquals(42, events.get(2).getFellBehind().getResumeAfterSequence());
    assertFalse(service.watches.get(0).hasStartAfterSequence(), "unset start_after_sequence stays unset");
    assertEquals(List.of(false), service.watchDeadlines, "a watch has no deadline of its own");

    try (Stream<WatchMemoriesResponse> stream =
        client.watch(watch("u1").toBuilder().setStartAfterSequence(7).build())) {
      assertEquals(7, stream.iterator().next().getStarted().getAfterSequence());
    }
  }

  @Test
  void closingTheWatchCancelsTheCall() throws Exception {
    try (Stream<WatchMemoriesResponse> stream = client.watch(watch("held"))) {
      Iterator<WatchMemoriesResponse> events = stream.iterator();
      assertTrue(events.next().hasStarted());
      assertTrue(events.next().hasChange());
    }
    assertTrue(service.watchCancelled.await(10, TimeUnit.SECONDS), "the server saw the watch cancelled");
  }

  @Test
  void watchErrorsAreTyped() {
    ChangeHistoryExpiredException error = assertThrows(ChangeHistoryExpiredException.class, () -> {
      try (Stream<WatchMemoriesResponse> stream =
          client.watch(watch("u1").toBuilder().setStartAfterSequence(999).build())) {
        stream.forEach(event -> { });
      }
    });
    assertEquals(Status.Code.OUT_OF_RANGE, error.code());
    assertEquals("CHANGE_HISTORY_EXPIRED", error.reason());
  }

  @Test
  void aViewHasItsOwnDeadlineAndLeavesTheChannelOpen() {
    MemorydClient view = client.withTimeout(Duration.ofMillis(250));
    assertEquals(Duration.ofMillis(250), view.readTimeout());
    view.close();
    client.searchMemories(search("u1"));
  }

  private static GetWriteStatusResponse status(String token, WriteState state) {
    return GetWriteStatusResponse.newBuilder().setWriteToken(token).setState(state).build();
  }

  private void script(String token, GetWriteStatusResponse... answers) {
    service.statuses.put(token, new ConcurrentLinkedDeque<>(List.of(answers)));
  }

  @Test
  void waitForWritePollsUntilApplied() {
    GetWriteStatusResponse applied = status("t7", WriteState.WRITE_STATE_APPLIED).toBuilder()
        .setCreateMemory(CreateMemoryResponse.newBuilder().setWriteToken("t7")).build();
    script("t7", status("t7", WriteState.WRITE_STATE_PENDING), status("t7", WriteState.WRITE_STATE_PENDING), applied);
    assertEquals(applied, client.waitForWrite("t7"));
    assertEquals(3, service.statusPolls.size());
    // Already applied: one poll, no pause.
    service.statusPolls.clear();
    assertEquals(applied, client.waitForWrite("t7"));
    assertEquals(1, service.statusPolls.size());
  }

  @Test
  void waitForWriteBacksOffFrom5msDoublingTo200ms() {
    script("slow", status("slow", WriteState.WRITE_STATE_PENDING));
    long started = System.nanoTime();
    DeadlineExceededException pending = assertThrows(DeadlineExceededException.class,
        () -> client.withTimeout(Duration.ofMillis(1000)).waitForWrite("slow"));
    long waited = System.nanoTime() - started;
    assertEquals(Status.Code.DEADLINE_EXCEEDED, pending.code());
    assertEquals("", pending.reason());
    assertTrue(pending.statusMessage().contains("write slow is still pending"), pending.statusMessage());
    assertTrue(waited < TimeUnit.MILLISECONDS.toNanos(1500),
        "gives up at its deadline, not later: " + waited / 1_000_000 + " ms");
    // 5, 10, 20, 40, 80, 160, 200, 200, ... ms: each gap at least its pause, the pause capped.
    List<Long> polls = new ArrayList<>(service.statusPolls);
    // At most 10 polls fit in 1 s: at 0, 5, 15, 35, 75, 155, 315, 515, 715 and 915 ms.
    long[] pauses = {5, 10, 20, 40, 80, 160, 200, 200, 200, 200, 200};
    assertTrue(polls.size() >= 6 && polls.size() <= 10, polls.size() + " polls");
    for (int i = 1; i < polls.size(); i++) {
      long gapMs = TimeUnit.NANOSECONDS.toMillis(polls.get(i) - polls.get(i - 1));
      assertTrue(gapMs >= pauses[i - 1] - 1, "pause " + i + " was " + gapMs + " ms");
    }
  }

  @Test
  void waitForWriteHasTheWriteTimeoutByDefault() {
    try (MemorydClient quick = MemorydClient.builder().target("memoryd.test:50051")
        .readTimeout(Duration.ofSeconds(30)).writeTimeout(Duration.ofMillis(150))
        .channelBuilder((target, credentials) -> InProcessChannelBuilder.forName(serverName))
        .build()) {
      script("slow", status("slow", WriteState.WRITE_STATE_PENDING));
      long started = System.nanoTime();
      assertThrows(DeadlineExceededException.class, () -> quick.waitForWrite("slow"));
      assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(2));
    }
  }

  @Test
  void aFailedWriteThrowsItsOwnTypedErrorWithTheToken() {
    com.google.rpc.Status mismatch = com.google.rpc.Status.newBuilder()
        .setCode(Status.Code.ABORTED.value()).setMessage("expected version 3, the memory is at 4")
        .addDetails(Any.pack(ErrorInfo.newBuilder().setDomain("memoryd").setReason("VERSION_MISMATCH").build()))
        .build();
    script("t9", status("t9", WriteState.WRITE_STATE_PENDING),
        status("t9", WriteState.WRITE_STATE_FAILED).toBuilder().setError(mismatch).build());
    VersionMismatchException failed = assertThrows(VersionMismatchException.class, () -> client.waitForWrite("t9"));
    assertEquals("t9", failed.writeToken());
    assertEquals(Status.Code.ABORTED, failed.code());
    assertEquals("VERSION_MISMATCH", failed.reason());
    assertEquals("write t9 failed: expected version 3, the memory is at 4", failed.statusMessage());
    VersionMismatchException cause = assertInstanceOf(VersionMismatchException.class, failed.getCause());
    assertEquals("expected version 3, the memory is at 4", cause.statusMessage());
    assertEquals("", cause.writeToken());

    script("t10", status("t10", WriteState.WRITE_STATE_FAILED));
    InternalException unexplained = assertThrows(InternalException.class, () -> client.waitForWrite("t10"));
    assertEquals(Status.Code.UNKNOWN, unexplained.code());
    assertEquals("t10", unexplained.writeToken());
  }

  @Test
  void waitForWriteOfAnUnknownTokenIsTheServersError() {
    UnknownWriteTokenException unknown =
        assertThrows(UnknownWriteTokenException.class, () -> client.waitForWrite("never"));
    assertEquals("", unknown.writeToken());
    assertEquals(1, service.statusPolls.size());
  }
}
