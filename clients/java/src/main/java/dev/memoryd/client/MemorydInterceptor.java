package dev.memoryd.client;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.util.Locale;

/**
 * The client's one interceptor: adds to every call the credentials as {@code authorization:
 * Bearer <token>} (when a token is configured) and the caller's current OpenTelemetry context
 * (W3C {@code traceparent}/{@code tracestate}, baggage) through the global propagator. Without
 * an OpenTelemetry SDK installed the propagator is a no-op. No request-id header is sent: the
 * server does not read one (a write's idempotency key is its {@code request_id} field).
 */
public final class MemorydInterceptor implements ClientInterceptor {
  static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private static final TextMapSetter<Metadata> SETTER =
      (headers, key, value) -> {
        if (headers != null) {
          headers.put(Metadata.Key.of(key.toLowerCase(Locale.ROOT), Metadata.ASCII_STRING_MARSHALLER), value);
        }
      };

  private final String authorization;

  /** An interceptor sending {@code token} as a bearer token; null for no credentials. */
  public MemorydInterceptor(String token) {
    this.authorization = token == null ? null : "Bearer " + token;
  }

  @Override
  public <ReqT, RespT> ClientCall<ReqT, RespT> interceptCall(
      MethodDescriptor<ReqT, RespT> method, CallOptions callOptions, Channel next) {
    return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, callOptions)) {
      @Override
      public void start(Listener<RespT> responseListener, Metadata headers) {
        if (authorization != null) {
          headers.discardAll(AUTHORIZATION);
          headers.put(AUTHORIZATION, authorization);
        }
        GlobalOpenTelemetry.getPropagators()
            .getTextMapPropagator()
            .inject(Context.current(), headers, SETTER);
        super.start(responseListener, headers);
      }
    };
  }
}
