package ledger

import (
	"context"

	"github.com/ThreeDotsLabs/watermill/message"
	"go.opentelemetry.io/otel/propagation"
)

// Trace context travels with a record in its message metadata (W3C
// traceparent and tracestate), outside the signed bytes: it says which span
// wrote the record, never what the record says.

// metadataCarrier adapts message metadata to OpenTelemetry propagation.
type metadataCarrier message.Metadata

func (c metadataCarrier) Get(k string) string { return message.Metadata(c).Get(k) }
func (c metadataCarrier) Set(k, v string)     { message.Metadata(c).Set(k, v) }
func (c metadataCarrier) Keys() []string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	return keys
}

// InjectTrace writes the span context of ctx into md.
func InjectTrace(ctx context.Context, md message.Metadata) {
	propagation.TraceContext{}.Inject(ctx, metadataCarrier(md))
}

// ExtractTrace returns ctx with the span context md carries, if any.
func ExtractTrace(ctx context.Context, md message.Metadata) context.Context {
	return propagation.TraceContext{}.Extract(ctx, metadataCarrier(md))
}
