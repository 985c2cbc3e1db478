// Package telemetry gives sealgate's services OpenTelemetry traces and
// metrics: one trace per run across every service — its trace id is
// derived from the run id, so a service that restarts mid-run joins the
// same trace, and the context of the span that wrote a record travels in
// the record's message metadata (W3C traceparent) — spans per record
// handled and per job, and metrics for jobs, their durations and consumer
// lag. Export is OTLP over gRPC and off unless an endpoint is given.
package telemetry

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/sealgate/sealgate/ledger"
)

// Scope is the instrumentation scope of sealgate's spans and metrics.
const Scope = "github.com/sealgate/sealgate"

// Config says where telemetry goes.
type Config struct {
	// Endpoint is the OTLP gRPC collector (host:port); empty switches
	// export off.
	Endpoint string
	// Insecure sends without TLS (a collector on loopback or a sidecar).
	Insecure bool
	// Service names the process in the resource (service.name).
	Service string
}

// Providers are a process's tracer and meter providers. The zero value is
// unusable; use Setup, or New with providers of your own (tests).
type Providers struct {
	Tracer trace.TracerProvider
	Meter  metric.MeterProvider
	close  []func(context.Context) error
}

// New wraps given providers.
func New(tp trace.TracerProvider, mp metric.MeterProvider) *Providers {
	return &Providers{Tracer: tp, Meter: mp}
}

// Off returns providers that record nothing.
func Off() *Providers {
	return New(tracenoop.NewTracerProvider(), metricnoop.NewMeterProvider())
}

// Setup returns OTLP-exporting providers, or Off when c.Endpoint is empty.
func Setup(ctx context.Context, c Config) (*Providers, error) {
	if c.Endpoint == "" {
		return Off(), nil
	}
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(attribute.String("service.name", c.Service)))
	if err != nil {
		return nil, fmt.Errorf("telemetry: %w", err)
	}
	topts := []otlptracegrpc.Option{otlptracegrpc.WithEndpoint(c.Endpoint)}
	mopts := []otlpmetricgrpc.Option{otlpmetricgrpc.WithEndpoint(c.Endpoint)}
	if c.Insecure {
		topts = append(topts, otlptracegrpc.WithInsecure())
		mopts = append(mopts, otlpmetricgrpc.WithInsecure())
	}
	te, err := otlptracegrpc.New(ctx, topts...)
	if err != nil {
		return nil, fmt.Errorf("telemetry: trace exporter: %w", err)
	}
	me, err := otlpmetricgrpc.New(ctx, mopts...)
	if err != nil {
		return nil, fmt.Errorf("telemetry: metric exporter: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(te), sdktrace.WithResource(res), sdktrace.WithIDGenerator(RunIDs{}))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(me, sdkmetric.WithInterval(10*time.Second))), sdkmetric.WithResource(res))
	return &Providers{Tracer: tp, Meter: mp, close: []func(context.Context) error{tp.Shutdown, mp.Shutdown}}, nil
}

// Close flushes and stops exporting.
func (p *Providers) Close(ctx context.Context) error {
	var errs []error
	for _, c := range p.close {
		errs = append(errs, c(ctx))
	}
	return errors.Join(errs...)
}

// RunTrace is the trace id and root span id of a run: derived from the run
// id, so every service — and a service restarted mid-run — names the same
// trace without being told.
func RunTrace(runID string) (trace.TraceID, trace.SpanID) {
	sum := sha256.Sum256([]byte("sealgate.trace.v1\x00" + runID))
	var t trace.TraceID
	var s trace.SpanID
	copy(t[:], sum[:16])
	copy(s[:], sum[16:24])
	return t, s
}

// RunContext returns ctx with the run's root span as the (remote) parent:
// what a span joins when its record carries no trace context.
func RunContext(ctx context.Context, runID string) context.Context {
	t, s := RunTrace(runID)
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: t, SpanID: s, TraceFlags: trace.FlagsSampled, Remote: true})
	return trace.ContextWithRemoteSpanContext(ctx, sc)
}

type rootKey struct{}

// WithRunRoot marks ctx so that the next span started from it, with
// RunIDs as the provider's ID generator, is the run's root span with the
// derived ids.
func WithRunRoot(ctx context.Context, runID string) context.Context {
	return context.WithValue(ctx, rootKey{}, runID)
}

// RunIDs is an sdktrace.IDGenerator: a run's root span gets the run's
// derived ids (WithRunRoot), every other span random ones.
type RunIDs struct{}

// NewIDs returns a trace and span id for a new root span.
func (RunIDs) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	if id, ok := ctx.Value(rootKey{}).(string); ok {
		return RunTrace(id)
	}
	var t trace.TraceID
	_, _ = rand.Read(t[:])
	return t, RunIDs{}.NewSpanID(ctx, t)
}

// NewSpanID returns a span id for a span of trace t.
func (RunIDs) NewSpanID(_ context.Context, _ trace.TraceID) trace.SpanID {
	var s trace.SpanID
	_, _ = rand.Read(s[:])
	return s
}

// Extract returns ctx with the span context a record's message metadata
// carries, or with the run's root when it carries none.
func Extract(ctx context.Context, md message.Metadata, runID string) context.Context {
	out := ledger.ExtractTrace(ctx, md)
	if trace.SpanContextFromContext(out).IsValid() {
		return out
	}
	return RunContext(ctx, runID)
}

// Instruments are the metrics a service records.
type Instruments struct {
	Records metric.Int64Counter
	Jobs    metric.Int64Counter
	JobTime metric.Float64Histogram
	Lag     metric.Float64Histogram
	// Retries counts handling attempts tried again; Failures the runs a
	// service recorded as failed (run.failed), by record kind.
	Retries  metric.Int64Counter
	Failures metric.Int64Counter
}

// NewInstruments creates the service metrics on m.
func NewInstruments(m metric.Meter) (*Instruments, error) {
	var in Instruments
	var err error
	if in.Records, err = m.Int64Counter("sealgate.records.handled", metric.WithDescription("ledger records a service handled"), metric.WithUnit("{record}")); err != nil {
		return nil, err
	}
	if in.Jobs, err = m.Int64Counter("sealgate.jobs", metric.WithDescription("jobs answered, by purpose and outcome"), metric.WithUnit("{job}")); err != nil {
		return nil, err
	}
	if in.JobTime, err = m.Float64Histogram("sealgate.job.duration", metric.WithDescription("wall time of a job's processes"), metric.WithUnit("s")); err != nil {
		return nil, err
	}
	if in.Lag, err = m.Float64Histogram("sealgate.consumer.lag", metric.WithDescription("time from a record's append to its handling by a service"), metric.WithUnit("s")); err != nil {
		return nil, err
	}
	if in.Retries, err = m.Int64Counter("sealgate.records.retried", metric.WithDescription("handlings of a record tried again after an error"), metric.WithUnit("{attempt}")); err != nil {
		return nil, err
	}
	if in.Failures, err = m.Int64Counter("sealgate.runs.failed", metric.WithDescription("runs a service could not do its part of (run.failed recorded)"), metric.WithUnit("{run}")); err != nil {
		return nil, err
	}
	return &in, nil
}

// Attr helpers keep attribute names in one place.
func Attr(service, runID string) []attribute.KeyValue {
	return []attribute.KeyValue{attribute.String("sealgate.service", service), attribute.String("sealgate.run_id", runID)}
}

// JobSpan starts the span of one job under the span of ctx, with the
// tracer provider that span came from.
func JobSpan(ctx context.Context, jobID string) (context.Context, trace.Span) {
	tr := trace.SpanFromContext(ctx).TracerProvider().Tracer(Scope)
	return tr.Start(ctx, "job "+jobID, trace.WithAttributes(attribute.String("sealgate.job.id", jobID)))
}

// EndJob ends a job's span with its outcome.
func EndJob(span trace.Span, outcome string) {
	span.SetAttributes(attribute.String("sealgate.job.outcome", outcome))
	span.End()
}
