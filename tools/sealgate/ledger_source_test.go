package main

import (
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/ledger/admission"
)

func TestLedgerBrokersParse(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string // joined output, or "" for an error
	}{
		{[]string{"localhost:9092"}, "localhost:9092"},
		{[]string{" 127.0.0.1:9092 ", "127.0.0.1:9092", "[::1]:19092"}, "127.0.0.1:9092,[::1]:19092"},
		{[]string{"kafka-0.kafka.svc:9092", "kafka-1.kafka.svc:9092"}, "kafka-0.kafka.svc:9092,kafka-1.kafka.svc:9092"},
		{[]string{"localhost"}, ""},
		{[]string{":9092"}, ""},
		{[]string{"host:"}, ""},
		{[]string{"host:0"}, ""},
		{[]string{"host:09092"}, ""},
		{[]string{"host:+9092"}, ""},
		{[]string{"host:65536"}, ""},
		{[]string{"host:port"}, ""},
		{[]string{"kafka://host:9092"}, ""},
		{[]string{"user@host:9092"}, ""},
		{[]string{"ho st:9092"}, ""},
		{[]string{""}, ""},
		{nil, ""},
		{[]string{"a:1", "b:x"}, ""},
	} {
		got, err := parseBrokers(c.in)
		if (err == nil) != (c.want != "") || (err == nil && strings.Join(got, ",") != c.want) {
			t.Errorf("parseBrokers(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	many := make([]string, maxBrokers+1)
	for i := range many {
		many[i] = "h:" + strconv.Itoa(i+1)
	}
	if _, err := parseBrokers(many); err == nil {
		t.Error("more than maxBrokers brokers accepted")
	}
}

// What parseBrokers accepts is a list of distinct HOST:PORT with a port
// from 1 to 65535, each of which it accepts again unchanged.
func FuzzLedgerBrokers(f *testing.F) {
	for _, s := range []string{"localhost:9092", "127.0.0.1:9092,[::1]:1", "a:1,a:1", "host", ":1", "h:65536", "h:0", "[::1]:9092", "h\n:1", "%:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseBrokers(strings.Split(s, ","))
		if err != nil {
			return
		}
		if len(got) == 0 {
			t.Fatal("no broker and no error")
		}
		seen := map[string]bool{}
		for _, b := range got {
			host, port, err := net.SplitHostPort(b)
			if err != nil || host == "" || strings.ContainsAny(host, " \t\r\n/@") {
				t.Fatalf("%q accepted: %v", b, err)
			}
			n, err := strconv.Atoi(port)
			if err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != port {
				t.Fatalf("%q accepted with port %q", b, port)
			}
			if seen[b] {
				t.Fatalf("%q listed twice", b)
			}
			seen[b] = true
			again, err := parseBrokers([]string{b})
			if err != nil || len(again) != 1 || again[0] != b {
				t.Fatalf("%q does not parse back to itself: %q %v", b, again, err)
			}
		}
	})
}

// runOfRefusal reads the run a chain refusal names, whatever the detail
// holds after it, and nothing from a detail of another shape.
func TestLedgerRunOfRefusal(t *testing.T) {
	for _, c := range []struct{ detail, want string }{
		{`run "run-1": place 3 is taken by another record`, "run-1"},
		{`run "a \"quoted\" id": x`, `a "quoted" id`},
		{`history of run r: x`, ""},
		{`run run-1: x`, ""},
		{`run "unterminated`, ""},
		{`run '0'`, ""},
		{"run `r`", ""},
	} {
		if got := runOfRefusal(&admission.Refusal{Code: admission.CodeFork, Detail: c.detail}); got != c.want {
			t.Errorf("runOfRefusal(%q) = %q, want %q", c.detail, got, c.want)
		}
	}
}

func FuzzLedgerRunOfRefusal(f *testing.F) {
	for _, s := range []string{`run "r": x`, `run "`, `run "\x"`, "run \"\\u00e9\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, detail string) {
		got := runOfRefusal(&admission.Refusal{Detail: detail})
		if got != "" && !strings.HasPrefix(detail, "run \"") {
			t.Fatalf("%q gave run %q", detail, got)
		}
	})
}

// printable keeps every listed string on its line.
func TestLedgerPrintable(t *testing.T) {
	if got := printable("a\tb\nc\x1bd\x7fé"); got != "a?b?c?d?é" {
		t.Fatalf("printable = %q", got)
	}
}
