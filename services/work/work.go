// Package work holds the work items of the distributed mode: one message
// per job of an admitted job.planned record, on the work topic, so that any
// replica of the service that planned the job can take it.
//
// A work item is a pointer, never evidence: it names a run, a plan record
// by digest and a job by its token. The worker that takes it acts only on
// the job it finds, by that token, in an admitted job.planned record of
// the run, read from the ledger (runtime.Worker); a forged or altered item
// names nothing the ledger holds and runs nothing. The topic is a derived
// view of the ledger: the replica that handles the admitted plan on the
// run's records partition publishes it, and publishes it again whenever
// the plan is delivered again, so a lost item is mended by a redelivery.
package work

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// Topic carries the work items. It is keyed by run and token, so that the
// jobs of one run spread over its partitions, and it has many of them
// (DefaultPartitions): a partition is the unit a consumer group hands to a
// replica, so the partition count bounds how many replicas share a run.
const Topic = "sealgate.work.v1"

// DefaultPartitions is the work topic's partition count when a process
// creates it.
const DefaultPartitions = 32

// Version is the encoding version of an item.
const Version = 1

// maxField bounds every string of an item: ids and digests are short.
const maxField = 512

// Item is one job to run: the job whose token is Token in the job.planned
// record Plan (hex digest) of run Run, planned by Planner (a service
// identity).
type Item struct {
	Version int    `json:"v"`
	Run     string `json:"run"`
	Plan    string `json:"plan"`
	Token   string `json:"token"`
	Job     string `json:"job"`
	Planner string `json:"planner"`
}

// Items lists the work items of a job.planned record, in the plan's order,
// leaving out the tokens skip holds (already answered).
func Items(plan *record.Decoded, skip map[string]bool) []Item {
	jp := plan.Record.GetJobPlanned()
	if jp == nil {
		return nil
	}
	var out []Item
	for _, j := range jp.GetJobs() {
		tok := j.GetToken().GetId()
		if tok == "" || skip[tok] {
			continue
		}
		out = append(out, Item{Version: Version, Run: plan.Record.GetRunId(), Plan: plan.Digest, Token: tok,
			Job: j.GetJobId(), Planner: plan.Record.GetProducer().GetIdentity()})
	}
	return out
}

// Message encodes the item as a work message. Its UUID is the run and the
// token, which the Kafka publisher keys the message by (no run id in the
// metadata: the jobs of one run must not share a partition).
func (it Item) Message() (*message.Message, error) {
	if err := it.check(); err != nil {
		return nil, err
	}
	b, err := json.Marshal(it)
	if err != nil {
		return nil, fmt.Errorf("work: encode: %w", err)
	}
	return message.NewMessage(it.Run+"/"+it.Token, b), nil
}

// Parse decodes a work message's payload: one JSON object of the current
// version, with every field present and bounded, nothing else. It says
// nothing about whether the job exists: the worker checks that on the
// ledger.
func Parse(payload []byte) (Item, error) {
	if len(payload) > 8*maxField {
		return Item{}, fmt.Errorf("work: item of %d bytes, want at most %d", len(payload), 8*maxField)
	}
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	var it Item
	if err := dec.Decode(&it); err != nil {
		return Item{}, fmt.Errorf("work: item does not decode: %w", err)
	}
	if dec.More() {
		return Item{}, errors.New("work: trailing data after the item")
	}
	if _, err := dec.Token(); err == nil {
		return Item{}, errors.New("work: trailing data after the item")
	}
	if err := it.check(); err != nil {
		return Item{}, err
	}
	return it, nil
}

func (it Item) check() error {
	if it.Version != Version {
		return fmt.Errorf("work: item version %d, want %d", it.Version, Version)
	}
	for _, f := range []struct{ name, v string }{{"run", it.Run}, {"plan", it.Plan}, {"token", it.Token}, {"job", it.Job}, {"planner", it.Planner}} {
		switch {
		case f.v == "":
			return fmt.Errorf("work: item without %s", f.name)
		case len(f.v) > maxField:
			return fmt.Errorf("work: item %s of %d bytes, want at most %d", f.name, len(f.v), maxField)
		case !utf8.ValidString(f.v):
			return fmt.Errorf("work: item %s is not UTF-8", f.name)
		}
	}
	if b, err := hex.DecodeString(it.Plan); err != nil || len(b) != 32 {
		return fmt.Errorf("work: item plan %q is not a hex SHA-256 digest", it.Plan)
	}
	return nil
}

// Publish publishes the items on the work topic.
func Publish(pub message.Publisher, items []Item) error {
	if len(items) == 0 {
		return nil
	}
	msgs := make([]*message.Message, 0, len(items))
	for _, it := range items {
		m, err := it.Message()
		if err != nil {
			return err
		}
		msgs = append(msgs, m)
	}
	if err := pub.Publish(Topic, msgs...); err != nil {
		return fmt.Errorf("work: publish %d item(s): %w", len(msgs), err)
	}
	return nil
}

// Find returns the job item names in run (the run's records, as the ledger
// holds them): the job whose token is item.Token, with job id item.Job, in
// the job.planned record whose digest is item.Plan, signed by item.Planner
// for item.Run. Nil when the run holds no such job: the item is forged,
// altered or names a plan the ledger never admitted.
func Find(run []*record.Decoded, it Item) (plan *record.Decoded, job *pb.Job) {
	for _, r := range run {
		if r.Digest != it.Plan || r.Kind != pb.Kind_KIND_JOB_PLANNED {
			continue
		}
		if r.Record.GetRunId() != it.Run || r.Record.GetProducer().GetIdentity() != it.Planner {
			return nil, nil
		}
		for _, j := range r.Record.GetJobPlanned().GetJobs() {
			if j.GetToken().GetId() == it.Token && j.GetJobId() == it.Job {
				return r, j
			}
		}
		return nil, nil
	}
	return nil, nil
}
