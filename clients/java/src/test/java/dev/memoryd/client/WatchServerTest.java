package dev.memoryd.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memoryd.v1.ChangeType;
import dev.memoryd.v1.CreateMemoryRequest;
import dev.memoryd.v1.Memory;
import dev.memoryd.v1.MemoryChange;
import dev.memoryd.v1.Scope;
import dev.memoryd.v1.WatchMemoriesRequest;
import dev.memoryd.v1.WatchMemoriesResponse;
import dev.memoryd.v1.WriteMode;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link MemorydClient#watch} against a real memoryd ({@link RealServer}): changes made through
 * the same client arrive as events, a watch resumes after a sequence, and a resume outside the
 * kept history is a {@link ChangeHistoryExpiredException}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WatchServerTest {
  private static RealServer server;
  private static MemorydClient client;

  @BeforeAll
  static void start() throws Exception {
    server = RealServer.start();
    client = MemorydClient.builder().target(server.address()).timeout(Duration.ofSeconds(30)).build();
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private static Scope freshUser() {
    return Scope.newBuilder().setUserId("watch-" + UUID.randomUUID()).build();
  }

  private static String store(Scope scope, String content) {
    String id = client.createMemory(CreateMemoryRequest.newBuilder()
        .setMemory(Memory.newBuilder().setContent(content).setScope(scope))
        .setMode(WriteMode.WRITE_MODE_SYNC).build()).getMemory().getId();
    assertNotEquals("", id);
    return id;
  }

  private static MemoryChange nextChange(Iterator<WatchMemoriesResponse> events) {
    assertTrue(events.hasNext(), "the watch ended early");
    WatchMemoriesResponse event = events.next();
    assertTrue(event.hasChange(), "expected a change, got " + event);
    return event.getChange();
  }

  @Test
  void seesAMemoryCreatedAfterStartedThenResumesWithOnlyLaterChanges() {
    Scope scope = freshUser();
    MemoryChange created;
    try (Stream<WatchMemoriesResponse> stream = client.watch(WatchMemoriesRequest.newBuilder().setScope(scope).build())) {
      Iterator<WatchMemoriesResponse> events = stream.iterator();
      WatchMemoriesResponse started = events.next();
      assertTrue(started.hasStarted(), "the first event is started: " + started);
      String first = store(scope, "The user lives in Lisbon and works remotely");
      created = nextChange(events);
      assertEquals(ChangeType.CHANGE_TYPE_CREATED, created.getType());
      assertEquals(first, created.getMemory().getId());
      assertTrue(created.getSequence() > started.getStarted().getAfterSequence(),
          created.getSequence() + " > " + started.getStarted().getAfterSequence());
      assertTrue(created.hasChangeTime(), "a change has its change_time");
    }

    String second = store(scope, "The user's favourite editor is Emacs");
    String third = store(scope, "The user is allergic to peanuts");
    try (Stream<WatchMemoriesResponse> stream = client.watch(WatchMemoriesRequest.newBuilder()
        .setScope(scope).setStartAfterSequence(created.getSequence()).build())) {
      Iterator<WatchMemoriesResponse> events = stream.iterator();
      assertEquals(created.getSequence(), events.next().getStarted().getAfterSequence());
      MemoryChange later = nextChange(events);
      MemoryChange latest = nextChange(events);
      assertEquals(List.of(second, third), List.of(later.getMemory().getId(), latest.getMemory().getId()));
      assertEquals(ChangeType.CHANGE_TYPE_CREATED, later.getType());
      assertEquals(ChangeType.CHANGE_TYPE_CREATED, latest.getType());
      assertTrue(later.getSequence() > created.getSequence() && latest.getSequence() > later.getSequence());
    }
  }

  @Test
  void aResumeFarPastTheEndOfTheHistoryIsChangeHistoryExpired() {
    WatchMemoriesRequest request = WatchMemoriesRequest.newBuilder()
        .setScope(freshUser()).setStartAfterSequence(1L << 60).build();
    ChangeHistoryExpiredException error = assertThrows(ChangeHistoryExpiredException.class, () -> {
      try (Stream<WatchMemoriesResponse> stream = client.watch(request)) {
        stream.iterator().hasNext();
      }
    });
    assertEquals(io.grpc.Status.Code.OUT_OF_RANGE, error.code());
    assertEquals("CHANGE_HISTORY_EXPIRED", error.reason());
  }
}
