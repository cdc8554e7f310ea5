package dev.memoryd.examples;

import dev.memoryd.client.MemorydClient;
import dev.memoryd.client.MemorydException;
import dev.memoryd.v1.ConversationTurn;
import dev.memoryd.v1.CreateMemoryRequest;
import dev.memoryd.v1.Memory;
import dev.memoryd.v1.MemoryType;
import dev.memoryd.v1.PreloadRequest;
import dev.memoryd.v1.Scope;
import dev.memoryd.v1.TurnRole;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * An agent loop with long-term memory, offline: before each (scripted) model call it preloads
 * the memories relevant to the conversation from memoryd, prints the context block it would
 * send as a system message, and stores what the model "learned" from the turn. Writes are
 * ASYNC; the client's read-your-writes makes the next preload see them at once.
 *
 * <p>Usage: {@code clients/java/target/agent-loop [host:port]} (default localhost:50051).
 */
public final class AgentLoop {
  /** One scripted exchange: what the user says, what the model answers, what it learns. */
  private record Turn(String user, String reply, Map<String, String> learned) {}

  private static final List<Turn> SCRIPT =
      List.of(
          new Turn(
              "Hi! I live in Berlin, so please use Central European Time for me.",
              "Noted: I'll give times in Central European Time.",
              Map.of("timezone", "The user lives in Berlin and uses Central European Time.")),
          new Turn(
              "I'm vegetarian, by the way. Any idea for dinner?",
              "How about a mushroom risotto?",
              Map.of("diet", "The user is vegetarian.")),
          new Turn(
              "When it's noon UTC, what time is it for me, and what should I cook tonight?",
              "It's 13:00 or 14:00 for you; a vegetarian chili would be a good dinner.",
              Map.of()));

  private AgentLoop() {}

  public static void main(String[] args) {
    String target = args.length > 0 ? args[0] : "localhost:50051";
    String run = UUID.randomUUID().toString().substring(0, 8);
    Scope user = Scope.newBuilder().setUserId("example-user-" + run).build();
    Scope agent = Scope.newBuilder().setAgentId("example-assistant-" + run).build();

    try (MemorydClient client = MemorydClient.builder().target(target).build()) {
      // Agent memory is written by application code, never by the model.
      client.createMemory(
          CreateMemoryRequest.newBuilder()
              .setMemory(
                  Memory.newBuilder()
                      .setContent("Answer cooking questions with one concrete dish.")
                      .setScope(agent)
                      .setMemoryType(MemoryType.MEMORY_TYPE_PROCEDURAL)
                      .setMemoryKey("cooking-style"))
              .build());

      List<ConversationTurn> history = new ArrayList<>();
      String context = "";
      for (Turn turn : SCRIPT) {
        System.out.println("user> " + turn.user());
        history.add(turn(TurnRole.TURN_ROLE_USER, turn.user()));
        context =
            client.preloadContext(
                PreloadRequest.newBuilder()
                    .addAllTurns(history)
                    .setUserScope(user)
                    .setAgentScope(agent)
                    .build());
        System.out.println("--- context sent to the model as a system message ---");
        System.out.println(context.isEmpty() ? "(no memories yet)" : context);
        System.out.println("-----------------------------------------------------");
        System.out.println("model> " + turn.reply());
        history.add(turn(TurnRole.TURN_ROLE_ASSISTANT, turn.reply()));
        for (Map.Entry<String, String> fact : turn.learned().entrySet()) {
          client.createMemory(
              CreateMemoryRequest.newBuilder()
                  .setMemory(
                      Memory.newBuilder()
                          .setContent(fact.getValue())
                          .setScope(user.toBuilder().setThreadId("thread-" + run))
                          .setMemoryType(MemoryType.MEMORY_TYPE_SEMANTIC)
                          .setMemoryKey(fact.getKey()))
                  .build());
          System.out.println("  (remembered " + fact.getKey() + ": " + fact.getValue() + ")");
        }
        System.out.println();
      }
      if (!context.contains("Central European Time") || !context.contains("vegetarian")) {
        System.err.println("the last context lacks what the model learned earlier");
        System.exit(1);
      }
    } catch (MemorydException error) {
      System.err.println("memoryd call failed: " + error.getMessage());
      System.err.println("is memoryd running at " + target + "? (make serve)");
      System.exit(2);
    }
  }

  private static ConversationTurn turn(TurnRole role, String content) {
    return ConversationTurn.newBuilder().setRole(role).setContent(content).build();
  }
}
