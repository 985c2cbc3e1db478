package kafka_test

import (
	"os"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"
)

// brokersEnv names the brokers of an external cluster to test against
// instead of an in-process one.
const brokersEnv = "KAFKA_BROKERS"

// testBrokers returns the brokers to test against: those listed in
// KAFKA_BROKERS (comma separated), or those of an in-process kfake cluster
// that lives until tb ends. kfake speaks the Kafka wire protocol, so the
// clients under test cannot tell the difference.
func testBrokers(tb testing.TB) []string {
	tb.Helper()
	if env := os.Getenv(brokersEnv); env != "" {
		var brokers []string
		for b := range strings.SplitSeq(env, ",") {
			if b = strings.TrimSpace(b); b != "" {
				brokers = append(brokers, b)
			}
		}
		return brokers
	}
	// Three brokers, so that partition leaders and group coordinators are
	// spread as in a real cluster. No auto-creation: topics are created
	// explicitly, as in production.
	c, err := kfake.NewCluster(kfake.NumBrokers(3))
	if err != nil {
		tb.Fatalf("start kfake cluster: %v", err)
	}
	tb.Cleanup(c.Close)
	return c.ListenAddrs()
}
