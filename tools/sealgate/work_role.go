package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/kafka"
	"github.com/sealgate/sealgate/ledger/record"
	exhandler "github.com/sealgate/sealgate/services/executor/handler"
	"github.com/sealgate/sealgate/services/lifecycle"
	muthandler "github.com/sealgate/sealgate/services/mutation/handler"
	"github.com/sealgate/sealgate/services/runtime"
	"github.com/sealgate/sealgate/services/work"
)

// workBus spreads the jobs of the executor and of the mutation service
// over their replicas (the
// distributed mode): the replica that owns a run's records partition
// publishes each job of an admitted plan on the work topic, and every
// replica runs lanes that take jobs from it under one consumer group.
// The embedded mode has none: its one process runs the jobs inline, as
// fast as before.
type workBus struct {
	pub message.Publisher
	// subscribe returns a subscriber of the work topic under group, whose
	// session timeout is the job lease.
	subscribe func(group string) (message.Subscriber, error)
	// admitted reads a run's admitted records; pending the records self
	// proposed for it.
	admitted, pending func(self *record.Signer, refuse func(error)) history
	lanes             int
	replica           string
}

// workGroup is the consumer group of a service's work lanes.
func workGroup(group string) string { return group + ".work" }

// defaultReplica names a replica by its host and process.
func defaultReplica() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "host"
	}
	return fmt.Sprintf("%s-%d", host, os.Getpid())
}

// kafkaWorkBus is the work bus over Kafka: lanes lanes per replica, each
// a group member holding its jobs for lease (its session timeout).
func kafkaWorkBus(brokers []string, pub message.Publisher, v *admission.Verifier, lease time.Duration, lanes int, replica string, wm watermill.LoggerAdapter) *workBus {
	return &workBus{
		pub: pub,
		subscribe: func(group string) (message.Subscriber, error) {
			return kafka.NewSubscriber(kafka.SubscriberConfig{Brokers: brokers, ConsumerGroup: group,
				SessionTimeout: lease, HeartbeatInterval: min(kafka.DefaultHeartbeatInterval, lease/3)}, wm)
		},
		admitted: func(self *record.Signer, refuse func(error)) history {
			return admittedHistory(brokers, self, v, refuse)
		},
		pending: func(self *record.Signer, refuse func(error)) history {
			return pendingHistory(brokers, self, v, refuse)
		},
		lanes:   max(lanes, 1),
		replica: replica,
	}
}

// startWorkLanes makes the executor's and the mutation service's handler
// dispatch their jobs to the work topic and starts the replica's lanes,
// which run any replica's.
func startWorkLanes(ctx context.Context, g *lifecycle.Group, spec serviceSpec, signer *record.Signer, bus *roleBus, svc *runtime.Service) error {
	wb := bus.work
	if wb == nil {
		return nil
	}
	dispatch := func(_ context.Context, items []work.Item) error { return work.Publish(wb.pub, items) }
	var h runtime.JobRunner
	switch sh := spec.h.(type) {
	case *exhandler.Handler:
		sh.Dispatch, sh.Worker, h = dispatch, wb.replica, sh
	case *muthandler.Handler:
		sh.Dispatch, sh.Worker, h = dispatch, wb.replica, sh
	default:
		return nil
	}
	refuse := func(error) {}
	if svc.Refusals != nil {
		refuse = func(err error) { svc.Refusals.Refuse(ctx, "", err) }
	}
	for i := range wb.lanes {
		sub, err := wb.subscribe(workGroup(spec.group))
		if err != nil {
			return infraErrorf("%s work: %v", spec.name, err)
		}
		w := &runtime.Worker{Name: spec.name, Planner: spec.identity, Replica: wb.replica, Signer: signer, Runner: h, Sub: sub,
			Appender: bus.appender, History: wb.admitted(signer, refuse), Pending: wb.pending(signer, refuse),
			Logger: bus.logger, Telemetry: bus.tel}
		err = g.Go(lifecycle.Role{Name: fmt.Sprintf("%s work lane %d", spec.name, i),
			Run: func(ctx context.Context, ready func()) error {
				w.Ready = ready
				return w.Run(ctx)
			},
			Drain: func(context.Context) error { return sub.Close() },
		})
		if err != nil {
			sub.Close()
			return err
		}
	}
	return nil
}
