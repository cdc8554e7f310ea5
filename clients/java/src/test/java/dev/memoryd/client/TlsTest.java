package dev.memoryd.client;

import static dev.memoryd.client.BuilderTest.tlsFile;
import static dev.memoryd.client.BuilderTest.tlsText;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.memoryd.v1.Scope;
import dev.memoryd.v1.SearchMemoriesRequest;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** TLS and mutual TLS through grpc-netty-shaded against a real server on loopback. */
class TlsTest {
  private static final SearchMemoriesRequest SEARCH = SearchMemoriesRequest.newBuilder().setQuery("q")
      .setScope(Scope.newBuilder().setUserId("u1")).build();

  private final List<String> peers = new CopyOnWriteArrayList<>();
  private Server server;

  private int start(ServerCredentials credentials) throws IOException {
    ServerInterceptor peer = new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(
          ServerCall<Q, R> call, Metadata metadata, ServerCallHandler<Q, R> next) {
        SSLSession session = call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
        try {
          peers.add(session == null ? "plaintext"
              : ((X509Certificate) session.getPeerCertificates()[0]).getSubjectX500Principal().getName());
        } catch (SSLPeerUnverifiedException none) {
          peers.add("no client certificate");
        }
        return next.startCall(call, metadata);
      }
    };
    server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0), credentials)
        .addService(ServerInterceptors.intercept(new ClientBehaviourTest.FakeService(), peer))
        .build().start();
    return server.getPort();
  }

  private static ServerCredentials tls() throws IOException {
    return TlsServerCredentials.create(tlsFile("server.pem").toFile(), tlsFile("server-key.pem").toFile());
  }

  private static ServerCredentials mutualTls() throws IOException {
    return TlsServerCredentials.newBuilder()
        .keyManager(tlsFile("server.pem").toFile(), tlsFile("server-key.pem").toFile())
        .trustManager(tlsFile("test-ca.pem").toFile())
        .clientAuth(TlsServerCredentials.ClientAuth.REQUIRE)
        .build();
  }

  private static void search(String target, UnaryOperator<MemorydClientBuilder> options) {
    try (MemorydClient client = options.apply(MemorydClient.builder().target(target)
        .timeout(Duration.ofSeconds(5)).maxAttempts(1)).build()) {
      client.searchMemories(SEARCH);
    }
  }

  private static Status.Code failure(String target, UnaryOperator<MemorydClientBuilder> options) {
    return assertThrows(UnavailableException.class, () -> search(target, options)).code();
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.shutdownNow();
    }
  }

  @Test
  void aClientTrustingTheServersCaIsServedByIpAndByName() throws IOException {
    int port = start(tls());
    search("127.0.0.1:" + port, b -> b.tls(true).trustCertificates(tlsText("test-ca.pem")));
    search("localhost:" + port, b -> b.tls(true).trustCertificates(tlsFile("test-ca.pem")));
    assertEquals(List.of("no client certificate", "no client certificate"), peers);
  }

  @Test
  void anUntrustedServerOrPlaintextAgainstTlsIsUnavailable() throws IOException {
    int port = start(tls());
    assertEquals(Status.Code.UNAVAILABLE,
        failure("127.0.0.1:" + port, b -> b.tls(true).trustCertificates(tlsText("other-ca.pem"))));
    assertEquals(Status.Code.UNAVAILABLE, failure("127.0.0.1:" + port, b -> b));
    assertEquals(List.of(), peers);
  }

  @Test
  void mutualTlsPresentsTheClientCertificate() throws IOException {
    int port = start(mutualTls());
    search("127.0.0.1:" + port, b -> b.tls(true).trustCertificates(tlsText("test-ca.pem"))
        .clientCertificate(tlsText("client.pem"), tlsText("client-key.pem")));
    assertEquals(List.of("CN=client"), peers);
    // Without a certificate the server ends the handshake.
    assertEquals(Status.Code.UNAVAILABLE,
        failure("127.0.0.1:" + port, b -> b.tls(true).trustCertificates(tlsText("test-ca.pem"))));
    assertEquals(List.of("CN=client"), peers);
  }
}
