// Command devbroker runs a Kafka-compatible broker for local clusters and
// end-to-end tests: franz-go's kfake, which speaks the Kafka wire protocol,
// as a standalone process that needs no JVM.
//
// Usage:
//
//	devbroker [--listen HOST:PORT] [--data-dir DIR] [--partitions N] [--brokers N]
//
// Once the brokers accept connections, devbroker prints one line to standard
// output,
//
//	devbroker listening on HOST:PORT[,HOST:PORT...]
//
// and serves until SIGINT or SIGTERM, when it saves its state and exits 0; a
// second signal ends it at once. Topics are created on first use with
// --partitions partitions. With --data-dir, records, topics and committed
// group offsets are written through to that directory as they arrive and
// are loaded again on the next start, so they survive even SIGKILL (though
// not a crash of the machine: nothing is fsynced).
//
// Invalid flags print one line to standard error and exit 3; a broker that
// cannot start (port taken, unreadable data directory) exits 1.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 3
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// After the first signal, restore the default handling, so that a
	// second one ends a shutdown that hangs.
	context.AfterFunc(ctx, stop)
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// config is what the flags ask for.
type config struct {
	host       string
	port       int // of the first broker; 0: any free ports
	dataDir    string
	partitions int
	brokers    int
}

// run serves as args ask until ctx is done and returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "devbroker: %s\n", oneLine(err))
		return exitUsage
	}
	cluster, err := kfake.NewCluster(cfg.options()...)
	if err != nil {
		fmt.Fprintf(stderr, "devbroker: start: %s\n", oneLine(err))
		return exitFailure
	}
	autoCreateTopics(cluster, cfg.partitions)
	fmt.Fprintf(stdout, "devbroker listening on %s\n", strings.Join(cluster.ListenAddrs(), ","))
	<-ctx.Done()
	// With a data directory, Close also saves the state that is not
	// written through as it changes.
	cluster.Close()
	return exitOK
}

// parseFlags parses args. For -h it prints the usage on stdout and returns
// flag.ErrHelp.
func parseFlags(args []string, stdout io.Writer) (config, error) {
	fs := flag.NewFlagSet("devbroker", flag.ContinueOnError)
	// The flag package prints errors and the usage on its output; errors
	// are reported by run, in one line, and only -h shows the usage.
	fs.SetOutput(io.Discard)
	listen := fs.String("listen", "127.0.0.1:9092", "`host:port` of the first broker; the others listen on the ports after it (port 0: any free ports)")
	dataDir := fs.String("data-dir", "", "`directory` to keep the cluster's data in across restarts (default: memory only)")
	partitions := fs.Int("partitions", 8, "partitions of a topic created on first use")
	brokers := fs.Int("brokers", 1, "number of brokers")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fmt.Fprintln(stdout, "Usage: devbroker [flags]")
			fs.PrintDefaults()
		}
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	host, portStr, err := net.SplitHostPort(*listen)
	if err != nil {
		return config{}, fmt.Errorf("--listen %q: %v", *listen, err)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil || port < 0 || port > 65535 {
		return config{}, fmt.Errorf("--listen %q: port must be a number from 0 to 65535", *listen)
	}
	if *brokers < 1 {
		return config{}, fmt.Errorf("--brokers %d: want at least 1", *brokers)
	}
	if port != 0 && port+*brokers-1 > 65535 {
		return config{}, fmt.Errorf("--brokers %d from port %d: ports past 65535", *brokers, port)
	}
	if *partitions < 1 {
		return config{}, fmt.Errorf("--partitions %d: want at least 1", *partitions)
	}
	return config{
		host:       host,
		port:       port,
		dataDir:    *dataDir,
		partitions: *partitions,
		brokers:    *brokers,
	}, nil
}

func (c config) options() []kfake.Opt {
	opts := []kfake.Opt{
		kfake.NumBrokers(c.brokers),
		// For CreateTopics requests that leave the count to the broker.
		kfake.DefaultNumPartitions(c.partitions),
		// kfake always listens on 127.0.0.1; keep its ports, use our host.
		kfake.ListenFn(func(network, address string) (net.Listener, error) {
			_, port, err := net.SplitHostPort(address)
			if err != nil {
				return nil, err
			}
			return net.Listen(network, net.JoinHostPort(c.host, port))
		}),
	}
	if c.port != 0 {
		ports := make([]int, c.brokers)
		for i := range ports {
			ports[i] = c.port + i
		}
		opts = append(opts, kfake.Ports(ports...))
	}
	if c.dataDir != "" {
		opts = append(opts, kfake.DataDir(c.dataDir))
	}
	return opts
}

// autoCreateTopics creates the topics that metadata requests ask to have
// created, with the given number of partitions. kfake can do that itself
// (kfake.AllowAutoTopicCreation), but it writes topics created that way to
// the data directory only when it shuts down cleanly, so a SIGKILL would
// lose them, records and all; topics created through its admin API are
// written at once.
func autoCreateTopics(c *kfake.Cluster, partitions int) {
	c.ControlKey(int16(kmsg.Metadata), func(req kmsg.Request) (kmsg.Response, error, bool) {
		m, ok := req.(*kmsg.MetadataRequest)
		// Before version 4, a metadata request always allowed creation.
		if !ok || (m.Version >= 4 && !m.AllowAutoTopicCreation) {
			return nil, nil, false
		}
		for _, t := range m.Topics {
			if t.Topic != nil && *t.Topic != "" {
				// The error is for a topic that exists or a name that is
				// invalid; either way kfake's answer to the request,
				// which follows, says so.
				_ = c.CreateTopic(*t.Topic, int32(partitions), nil)
			}
		}
		// Not handled: kfake answers the request as usual, and keeps
		// this function for the next one.
		return nil, nil, false
	})
}

// oneLine keeps a report to one line of output, whatever the error says.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
