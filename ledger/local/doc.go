// Package local is sealgate's embedded ledger backend: a durable,
// crash-safe, single-machine append-only log in one bbolt file, used through
// Watermill's message.Publisher and message.Subscriber.
//
// # Storage
//
// Every message published to any topic is one entry in a single global
// append order (seq 1, 2, …). An entry holds the topic, the Watermill UUID,
// metadata and payload, and the hash of the previous entry; its own hash,
// SHA-256 over a domain-separation tag, the previous hash and its bytes, is
// stored with it, so the entries form a hash chain that Scan and VerifyChain
// check. A per-topic index lets subscribers read a topic without walking the
// others.
//
// # Durability
//
// Publish returns after the bbolt transaction holding its messages is
// committed and fsynced. Concurrent Publish calls, and offset commits, are
// gathered by a single committer into one transaction per round (group
// commit), so they share fsyncs. A lone writer never waits for a timer; with
// concurrent writers the committer lingers at most a quarter of a commit
// (capped at 500µs) for the rest of a round.
//
// # Consumer groups
//
// A consumer group has one stored offset per topic. Its subscriptions share
// it: the next message is delivered, to one of them, only after the previous
// one is acked and the new offset is committed. Throughput per (group, topic)
// is therefore one message per commit; groups and topics proceed
// concurrently and share commits. Subscriber.AckWith commits the outputs a
// consumer derived from a message together with that message's offset.
//
// # Files and processes
//
// bbolt locks the file: one writer, or several OpenReadOnly readers. Open
// gives up with ErrLocked after Options.LockTimeout rather than hanging. A
// damaged file yields ErrCorruptFile instead of a crash.
package local
