package runtime

import (
	"context"
	"sync/atomic"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/services/telemetry"
)

// Refusals reports the messages of the records topic that a reader did not
// use (undecodable, not admitted by the ledger guard, out of their place in
// their run): one log line each and the counter sealgate.records.refused,
// by service and reason code.
//
// A refusal here is not a record.refused on the ledger, and must not be:
// the message is not a proposal anybody authorized made — it is whatever
// somebody with access to the topic wrote, naming whatever run they chose.
// A signed refusal in that run would let them make any run INCONCLUSIVE
// (the adjudication counts refusals of a run's records against it) and
// multiply one message into a record per reader; and an undecodable
// message names no run at all. What was refused stays on the topic for an
// audit; the log line and the counter are where an operator sees it.
type Refusals struct {
	service string
	logf    func(format string, args ...any)
	counter metric.Int64Counter
	total   atomic.Int64
}

// NewRefusals returns the refusal reporter of a service; tel and logf may
// be nil.
func NewRefusals(service string, tel *telemetry.Providers, logf func(format string, args ...any)) (*Refusals, error) {
	if tel == nil {
		tel = telemetry.Off()
	}
	c, err := tel.Meter.Meter(telemetry.Scope).Int64Counter("sealgate.records.refused",
		metric.WithDescription("messages of the records topic a reader refused to use: undecodable, not admitted by the ledger guard, or out of their place"),
		metric.WithUnit("{message}"))
	if err != nil {
		return nil, err
	}
	return &Refusals{service: service, logf: logf, counter: c}, nil
}

// Refuse logs and counts the refusal of the message named id (the
// message's UUID; empty when err names the message itself).
func (r *Refusals) Refuse(ctx context.Context, id string, err error) {
	code := admission.CodeOf(err)
	n := r.total.Add(1)
	r.counter.Add(ctx, 1, metric.WithAttributes(attribute.String("sealgate.service", r.service), attribute.String("sealgate.refusal.code", code)))
	if r.logf != nil {
		if id == "" {
			r.logf("%s: refused a records-topic message: %v (%d refused so far)", r.service, err, n)
			return
		}
		r.logf("%s: refused records-topic message %q: %v (%d refused so far)", r.service, id, err, n)
	}
}

// Total is the number of messages refused so far.
func (r *Refusals) Total() int64 { return r.total.Load() }
