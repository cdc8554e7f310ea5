package dev.memoryd.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class BuilderTest {
  private static String refusal(UnaryOperator<MemorydClientBuilder> options) {
    return assertThrows(IllegalArgumentException.class, () -> options.apply(MemorydClient.builder()).validate())
        .getMessage();
  }

  @Test
  void defaultsAreDocumented() {
    ClientSettings settings = MemorydClient.builder().validate();
    assertEquals("localhost:50051", settings.target());
    assertEquals(Duration.ofSeconds(5), settings.readTimeout());
    assertEquals(Duration.ofSeconds(5), settings.writeTimeout());
    assertEquals(4, settings.maxAttempts());
    assertEquals(null, settings.token());
    assertEquals(false, settings.tls());
  }

  @Test
  void badOptionsSayHowToFixThem() {
    assertTrue(refusal(b -> b.target("")).contains("'host:port'"));
    assertTrue(refusal(b -> b.target("localhost")).contains("lacks a port"));
    assertTrue(refusal(b -> b.target("localhost:99999")).contains("not 1 to 65535"));
    assertTrue(refusal(b -> b.target(" localhost:1")).contains("spaces"));
    assertTrue(refusal(b -> b.timeout(Duration.ZERO)).contains("positive Duration"));
    assertTrue(refusal(b -> b.maxAttempts(6)).contains("1 (no retries) to 5"));
    assertTrue(refusal(b -> b.maxAttempts(0)).contains("1 (no retries) to 5"));
    assertTrue(refusal(b -> b.retryBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1))).contains("at least as long"));
    assertTrue(refusal(b -> b.bearerToken("")).contains("empty"));
    assertTrue(refusal(b -> b.bearerToken("Bearer abc")).contains("pass the token alone"));
    assertTrue(refusal(b -> b.bearerToken("a").apiKey("b")).contains("only one"));
    assertTrue(refusal(b -> b.trustCertificates(Path.of("ca.pem"))).contains("tls(true)"));
    assertTrue(refusal(b -> b.tls(true).clientCertificate(Path.of("c.pem"), null)).contains("both"));
    assertTrue(refusal(b -> b.tls(true).trustCertificates(Path.of("/no/such/ca.pem"))).contains("cannot read"));
  }

  @Test
  void goodTargetsPass() {
    for (String target : List.of("127.0.0.1:50051", "[::1]:6000", "memoryd.internal:443", "dns:///memoryd:50051")) {
      assertEquals(target, MemorydClient.builder().target(target).validate().target());
    }
  }

  @Test
  void theServiceConfigRetriesUnavailable() {
    Map<String, Object> config = MemorydClient.builder().retryBackoff(Duration.ofMillis(100), Duration.ofSeconds(1))
        .validate().serviceConfig();
    @SuppressWarnings("unchecked")
    Map<String, Object> method = ((List<Map<String, Object>>) config.get("methodConfig")).get(0);
    assertEquals(List.of(Map.of("service", "memoryd.v1.MemoryService")), method.get("name"));
    assertEquals(
        Map.of("maxAttempts", 4.0, "initialBackoff", "0.1s", "maxBackoff", "1s",
            "backoffMultiplier", 2.0, "retryableStatusCodes", List.of("UNAVAILABLE")),
        method.get("retryPolicy"));
    @SuppressWarnings("unchecked")
    Map<String, Object> single = ((List<Map<String, Object>>) MemorydClient.builder().maxAttempts(1)
        .validate().serviceConfig().get("methodConfig")).get(0);
    assertEquals(false, single.containsKey("retryPolicy"));
  }
}
