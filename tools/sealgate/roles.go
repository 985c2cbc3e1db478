package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"

	"github.com/sealgate/sealgate/ledger/admission"
	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
	"github.com/sealgate/sealgate/services/gateway"
	"github.com/sealgate/sealgate/services/lifecycle"
	"github.com/sealgate/sealgate/services/runtime"
	"github.com/sealgate/sealgate/services/telemetry"
)

// The composition root: every role of a process — all of them in process
// for `sealgate verify`, the chosen ones over Kafka for `sealgate serve` —
// is built here and run by one lifecycle.Group (start, ready, drain, stop).
// The handlers themselves are built by serviceDeps.spec (embedded.go); the
// transport each mode gives them is a roleBus.

// role is a service role of a process.
type role string

const (
	roleLedger       role = "ledger"
	roleGateway      role = "gateway"
	roleCheckout     role = "checkout"
	roleExecutor     role = "executor"
	roleReach        role = "reach"
	roleMutation     role = "mutation"
	roleAdjudication role = "adjudication"
	roleSigning      role = "signing"
)

// allRoles are the roles in the order a process starts them: the ledger
// first (it admits what the others propose), the gateway, then the
// services in the order a run meets them.
func allRoles() []role {
	return []role{roleLedger, roleGateway, roleCheckout, roleExecutor, roleReach, roleMutation, roleAdjudication, roleSigning}
}

// handlerRoles are the roles served by a runtime.Service with a handler:
// every role but the ledger guard and the gateway.
func handlerRoles() []role {
	return []role{roleCheckout, roleExecutor, roleReach, roleMutation, roleAdjudication, roleSigning}
}

// drainBound bounds how long a process waits for its roles to stop: they
// kill their test processes and remove their workspaces on the way out.
const drainBound = 30 * time.Second

// stopGroup drains g within drainBound, outside ctx's cancellation (the
// process is stopping because ctx ended).
func stopGroup(ctx context.Context, g *lifecycle.Group) error {
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), drainBound)
	defer cancel()
	return g.Stop(dctx)
}

// roleBus is what a mode gives the services: where they subscribe, where
// they append, how they read a run's history and what they trust.
type roleBus struct {
	// subscribe returns a subscriber under the consumer group.
	subscribe func(group string) (message.Subscriber, error)
	appender  runtime.Appender
	// history reads a run (refuse reports what it skipped); nil: none.
	history func(self *record.Signer, refuse func(error)) history
	// admission checks the guard's admissions; nil trusts the
	// subscription (the local ledger).
	admission *admission.Verifier
	// refusals counts and logs refused messages; nil counts silently.
	refusals func(name string) (*runtime.Refusals, error)
	// signer returns the ledger key of a service identity.
	signer func(identity string) (*record.Signer, error)
	tel    *telemetry.Providers
	logger *slog.Logger
	// work spreads the executor's and mutation's jobs over their replicas; nil runs them
	// inline (work_role.go).
	work *workBus
}

// startHandlerRole builds the named handler role and starts it in g.
func startHandlerRole(ctx context.Context, g *lifecycle.Group, name role, deps *serviceDeps, bus *roleBus) error {
	spec, err := deps.spec(string(name))
	if err != nil {
		return err
	}
	signer, err := bus.signer(spec.identity)
	if err != nil {
		return infraErrorf("%v", err)
	}
	sub, err := bus.subscribe(spec.group)
	if err != nil {
		return infraErrorf("%s: %v", name, err)
	}
	svc := &runtime.Service{Name: spec.name, Signer: signer, Handler: spec.h, Sub: sub, Appender: bus.appender,
		Telemetry: bus.tel, Admission: bus.admission, Logger: bus.logger}
	if bus.refusals != nil {
		if svc.Refusals, err = bus.refusals(spec.name); err != nil {
			sub.Close()
			return infraErrorf("%v", err)
		}
	}
	if bus.history != nil {
		refuse := func(error) {}
		if svc.Refusals != nil {
			refuse = func(err error) { svc.Refusals.Refuse(ctx, "", err) }
		}
		svc.History = bus.history(signer, refuse)
	}
	if err := startWorkLanes(ctx, g, spec, signer, bus, svc); err != nil {
		sub.Close()
		return err
	}
	err = g.Go(lifecycle.Role{Name: spec.name,
		Run: func(ctx context.Context, ready func()) error {
			svc.Ready = ready
			return svc.Run(ctx)
		},
		Drain: func(context.Context) error { return sub.Close() },
	})
	if err != nil {
		sub.Close()
	}
	return err
}

// subscribedRole runs loop (the ledger guard's, the gateway index's) over
// sub as a role, ready once its subscription is live: the same signal as
// runtime.Service.Ready, given when Subscribe has returned.
func subscribedRole(name string, sub message.Subscriber, loop func(ctx context.Context, sub message.Subscriber) error) lifecycle.Role {
	return lifecycle.Role{Name: name,
		Run: func(ctx context.Context, ready func()) error {
			return loop(ctx, readySubscriber{Subscriber: sub, ready: ready})
		},
		Drain: func(context.Context) error { return sub.Close() },
	}
}

// readySubscriber calls ready once a subscription is live.
type readySubscriber struct {
	message.Subscriber
	ready func()
}

func (r readySubscriber) Subscribe(ctx context.Context, topic string) (<-chan *message.Message, error) {
	ch, err := r.Subscriber.Subscribe(ctx, topic)
	if err == nil {
		r.ready()
	}
	return ch, err
}

// gatewayAPI is the gateway's gRPC server. The health of its Gate service
// (what a readiness probe asks) is NOT_SERVING, and the Gate API answers
// Unavailable, until every role of the process is ready (the group's
// Ready): a client or a readiness probe never meets a gateway whose runs
// nobody would pick up. The server as a whole ("", what a liveness probe
// asks) is SERVING while it runs: waiting for a broker is no reason to be
// restarted.
type gatewayAPI struct {
	lis    net.Listener
	srv    *grpc.Server
	health *health.Server
	ready  <-chan struct{}
}

// newGatewayAPI listens on addr and serves gate once ready is closed.
func newGatewayAPI(addr string, gate *gateway.Server, ready <-chan struct{}) (*gatewayAPI, error) {
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, usageErrorf("--listen %s: %v", addr, err)
	}
	a := &gatewayAPI{lis: lis, health: health.NewServer(), ready: ready}
	a.srv = grpc.NewServer(grpc.ChainUnaryInterceptor(a.unary), grpc.ChainStreamInterceptor(a.stream))
	pb.RegisterGateServer(a.srv, gate)
	healthpb.RegisterHealthServer(a.srv, a.health)
	a.health.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	a.health.SetServingStatus(pb.Gate_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_NOT_SERVING)
	reflection.Register(a.srv)
	return a, nil
}

// notReady refuses a Gate call before the process is ready.
func (a *gatewayAPI) notReady(method string) error {
	if !strings.HasPrefix(method, "/"+pb.Gate_ServiceDesc.ServiceName+"/") {
		return nil
	}
	select {
	case <-a.ready:
		return nil
	default:
		return status.Error(codes.Unavailable, "the gateway is starting: its services are not subscribed to the ledger yet")
	}
}

func (a *gatewayAPI) unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
	if err := a.notReady(info.FullMethod); err != nil {
		return nil, err
	}
	return h(ctx, req)
}

func (a *gatewayAPI) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) error {
	if err := a.notReady(info.FullMethod); err != nil {
		return err
	}
	return h(srv, ss)
}

// role serves the API; it turns SERVING when ready closes, and on drain
// stops gracefully, at once when the drain's bound ends.
func (a *gatewayAPI) role(logf func(string, ...any)) lifecycle.Role {
	return lifecycle.Role{Name: "gateway",
		Run: func(ctx context.Context, ready func()) error {
			ready()
			served := make(chan struct{})
			defer close(served)
			go func() {
				select {
				case <-a.ready:
					a.health.SetServingStatus(pb.Gate_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
					logf("gateway: SERVING on %s", a.lis.Addr())
				case <-served:
				}
			}()
			if err := a.srv.Serve(a.lis); err != nil && !errors.Is(err, grpc.ErrServerStopped) {
				return err
			}
			return nil
		},
		Drain: func(ctx context.Context) error {
			a.health.Shutdown()
			stopped := make(chan struct{})
			go func() {
				a.srv.GracefulStop()
				close(stopped)
			}()
			select {
			case <-stopped:
			case <-ctx.Done():
				a.srv.Stop()
				<-stopped
			}
			return nil
		},
	}
}

// roleNames joins names for a log line or a directory name.
func roleNames(names []role) string {
	s := make([]string, len(names))
	for i, n := range names {
		s[i] = string(n)
	}
	return strings.Join(s, "-")
}
