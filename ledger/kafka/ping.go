package kafka

import (
	"context"
	"errors"
	"fmt"

	"github.com/segmentio/kafka-go"
)

// Ping asks the cluster behind brokers for its metadata, once: it returns
// nil as soon as a broker answers with at least one broker and a
// controller (a cluster still starting lists neither), and an error naming
// what failed when
// none did before ctx ends (give ctx a deadline: a host that accepts the
// connection and never answers holds Ping until then). Tools that read a
// topic call it first, so that a wrong address is reported at once rather
// than as a read that never ends.
func Ping(ctx context.Context, brokers []string) error {
	if err := validateBrokers(brokers); err != nil {
		return fmt.Errorf("kafka: ping: %w", err)
	}
	transport := &kafka.Transport{ClientID: "sealgate"}
	defer transport.CloseIdleConnections()
	var errs []error
	for _, b := range brokers {
		client := &kafka.Client{Addr: kafka.TCP(b), Transport: transport}
		resp, err := client.Metadata(ctx, &kafka.MetadataRequest{Topics: []string{}})
		switch {
		case err == nil && len(resp.Brokers) == 0:
			err = errors.New("the cluster lists no brokers yet")
		case err == nil && resp.Controller.Host == "":
			err = errors.New("the cluster has no controller yet")
		case err == nil:
			return nil
		}
		if ctx.Err() != nil {
			errs = append(errs, fmt.Errorf("%s: no answer: %w", b, ctx.Err()))
			break
		}
		errs = append(errs, fmt.Errorf("%s: %w", b, err))
	}
	return fmt.Errorf("kafka: no broker answers: %w", errors.Join(errs...))
}
