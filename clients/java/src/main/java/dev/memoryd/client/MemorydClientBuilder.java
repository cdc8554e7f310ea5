package dev.memoryd.client;

import io.grpc.ChannelCredentials;
import io.grpc.ClientInterceptor;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.TlsChannelCredentials;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Options of a {@link MemorydClient}. Every option has a usable default; {@link #build()}
 * validates them all and throws {@link IllegalArgumentException} naming the option and the fix.
 *
 * <table>
 *   <caption>Options and defaults</caption>
 *   <tr><th>option</th><th>default</th></tr>
 *   <tr><td>{@link #target}</td><td>{@code localhost:50051}</td></tr>
 *   <tr><td>{@link #tls}, {@link #trustCertificates}, {@link #clientCertificate} (files or
 *       PEM text)</td>
 *       <td>plaintext; with TLS, the system roots and no client certificate</td></tr>
 *   <tr><td>{@link #bearerToken} / {@link #apiKey}</td><td>no credentials</td></tr>
 *   <tr><td>{@link #readTimeout}, {@link #writeTimeout} ({@link #timeout} sets both)</td>
 *       <td>5 s each, retries included</td></tr>
 *   <tr><td>{@link #maxAttempts}</td><td>4 (first attempt included; 1 to 5)</td></tr>
 *   <tr><td>{@link #retryBackoff}</td><td>0.1 s initial, 1 s at most</td></tr>
 *   <tr><td>{@link #scopeWrites}</td><td>a new {@link ScopeWrites} per client</td></tr>
 *   <tr><td>{@link #interceptor}</td><td>none beyond the built-in {@link MemorydInterceptor}</td></tr>
 * </table>
 */
public final class MemorydClientBuilder {
  /** Where memoryd listens by default ({@code make serve}). */
  public static final String DEFAULT_TARGET = "localhost:50051";
  /** The default deadline of each read and each write. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);
  /** The default attempts per call on UNAVAILABLE, first one included. */
  public static final int DEFAULT_MAX_ATTEMPTS = 4;
  /** gRPC caps retry attempts at 5, counting the first one. */
  public static final int MAX_ATTEMPTS_CAP = 5;

  private String target = DEFAULT_TARGET;
  private boolean tls;
  private Path trustCertificates;
  private Path clientCertificateChain;
  private Path clientPrivateKey;
  private byte[] trustCertificatesPem;
  private byte[] clientCertificateChainPem;
  private byte[] clientPrivateKeyPem;
  private String token;
  private int credentialsSet;
  private Duration readTimeout = DEFAULT_TIMEOUT;
  private Duration writeTimeout = DEFAULT_TIMEOUT;
  private int maxAttempts = DEFAULT_MAX_ATTEMPTS;
  private Duration initialBackoff = Duration.ofMillis(100);
  private Duration maxBackoff = Duration.ofSeconds(1);
  private ScopeWrites scopeWrites;
  private final List<ClientInterceptor> interceptors = new ArrayList<>();
  /** Tests swap the transport (e.g. in-process); null means Grpc.newChannelBuilder. */
  private BiFunction<String, ChannelCredentials, ManagedChannelBuilder<?>> channelBuilder;

  MemorydClientBuilder() {}

  /** The server's {@code host:port} (default {@code localhost:50051}), or a gRPC target URI. */
  public MemorydClientBuilder target(String target) {
    this.target = target;
    return this;
  }

  /** Whether to use TLS (default false: plaintext, for loopback and sidecars). */
  public MemorydClientBuilder tls(boolean tls) {
    this.tls = tls;
    return this;
  }

  /** PEM file of the CAs to trust instead of the system roots; needs {@code tls(true)}. */
  public MemorydClientBuilder trustCertificates(Path caPem) {
    this.trustCertificates = caPem;
    return this;
  }

  /**
   * PEM files of this client's certificate chain and private key (PKCS#8), for mutual TLS;
   * needs {@code tls(true)}.
   */
  public MemorydClientBuilder clientCertificate(Path certificateChainPem, Path privateKeyPem) {
    this.clientCertificateChain = certificateChainPem;
    this.clientPrivateKey = privateKeyPem;
    return this;
  }

  /**
   * The CAs to trust instead of the system roots, as PEM text ({@code -----BEGIN
   * CERTIFICATE-----} blocks); needs {@code tls(true)}. Instead of {@link
   * #trustCertificates(Path)}, not with it.
   */
  public MemorydClientBuilder trustCertificates(byte[] caPem) {
    this.trustCertificatesPem = caPem == null ? null : caPem.clone();
    return this;
  }

  /** As {@link #trustCertificates(byte[])}, the PEM text as a String. */
  public MemorydClientBuilder trustCertificates(String caPem) {
    return trustCertificates(caPem == null ? null : caPem.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * This client's certificate chain and private key (PKCS#8) as PEM text, for mutual TLS;
   * needs {@code tls(true)}. Instead of {@link #clientCertificate(Path, Path)}, not with it.
   */
  public MemorydClientBuilder clientCertificate(byte[] certificateChainPem, byte[] privateKeyPem) {
    this.clientCertificateChainPem = certificateChainPem == null ? null : certificateChainPem.clone();
    this.clientPrivateKeyPem = privateKeyPem == null ? null : privateKeyPem.clone();
    return this;
  }

  /** As {@link #clientCertificate(byte[], byte[])}, the PEM text as Strings. */
  public MemorydClientBuilder clientCertificate(String certificateChainPem, String privateKeyPem) {
    return clientCertificate(
        certificateChainPem == null ? null : certificateChainPem.getBytes(StandardCharsets.UTF_8),
        privateKeyPem == null ? null : privateKeyPem.getBytes(StandardCharsets.UTF_8));
  }

  /** A token sent as {@code authorization: Bearer <token>} on every call (e.g. a JWT). */
  public MemorydClientBuilder bearerToken(String token) {
    this.token = token;
    credentialsSet++;
    return this;
  }

  /** An API key; sent the same way as a bearer token. */
  public MemorydClientBuilder apiKey(String apiKey) {
    return bearerToken(apiKey);
  }

  /** Sets both the read and the write timeout. */
  public MemorydClientBuilder timeout(Duration timeout) {
    this.readTimeout = timeout;
    this.writeTimeout = timeout;
    return this;
  }

  /** The deadline of each read (Get, List, Search, Preload, GetWriteStatus); default 5 s. */
  public MemorydClientBuilder readTimeout(Duration timeout) {
    this.readTimeout = timeout;
    return this;
  }

  /**
   * The deadline of each write (Create, BatchCreate, Update, Delete, Forget), retries
   * included; default 5 s. 10xgraph cancels pending memory writes after 15 s: stay well under.
   */
  public MemorydClientBuilder writeTimeout(Duration timeout) {
    this.writeTimeout = timeout;
    return this;
  }

  /**
   * Attempts per call on UNAVAILABLE, first one included: 1 (no retries) to 5 (gRPC's cap);
   * default 4. Every write carries a request_id, so a retried write is never applied twice.
   */
  public MemorydClientBuilder maxAttempts(int maxAttempts) {
    this.maxAttempts = maxAttempts;
    return this;
  }

  /** The pause before the first retry and the longest pause (default 0.1 s and 1 s). */
  public MemorydClientBuilder retryBackoff(Duration initial, Duration max) {
    this.initialBackoff = initial;
    this.maxBackoff = max;
    return this;
  }

  /** Read-your-writes bookkeeping to share with other clients (default: a new one). */
  public MemorydClientBuilder scopeWrites(ScopeWrites scopeWrites) {
    this.scopeWrites = scopeWrites;
    return this;
  }

  /** An extra interceptor, run after the built-in one (so it sees its headers). */
  public MemorydClientBuilder interceptor(ClientInterceptor interceptor) {
    if (interceptor == null) {
      throw new IllegalArgumentException("interceptor is null; pass a ClientInterceptor");
    }
    interceptors.add(interceptor);
    return this;
  }

  MemorydClientBuilder channelBuilder(
      BiFunction<String, ChannelCredentials, ManagedChannelBuilder<?>> channelBuilder) {
    this.channelBuilder = channelBuilder;
    return this;
  }

  /** Validates the options and opens the channel (connecting lazily, on the first call). */
  public MemorydClient build() {
    ClientSettings settings = validate();
    ManagedChannelBuilder<?> builder =
        channelBuilder != null
            ? channelBuilder.apply(settings.target(), credentials(settings))
            : Grpc.newChannelBuilder(settings.target(), credentials(settings));
    ManagedChannel channel =
        builder
            .defaultServiceConfig(settings.serviceConfig())
            // The service config above is the only one; never take one from DNS.
            .disableServiceConfigLookUp()
            .enableRetry()
            // The server's max_message_bytes bounds what it sends; gRPC's 4 MiB client
            // default would refuse answers the server allows.
            .maxInboundMessageSize(Integer.MAX_VALUE)
            .build();
    return new MemorydClient(
        channel, settings, scopeWrites != null ? scopeWrites : new ScopeWrites());
  }

  ClientSettings validate() {
    validateTarget(target);
    requirePositive("readTimeout", readTimeout);
    requirePositive("writeTimeout", writeTimeout);
    requirePositive("retryBackoff initial", initialBackoff);
    requirePositive("retryBackoff max", maxBackoff);
    if (maxBackoff.compareTo(initialBackoff) < 0) {
      throw new IllegalArgumentException(
          "retryBackoff max (" + maxBackoff + ") is shorter than initial (" + initialBackoff
              + "); pass a max at least as long as the initial pause");
    }
    if (maxAttempts < 1 || maxAttempts > MAX_ATTEMPTS_CAP) {
      throw new IllegalArgumentException(
          "maxAttempts is " + maxAttempts + "; use 1 (no retries) to " + MAX_ATTEMPTS_CAP
              + " (gRPC's cap)");
    }
    if (credentialsSet > 1) {
      throw new IllegalArgumentException(
          "credentials were set twice (bearerToken/apiKey); call only one of them, once");
    }
    if (credentialsSet == 1
        && (token == null || token.isBlank() || token.strip().length() != token.length()
            || token.chars().anyMatch(c -> c < 0x20 || c > 0x7e))) {
      throw new IllegalArgumentException(
          "the bearer token/API key is empty, padded or not printable ASCII; pass the token "
              + "itself (without 'Bearer '), or do not set one for no credentials");
    }
    if (token != null && token.regionMatches(true, 0, "Bearer ", 0, 7)) {
      throw new IllegalArgumentException(
          "the token starts with 'Bearer '; pass the token alone, the client adds the prefix");
    }
    boolean material = trustCertificates != null || clientCertificateChain != null
        || clientPrivateKey != null || trustCertificatesPem != null
        || clientCertificateChainPem != null || clientPrivateKeyPem != null;
    if (material && !tls) {
      throw new IllegalArgumentException(
          "certificates were given but TLS is off; call tls(true) to use them");
    }
    if (trustCertificates != null && trustCertificatesPem != null) {
      throw new IllegalArgumentException(
          "the trusted CAs were given both as a file and as PEM text; pass only one of them");
    }
    boolean pemPair = clientCertificateChainPem != null || clientPrivateKeyPem != null;
    boolean filePair = clientCertificateChain != null || clientPrivateKey != null;
    if (pemPair && filePair) {
      throw new IllegalArgumentException(
          "the client certificate was given both as files and as PEM text; pass only one of "
              + "them to clientCertificate(chain, key)");
    }
    if ((clientCertificateChain == null) != (clientPrivateKey == null)
        || (clientCertificateChainPem == null) != (clientPrivateKeyPem == null)) {
      throw new IllegalArgumentException(
          "mutual TLS needs both the certificate chain and the private key; pass both to "
              + "clientCertificate(chain, key)");
    }
    for (Path pem : new Path[] {trustCertificates, clientCertificateChain, clientPrivateKey}) {
      if (pem != null && !Files.isReadable(pem)) {
        throw new IllegalArgumentException(
            "cannot read " + pem.toAbsolutePath() + "; pass the path of an existing PEM file");
      }
    }
    byte[] ca = trustCertificatesPem != null ? trustCertificatesPem : read(trustCertificates);
    byte[] chain =
        clientCertificateChainPem != null ? clientCertificateChainPem : read(clientCertificateChain);
    byte[] key = clientPrivateKeyPem != null ? clientPrivateKeyPem : read(clientPrivateKey);
    if (ca != null) {
      Pem.certificates("the trusted CAs", ca);
    }
    if (chain != null) {
      Pem.checkKeyPair(Pem.certificates("the client certificate chain", chain), key);
    }
    return new ClientSettings(
        target, tls, ca, chain, key,
        credentialsSet == 1 ? token : null, readTimeout, writeTimeout, maxAttempts,
        initialBackoff, maxBackoff, List.copyOf(interceptors));
  }

  /** A PEM file's bytes (null for no file). */
  private static byte[] read(Path pem) {
    if (pem == null) {
      return null;
    }
    try {
      return Files.readAllBytes(pem);
    } catch (IOException unreadable) {
      throw new IllegalArgumentException(
          "cannot read " + pem.toAbsolutePath() + " (" + unreadable.getMessage()
              + "); pass the path of an existing PEM file",
          unreadable);
    }
  }

  static void requirePositive(String name, Duration duration) {
    if (duration == null || duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(
          name + " is " + duration + "; pass a positive Duration, e.g. Duration.ofSeconds(5)");
    }
  }

  private static void validateTarget(String target) {
    String fix = "; pass 'host:port', e.g. 'localhost:50051'";
    if (target == null || target.isBlank()) {
      throw new IllegalArgumentException("target is empty" + fix);
    }
    if (!target.equals(target.strip()) || target.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("target '" + target + "' contains spaces" + fix);
    }
    if (target.contains(":/") || target.startsWith("unix:")) {
      return; // a gRPC target URI (dns:///host:port, unix:/path): gRPC checks it
    }
    int colon = target.lastIndexOf(':');
    String host = colon < 0 ? target : target.substring(0, colon);
    String port = colon < 0 ? "" : target.substring(colon + 1);
    if (host.isEmpty() || port.isEmpty()) {
      throw new IllegalArgumentException(
          "target '" + target + "' lacks a " + (host.isEmpty() ? "host" : "port") + fix);
    }
    if (!port.matches("[0-9]{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
      throw new IllegalArgumentException(
          "target '" + target + "' has port '" + port + "', not 1 to 65535" + fix);
    }
    if (host.contains(":") && !(host.startsWith("[") && host.endsWith("]"))) {
      throw new IllegalArgumentException(
          "target '" + target + "': put an IPv6 address in brackets, e.g. '[::1]:50051'");
    }
  }

  private static ChannelCredentials credentials(ClientSettings settings) {
    if (!settings.tls()) {
      return InsecureChannelCredentials.create();
    }
    // The material was checked by validate(); Netty (grpc-netty-shaded) builds its SslContext
    // from these PEM bytes, trusting only these CAs when given.
    TlsChannelCredentials.Builder tls = TlsChannelCredentials.newBuilder();
    try {
      if (settings.trustCertificates() != null) {
        tls.trustManager(new ByteArrayInputStream(settings.trustCertificates()));
      }
      if (settings.clientCertificateChain() != null) {
        tls.keyManager(
            new ByteArrayInputStream(settings.clientCertificateChain()),
            new ByteArrayInputStream(settings.clientPrivateKey()));
      }
    } catch (IOException | IllegalArgumentException bad) {
      throw new IllegalArgumentException(
          "cannot use the TLS material (" + bad.getMessage() + "); pass PEM certificates and a "
              + "PKCS#8 PEM private key",
          bad);
    }
    return tls.build();
  }
}
