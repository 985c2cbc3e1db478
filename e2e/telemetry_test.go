package e2e

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net"
	"sync"
	"testing"

	collmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	colltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
)

// collector is an OTLP/gRPC receiver that keeps what it is sent.
type collector struct {
	colltrace.UnimplementedTraceServiceServer
	collmetrics.UnimplementedMetricsServiceServer
	mu      sync.Mutex
	spans   []*tracepb.ResourceSpans
	metrics map[string]bool
}

func (c *collector) Export(_ context.Context, req *colltrace.ExportTraceServiceRequest) (*colltrace.ExportTraceServiceResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.spans = append(c.spans, req.ResourceSpans...)
	return &colltrace.ExportTraceServiceResponse{}, nil
}

type metricsReceiver struct {
	collmetrics.UnimplementedMetricsServiceServer
	c *collector
}

func (m metricsReceiver) Export(_ context.Context, req *collmetrics.ExportMetricsServiceRequest) (*collmetrics.ExportMetricsServiceResponse, error) {
	m.c.mu.Lock()
	defer m.c.mu.Unlock()
	for _, rm := range req.ResourceMetrics {
		for _, sm := range rm.ScopeMetrics {
			for _, x := range sm.Metrics {
				m.c.metrics[x.Name] = true
			}
		}
	}
	return &collmetrics.ExportMetricsServiceResponse{}, nil
}

// runTraceID is telemetry.RunTrace's trace id, computed independently.
func runTraceID(runID string) string {
	sum := sha256.Sum256([]byte("sealgate.trace.v1\x00" + runID))
	return hex.EncodeToString(sum[:16])
}

// Issue #6: one trace per run across all services, each a process of its
// own, exported over OTLP to a collector.
func TestDistributedTraceAndMetrics(t *testing.T) {
	col := &collector{metrics: map[string]bool{}}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	colltrace.RegisterTraceServiceServer(srv, col)
	collmetrics.RegisterMetricsServiceServer(srv, metricsReceiver{c: col})
	go srv.Serve(lis)
	defer srv.Stop()

	r := newRepo(t)
	fix := r.patch(t, "honest-fix")
	c := newCluster(t, "--otlp-endpoint", lis.Addr().String(), "--otlp-insecure")
	got := c.remote(t, r.patchArgs(r.Base, fix.Commit, claimArgs(fix.Claims...)...)...)()
	if got.exitCode != exitMerge {
		t.Fatalf("not MERGE:\n%s", got)
	}
	runID := runIDOf(t, got)
	c.stop() // the services flush their telemetry as they stop

	want := runTraceID(runID)
	services := map[string]int{}
	jobs := 0
	col.mu.Lock()
	defer col.mu.Unlock()
	for _, rs := range col.spans {
		name := ""
		for _, a := range rs.GetResource().GetAttributes() {
			if a.Key == "service.name" {
				name = a.GetValue().GetStringValue()
			}
		}
		for _, ss := range rs.ScopeSpans {
			for _, sp := range ss.Spans {
				if hex.EncodeToString(sp.TraceId) != want {
					continue
				}
				services[name]++
				if len(sp.Name) > 4 && sp.Name[:4] == "job " {
					jobs++
				}
			}
		}
	}
	for _, s := range []string{"ledger", "gateway", "checkout", "executor", "reach", "mutation", "adjudication", "signing"} {
		if services["sealgate-"+s] == 0 && s != "ledger" {
			t.Errorf("no span of %s in the run's trace %s (got %v)", s, want, services)
		}
	}
	if jobs == 0 {
		t.Errorf("no job span in the run's trace")
	}
	for _, m := range []string{"sealgate.jobs", "sealgate.job.duration", "sealgate.consumer.lag"} {
		if !col.metrics[m] {
			t.Errorf("metric %s never exported (got %v)", m, col.metrics)
		}
	}
}
