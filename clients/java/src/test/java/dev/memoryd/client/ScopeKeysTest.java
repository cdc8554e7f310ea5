package dev.memoryd.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memoryd.v1.BatchCreateMemoriesRequest;
import dev.memoryd.v1.CreateMemoryRequest;
import dev.memoryd.v1.ForgetMemoriesRequest;
import dev.memoryd.v1.Memory;
import dev.memoryd.v1.PreloadRequest;
import dev.memoryd.v1.Scope;
import dev.memoryd.v1.SearchMemoriesRequest;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The keys must be exactly those of the Python client (memoryd_client/_scope_keys.py). */
class ScopeKeysTest {
  private static final String S = "\u001f";

  private static Scope scope(String user, String agent, String app, String thread) {
    return Scope.newBuilder().setUserId(user).setAgentId(agent).setAppId(app).setThreadId(thread).build();
  }

  @Test
  void userMemoryIsKeyedByUserAlone() {
    Scope user = scope("u1", "a", "b", "t");
    assertEquals(Set.of("user" + S + "u1"), ScopeKeys.scopeKeys(user));
    assertEquals(Set.of("user" + S + "u1"), ScopeKeys.readKeys(user));
    assertEquals(Set.of("user" + S + "u1"), ScopeKeys.forgetKeys(user));
  }

  @Test
  void sharedMemoryIsKeyedByAgentAndByApp() {
    assertEquals(Set.of("agent" + S + "a", "app" + S + "b"), ScopeKeys.scopeKeys(scope("", "a", "b", "t")));
    assertEquals(Set.of("agent" + S + "a", "app" + S + "b"), ScopeKeys.readKeys(scope("", "a", "b", "")));
    assertEquals(Set.of("agent" + S + "a", "app" + S + "b"), ScopeKeys.forgetKeys(scope("", "a", "b", "")));
  }

  @Test
  void forgetsWithoutAppOrAgentReachEveryOneAndReadsConsultThem() {
    assertEquals(Set.of("agent" + S + "a", "app" + S + "*"), ScopeKeys.forgetKeys(scope("", "a", "", "")));
    assertEquals(Set.of("app" + S + "b", "agent" + S + "*"), ScopeKeys.forgetKeys(scope("", "", "b", "")));
    assertEquals(Set.of("agent" + S + "a", "agent" + S + "*"), ScopeKeys.readKeys(scope("", "a", "", "")));
    assertEquals(Set.of("app" + S + "b", "app" + S + "*"), ScopeKeys.readKeys(scope("", "", "b", "")));
  }

  @Test
  void anEmptyScopeHasAKeyOfItsOwn() {
    Scope empty = Scope.getDefaultInstance();
    assertEquals(Set.of("self"), ScopeKeys.scopeKeys(empty));
    assertEquals(Set.of("self"), ScopeKeys.readKeys(empty));
    assertEquals(Set.of("self"), ScopeKeys.forgetKeys(scope("", "", "", "t")));
  }

  @Test
  void requestsAreKeyedByTheirScopes() {
    Scope u1 = scope("u1", "", "", "");
    Scope shared = scope("", "a", "", "");
    CreateMemoryRequest create = CreateMemoryRequest.newBuilder()
        .setMemory(Memory.newBuilder().setScope(u1)).build();
    CreateMemoryRequest createShared = CreateMemoryRequest.newBuilder()
        .setMemory(Memory.newBuilder().setScope(shared)).build();
    assertEquals(Set.of("user" + S + "u1", "agent" + S + "a"), ScopeKeys.writeKeysOf(
        BatchCreateMemoriesRequest.newBuilder().addRequests(create).addRequests(createShared).build()));
    assertEquals(Set.of("agent" + S + "a", "app" + S + "*"),
        ScopeKeys.writeKeysOf(ForgetMemoriesRequest.newBuilder().setScope(shared).build()));
    assertEquals(Set.of("user" + S + "u1", "agent" + S + "a", "agent" + S + "*"), ScopeKeys.readKeysOf(
        PreloadRequest.newBuilder().setUserScope(u1).setAgentScope(shared).build()));
    assertEquals(Set.of("user" + S + "u1"), ScopeKeys.readKeysOf(PreloadRequest.newBuilder().setUserScope(u1).build()));
    assertEquals(Set.of("user" + S + "u1"),
        ScopeKeys.readKeysOf(SearchMemoriesRequest.newBuilder().setScope(u1).build()));
  }

  @Test
  void theNewestTokenOfAnyKeyWinsAndRefusedTokensAreForgotten() {
    ScopeWrites writes = new ScopeWrites(2);
    writes.note(scope("", "a", "b", ""), "t1");
    writes.note(scope("", "", "b", ""), "t2");
    assertEquals("t2", writes.tokenFor(scope("", "a", "b", "")));
    assertEquals("t1", writes.tokenFor(scope("", "a", "", "")));
    writes.note(scope("u1", "", "", ""), "t3"); // beyond 2 keys, the least recently used goes
    assertEquals(2, writes.size());
    writes.forgetToken("t3");
    assertEquals("", writes.tokenFor(scope("u1", "", "", "")));
  }
}
