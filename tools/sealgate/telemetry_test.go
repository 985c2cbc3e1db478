package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/services/telemetry"
)

// A verification is one trace: the root span, a span per record each
// service handled and a span per job, all under the trace id derived from
// the run id; jobs, their durations and consumer lag are counted.
func TestVerifyIsOneTrace(t *testing.T) {
	f := newFixture(t)
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans), sdktrace.WithIDGenerator(telemetry.RunIDs{}))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	fix := f.honest()
	o := &verifyOptions{
		repo: f.repo.Dir, base: f.repo.Base, patch: fix.Commit, claims: fix.Claims,
		strengthConfidence: criteria.DefaultStrengthConfidence, timeout: 10 * time.Minute,
		state: t.TempDir(), buildCache: sharedBuildCache(t), sandbox: "auto", reruns: 1,
		telemetry: telemetry.New(tp, mp),
	}
	var out, errOut bytes.Buffer
	if _, err := runVerify(context.Background(), o, &out, &errOut); err != nil {
		t.Fatalf("verify: %v\n%s", err, errOut.String())
	}
	var a struct {
		RunID string `json:"run_id"`
	}
	if err := json.Unmarshal(out.Bytes(), &a); err != nil {
		t.Fatal(err)
	}
	traceID, rootID := telemetry.RunTrace(a.RunID)
	services, jobs, root := map[string]bool{}, 0, false
	for _, s := range spans.GetSpans() {
		if s.SpanContext.TraceID() != traceID {
			t.Errorf("span %q is in trace %s, not the run's %s", s.Name, s.SpanContext.TraceID(), traceID)
		}
		switch {
		case s.Name == "sealgate.run":
			root = s.SpanContext.SpanID() == rootID
		case strings.HasPrefix(s.Name, "job "):
			jobs++
			if !s.Parent.IsValid() {
				t.Errorf("job span %q has no parent", s.Name)
			}
		default:
			services[strings.Fields(s.Name)[0]] = true
			if !s.Parent.IsValid() {
				t.Errorf("span %q has no parent", s.Name)
			}
		}
	}
	if !root {
		t.Error("no root span with the run's derived id")
	}
	for _, svc := range []string{"checkout", "executor", "reach", "mutation", "adjudication", "signing"} {
		if !services[svc] {
			t.Errorf("no span of %s (got %v)", svc, services)
		}
	}
	if jobs < 3 {
		t.Errorf("%d job spans, want one per job: the claim on both sides and the suite", jobs)
	}

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			got[m.Name] = true
		}
	}
	for _, name := range []string{"sealgate.jobs", "sealgate.job.duration", "sealgate.consumer.lag", "sealgate.records.handled"} {
		if !got[name] {
			t.Errorf("metric %s was not recorded (got %v)", name, got)
		}
	}
}
