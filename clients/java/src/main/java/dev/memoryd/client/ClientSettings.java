package dev.memoryd.client;

import io.grpc.ClientInterceptor;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The validated options of a client (see {@link MemorydClientBuilder} for each one). The TLS
 * material is PEM bytes (read from the files when given as files); null when not set.
 */
record ClientSettings(
    String target,
    boolean tls,
    byte[] trustCertificates,
    byte[] clientCertificateChain,
    byte[] clientPrivateKey,
    String token,
    Duration readTimeout,
    Duration writeTimeout,
    int maxAttempts,
    Duration initialBackoff,
    Duration maxBackoff,
    List<ClientInterceptor> interceptors) {

  /**
   * The gRPC service config: for every method of the service, the retry policy on UNAVAILABLE
   * (none with maxAttempts 1), as the Python client's options.py builds it. Numbers are
   * Doubles, as grpc-java's parsed JSON has them.
   */
  Map<String, Object> serviceConfig() {
    Map<String, Object> methodConfig = new LinkedHashMap<>();
    methodConfig.put("name", List.of(Map.of("service", MemorydClient.SERVICE)));
    if (maxAttempts > 1) {
      Map<String, Object> retryPolicy = new LinkedHashMap<>();
      retryPolicy.put("maxAttempts", (double) maxAttempts);
      retryPolicy.put("initialBackoff", seconds(initialBackoff));
      retryPolicy.put("maxBackoff", seconds(maxBackoff));
      retryPolicy.put("backoffMultiplier", 2.0);
      retryPolicy.put("retryableStatusCodes", List.of("UNAVAILABLE"));
      methodConfig.put("retryPolicy", retryPolicy);
    }
    return Map.of("methodConfig", List.of(methodConfig));
  }

  /** A duration in the service config's form: "0.1s". */
  static String seconds(Duration duration) {
    BigDecimal seconds = BigDecimal.valueOf(duration.getSeconds())
        .add(BigDecimal.valueOf(duration.getNano(), 9));
    return seconds.stripTrailingZeros().toPlainString() + "s";
  }
}
