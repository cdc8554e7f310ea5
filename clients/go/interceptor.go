package memoryd

import (
	"context"

	"go.opentelemetry.io/otel"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// metadataInterceptor adds what every call carries: the bearer token, if any,
// and the caller's OpenTelemetry context (W3C traceparent/tracestate and
// baggage) through the global propagator, otel.GetTextMapPropagator(). With
// no propagator installed (otel.SetTextMapPropagator) nothing is injected.
type metadataInterceptor struct {
	token string
}

func (m metadataInterceptor) outgoing(ctx context.Context) context.Context {
	md, _ := metadata.FromOutgoingContext(ctx)
	md = md.Copy()
	if m.token != "" {
		md.Set("authorization", "Bearer "+m.token)
	}
	otel.GetTextMapPropagator().Inject(ctx, metadataCarrier(md))
	return metadata.NewOutgoingContext(ctx, md)
}

func (m metadataInterceptor) unary(ctx context.Context, method string, req, reply any,
	cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	return invoker(m.outgoing(ctx), method, req, reply, cc, opts...)
}

func (m metadataInterceptor) stream(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn,
	method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	return streamer(m.outgoing(ctx), desc, cc, method, opts...)
}

// metadataCarrier is gRPC metadata as an OpenTelemetry TextMapCarrier.
type metadataCarrier metadata.MD

func (c metadataCarrier) Get(key string) string {
	if values := metadata.MD(c).Get(key); len(values) > 0 {
		return values[0]
	}
	return ""
}

func (c metadataCarrier) Set(key, value string) { metadata.MD(c).Set(key, value) }

func (c metadataCarrier) Keys() []string {
	keys := make([]string, 0, len(c))
	for key := range c {
		keys = append(keys, key)
	}
	return keys
}
