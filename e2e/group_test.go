package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	kafkago "github.com/segmentio/kafka-go"
)

// waitGroup waits, up to a minute, until Kafka consumer group holds at
// least n members, is stable, and each of n members holds partitions of
// topic: from then on they share the topic's work, and no member joining
// late takes it all back in a rebalance.
func waitGroup(t testing.TB, brokers, group, topic string, n int) {
	t.Helper()
	client := &kafkago.Client{Addr: kafkago.TCP(brokers)}
	deadline := time.Now().Add(time.Minute)
	last := "no answer yet"
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		resp, err := client.DescribeGroups(ctx, &kafkago.DescribeGroupsRequest{GroupIDs: []string{group}})
		cancel()
		switch {
		case err != nil:
			last = err.Error()
		case len(resp.Groups) != 1 || resp.Groups[0].Error != nil:
			last = fmt.Sprintf("%+v", resp.Groups)
		default:
			g := resp.Groups[0]
			held := 0
			for _, m := range g.Members {
				for _, tp := range m.MemberAssignments.Topics {
					if tp.Topic == topic && len(tp.Partitions) > 0 {
						held++
						break
					}
				}
			}
			last = fmt.Sprintf("state %s, %d members, %d holding partitions of %s", g.GroupState, len(g.Members), held, topic)
			if g.GroupState == "Stable" && len(g.Members) >= n && held >= n {
				return
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("consumer group %s never settled with %d members sharing %s: %s", group, n, topic, last)
}
