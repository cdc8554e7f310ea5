package dev.memoryd.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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

  /** A PEM file of the test PKI (src/test/resources/tls). */
  static Path tlsFile(String name) {
    try {
      return Path.of(BuilderTest.class.getResource("/tls/" + name).toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static String tlsText(String name) {
    try {
      return Files.readString(tlsFile(name), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void pemMaterialIsCheckedLikeFiles() {
    String ca = tlsText("test-ca.pem");
    String cert = tlsText("client.pem");
    String key = tlsText("client-key.pem");
    assertTrue(refusal(b -> b.trustCertificates(ca)).contains("tls(true)"));
    assertTrue(refusal(b -> b.clientCertificate(cert, key)).contains("tls(true)"));
    assertTrue(refusal(b -> b.tls(true).clientCertificate(cert, null)).contains("both"));
    assertTrue(refusal(b -> b.tls(true).clientCertificate((byte[]) null, key.getBytes(StandardCharsets.US_ASCII)))
        .contains("both"));
    assertTrue(refusal(b -> b.tls(true).trustCertificates(tlsFile("test-ca.pem")).trustCertificates(ca))
        .contains("pass only one"));
    assertTrue(refusal(b -> b.tls(true).clientCertificate(tlsFile("client.pem"), tlsFile("client-key.pem"))
        .clientCertificate(cert, key)).contains("pass only one"));
    assertTrue(refusal(b -> b.tls(true).trustCertificates("")).contains("holds no certificate"));
    assertTrue(refusal(b -> b.tls(true).trustCertificates(key)).contains("holds no certificate"));
    assertTrue(refusal(b -> b.tls(true).trustCertificates(
        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")).contains("not valid PEM"));
    assertTrue(refusal(b -> b.tls(true).clientCertificate(cert, "")).contains("PKCS#8"));
    assertTrue(refusal(b -> b.tls(true).clientCertificate(cert, cert)).contains("PKCS#8"));
    assertTrue(refusal(b -> b.tls(true).clientCertificate(
        cert, "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n")).contains("not PKCS#8"));
    assertTrue(refusal(b -> b.tls(true).clientCertificate(
        cert, "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n"))
        .contains("encrypted"));
    assertTrue(refusal(b -> b.tls(true).clientCertificate(cert, tlsText("server-key.pem")))
        .contains("does not belong to the client certificate"));
    // The file options get the same checks.
    assertTrue(refusal(b -> b.tls(true).trustCertificates(tlsFile("client-key.pem"))).contains("holds no certificate"));
    assertTrue(refusal(b -> b.tls(true).clientCertificate(tlsFile("client.pem"), tlsFile("server-key.pem")))
        .contains("does not belong"));
  }

  @Test
  void goodPemMaterialPassesAsTextBytesOrFiles() {
    byte[] ca = tlsText("test-ca.pem").getBytes(StandardCharsets.US_ASCII);
    byte[] cert = tlsText("client.pem").getBytes(StandardCharsets.US_ASCII);
    byte[] key = tlsText("client-key.pem").getBytes(StandardCharsets.US_ASCII);
    ClientSettings fromText = MemorydClient.builder().tls(true).trustCertificates(tlsText("test-ca.pem"))
        .clientCertificate(tlsText("client.pem"), tlsText("client-key.pem")).validate();
    ClientSettings fromFiles = MemorydClient.builder().tls(true).trustCertificates(tlsFile("test-ca.pem"))
        .clientCertificate(tlsFile("client.pem"), tlsFile("client-key.pem")).validate();
    byte[] mine = ca.clone();
    MemorydClientBuilder fromBytes = MemorydClient.builder().tls(true).trustCertificates(mine)
        .clientCertificate(cert, key);
    mine[0] = 'X'; // the builder keeps its own copy
    for (ClientSettings settings : List.of(fromText, fromFiles, fromBytes.validate())) {
      assertArrayEquals(ca, settings.trustCertificates());
      assertArrayEquals(cert, settings.clientCertificateChain());
      assertArrayEquals(key, settings.clientPrivateKey());
    }
    ClientSettings caOnly = MemorydClient.builder().tls(true).trustCertificates(tlsText("test-ca.pem")).validate();
    assertEquals(null, caOnly.clientCertificateChain());
    MemorydClient.builder().tls(true).trustCertificates(ca).build().close();
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
