package dev.memoryd.client.conformance;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import dev.memoryd.client.FieldViolation;
import dev.memoryd.client.MemorydClient;
import dev.memoryd.client.MemorydClientBuilder;
import dev.memoryd.client.MemorydException;
import dev.memoryd.v1.BatchCreateMemoriesRequest;
import dev.memoryd.v1.CreateMemoryRequest;
import dev.memoryd.v1.DeleteMemoryRequest;
import dev.memoryd.v1.ForgetMemoriesRequest;
import dev.memoryd.v1.GetMemoryRequest;
import dev.memoryd.v1.GetWriteStatusRequest;
import dev.memoryd.v1.ListMemoriesRequest;
import dev.memoryd.v1.Memory;
import dev.memoryd.v1.PreloadRequest;
import dev.memoryd.v1.PreloadResponse;
import dev.memoryd.v1.SearchMemoriesRequest;
import dev.memoryd.v1.UpdateMemoryRequest;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The Java conformance runner (tests/clients/scenario_suite/PROTOCOL.md): JSON lines on stdin,
 * one answer line per request on stdout, each step one call of {@link MemorydClient}.
 */
public final class ConformanceRunner {
  private static final Gson GSON = new GsonBuilder().serializeNulls().disableHtmlEscaping().create();
  private static final JsonFormat.Parser PARSER = JsonFormat.parser();
  private static final JsonFormat.Printer PRINTER =
      JsonFormat.printer().preservingProtoFieldNames().omittingInsignificantWhitespace();

  /** One unary RPC: how to parse its request and which wrapper method to call. */
  private record Unary<Q extends Message>(
      Supplier<Message.Builder> builder, Function<MemorydClient, Function<Q, ? extends Message>> method) {
    @SuppressWarnings("unchecked")
    Message run(MemorydClient client, Message request) {
      return method.apply(client).apply((Q) request);
    }
  }

  private static final Map<String, Unary<?>> UNARY =
      Map.of(
          "CreateMemory",
          new Unary<CreateMemoryRequest>(CreateMemoryRequest::newBuilder, c -> c::createMemory),
          "BatchCreateMemories",
          new Unary<BatchCreateMemoriesRequest>(
              BatchCreateMemoriesRequest::newBuilder, c -> c::batchCreateMemories),
          "GetMemory", new Unary<GetMemoryRequest>(GetMemoryRequest::newBuilder, c -> c::getMemory),
          "ListMemories",
          new Unary<ListMemoriesRequest>(ListMemoriesRequest::newBuilder, c -> c::listMemories),
          "UpdateMemory",
          new Unary<UpdateMemoryRequest>(UpdateMemoryRequest::newBuilder, c -> c::updateMemory),
          "DeleteMemory",
          new Unary<DeleteMemoryRequest>(DeleteMemoryRequest::newBuilder, c -> c::deleteMemory),
          "SearchMemories",
          new Unary<SearchMemoriesRequest>(SearchMemoriesRequest::newBuilder, c -> c::searchMemories),
          "ForgetMemories",
          new Unary<ForgetMemoriesRequest>(ForgetMemoriesRequest::newBuilder, c -> c::forgetMemories),
          "GetWriteStatus",
          new Unary<GetWriteStatusRequest>(GetWriteStatusRequest::newBuilder, c -> c::getWriteStatus));

  private MemorydClient client;

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    // Nothing but answers goes to stdout.
    System.setOut(new PrintStream(System.err, true, StandardCharsets.UTF_8));
    ConformanceRunner runner = new ConformanceRunner();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      if (line.isBlank()) {
        continue;
      }
      JsonObject message = JsonParser.parseString(line).getAsJsonObject();
      JsonObject answer = new JsonObject();
      answer.add("id", message.get("id"));
      try {
        runner.handle(message, answer);
      } catch (InvalidProtocolBufferException bad) {
        answer.addProperty("fault", "cannot parse the request: " + bad.getMessage());
      } catch (IllegalArgumentException bad) {
        answer.addProperty("fault", "cannot do this: " + bad.getMessage());
      } catch (RuntimeException bug) {
        bug.printStackTrace();
        answer.addProperty("fault", bug.toString());
      }
      out.println(GSON.toJson(answer));
    }
    runner.close();
    System.exit(0);
  }

  private void handle(JsonObject message, JsonObject answer) throws InvalidProtocolBufferException {
    String op = message.get("op").getAsString();
    switch (op) {
      case "connect" -> {
        close();
        MemorydClientBuilder builder =
            MemorydClient.builder()
                .target(message.get("target").getAsString())
                .timeout(Duration.ofMillis(message.get("timeout_ms").getAsLong()));
        JsonElement token = message.get("token");
        if (token != null && !token.isJsonNull()) {
          builder.bearerToken(token.getAsString());
        }
        JsonElement tls = message.get("tls");
        if (tls != null && !tls.isJsonNull()) {
          // TLS trusting only the given CA; mutual TLS when a client certificate is given.
          JsonObject material = tls.getAsJsonObject();
          builder.tls(true).trustCertificates(material.get("ca").getAsString());
          if (material.has("cert") || material.has("key")) {
            builder.clientCertificate(pem(material, "cert"), pem(material, "key"));
          }
        }
        client = builder.build();
        answer.addProperty("ok", true);
      }
      case "call" -> call(message, answer);
      case "close" -> {
        close();
        answer.addProperty("ok", true);
      }
      default -> answer.addProperty("fault", "unknown op " + op);
    }
  }

  private static String pem(JsonObject material, String name) {
    JsonElement value = material.get(name);
    return value == null || value.isJsonNull() ? null : value.getAsString();
  }

  private void call(JsonObject message, JsonObject answer) throws InvalidProtocolBufferException {
    if (client == null) {
      answer.addProperty("fault", "call before connect");
      return;
    }
    String rpc = message.get("rpc").getAsString();
    JsonElement request = message.has("request") ? message.get("request") : new JsonObject();
    JsonElement timeoutMs = message.get("timeout_ms");
    MemorydClient target =
        timeoutMs == null || timeoutMs.isJsonNull()
            ? client
            : client.withTimeout(Duration.ofMillis(timeoutMs.getAsLong()));
    Unary<?> unary = UNARY.get(rpc);
    try {
      if (unary != null) {
        Message parsed = parse(request, unary.builder().get());
        answer.add("response", json(unary.run(target, parsed)));
      } else if (rpc.equals("ListAllMemories")) {
        ListMemoriesRequest parsed = (ListMemoriesRequest) parse(request, ListMemoriesRequest.newBuilder());
        JsonArray memories = new JsonArray();
        try (Stream<Memory> all = target.listAll(parsed)) {
          for (Iterator<Memory> it = all.iterator(); it.hasNext(); ) {
            memories.add(json(it.next()));
          }
        }
        JsonObject response = new JsonObject();
        response.add("memories", memories);
        answer.add("response", response);
      } else if (rpc.equals("PreloadContext")) {
        PreloadRequest parsed = (PreloadRequest) parse(request, PreloadRequest.newBuilder());
        JsonObject response = new JsonObject();
        response.addProperty("text", target.preloadContext(parsed));
        answer.add("response", response);
      } else if (rpc.equals("Preload")) {
        preload(target, (PreloadRequest) parse(request, PreloadRequest.newBuilder()), answer);
      } else {
        answer.addProperty("fault", "unknown rpc " + rpc);
      }
    } catch (MemorydException error) {
      answer.add("error", error(error));
    }
  }

  private static void preload(MemorydClient client, PreloadRequest request, JsonObject answer) {
    JsonArray events = new JsonArray();
    answer.add("events", events);
    try (Stream<PreloadResponse> stream = client.preload(request)) {
      for (Iterator<PreloadResponse> it = stream.iterator(); it.hasNext(); ) {
        events.add(json(it.next()));
      }
    } catch (MemorydException error) {
      answer.add("error", error(error));
    }
  }

  private static Message parse(JsonElement json, Message.Builder builder)
      throws InvalidProtocolBufferException {
    PARSER.merge(GSON.toJson(json), builder);
    return builder.build();
  }

  private static JsonElement json(MessageOrBuilder message) {
    try {
      return JsonParser.parseString(PRINTER.print(message));
    } catch (InvalidProtocolBufferException unprintable) {
      throw new IllegalStateException("cannot print " + message.getClass().getSimpleName(), unprintable);
    }
  }

  /** PROTOCOL.md's error object, read from the typed exception. */
  private static JsonObject error(MemorydException error) {
    JsonObject json = new JsonObject();
    json.addProperty("code", error.code().name());
    json.addProperty("reason", error.reason());
    json.addProperty("message", error.statusMessage());
    JsonArray violations = new JsonArray();
    for (FieldViolation violation : error.fieldViolations()) {
      JsonObject v = new JsonObject();
      v.addProperty("field", violation.field());
      v.addProperty("description", violation.description());
      violations.add(v);
    }
    json.add("field_violations", violations);
    return json;
  }

  private void close() {
    if (client != null) {
      client.close();
      client = null;
    }
  }
}
