package cover

import (
	"bytes"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestParseProfile(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want *Profile
	}{
		{"mode only", "mode: set\n", &Profile{Mode: ModeSet}},
		{"mode only without newline", "mode: atomic", &Profile{Mode: ModeAtomic}},
		{
			"sorted by file, start, end",
			"mode: set\n" +
				"example.com/m/b.go:3.2,4.3 1 0\n" +
				"example.com/m/a.go:5.11,7.3 1 1\n" +
				"example.com/m/a.go:4.29,5.11 1 1\n" +
				"example.com/m/a.go:27.10,27.10 0 0\n",
			&Profile{Mode: ModeSet, Blocks: []Block{
				{"example.com/m/a.go", 4, 29, 5, 11, 1, 1},
				{"example.com/m/a.go", 5, 11, 7, 3, 1, 1},
				{"example.com/m/a.go", 27, 10, 27, 10, 0, 0},
				{"example.com/m/b.go", 3, 2, 4, 3, 1, 0},
			}},
		},
		{
			"no final newline",
			"mode: count\na.go:1.1,2.2 3 4",
			&Profile{Mode: ModeCount, Blocks: []Block{{"a.go", 1, 1, 2, 2, 3, 4}}},
		},
		{
			"CRLF",
			"mode: count\r\na.go:1.1,2.2 3 4\r\nb.go:1.1,1.9 1 0\r\n",
			&Profile{Mode: ModeCount, Blocks: []Block{{"a.go", 1, 1, 2, 2, 3, 4}, {"b.go", 1, 1, 1, 9, 1, 0}}},
		},
		{
			"set duplicates: max",
			"mode: set\na.go:1.1,2.2 1 0\na.go:1.1,2.2 1 1\na.go:1.1,2.2 1 0\na.go:1.1,2.2 1 1\nb.go:1.1,2.2 2 0\nb.go:1.1,2.2 2 0\n",
			&Profile{Mode: ModeSet, Blocks: []Block{{"a.go", 1, 1, 2, 2, 1, 1}, {"b.go", 1, 1, 2, 2, 2, 0}}},
		},
		{
			"count duplicates: sum",
			"mode: count\na.go:1.1,2.2 1 2\na.go:1.1,2.3 1 7\na.go:1.1,2.2 1 3\n",
			&Profile{Mode: ModeCount, Blocks: []Block{{"a.go", 1, 1, 2, 2, 1, 5}, {"a.go", 1, 1, 2, 3, 1, 7}}},
		},
		{
			"atomic duplicates: sum, saturating",
			"mode: atomic\na.go:1.1,2.2 1 " + strconv.Itoa(math.MaxInt) + "\na.go:1.1,2.2 1 1\nb.go:1.1,1.2 1 4\nb.go:1.1,1.2 1 0\n",
			&Profile{Mode: ModeAtomic, Blocks: []Block{{"a.go", 1, 1, 2, 2, 1, math.MaxInt}, {"b.go", 1, 1, 1, 2, 1, 4}}},
		},
		{
			"file names with colons and spaces",
			"mode: set\nC:\\my dir\\a.go:1.2,3.4 5 1\nx: y.go:1.1,1.1 0 0\n",
			&Profile{Mode: ModeSet, Blocks: []Block{{"C:\\my dir\\a.go", 1, 2, 3, 4, 5, 1}, {"x: y.go", 1, 1, 1, 1, 0, 0}}},
		},
		{
			"largest numbers",
			"mode: count\na.go:2147483647.2147483647,2147483647.2147483647 2147483647 " + strconv.Itoa(math.MaxInt) + "\n",
			&Profile{Mode: ModeCount, Blocks: []Block{{"a.go", MaxPosition, MaxPosition, MaxPosition, MaxPosition, MaxPosition, math.MaxInt}}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseProfile(strings.NewReader(tc.in))
			if err != nil {
				t.Fatalf("ParseProfile: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ParseProfile =\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
}

func TestParseProfileErrors(t *testing.T) {
	long := "mode: set\na.go:1.1,1.2 1 1\n" + strings.Repeat("x", MaxLineBytes-len(":1.1,1.2 1 1")+1) + ":1.1,1.2 1 1\n"
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", "coverage profile is empty"},
		{"blank first line", "\n", "line 1: \"\": want \"mode: set|count|atomic\""},
		{"missing mode", "a.go:1.1,1.2 1 1\n", "line 1: \"a.go:1.1,1.2 1 1\": want \"mode:"},
		{"mode without space", "mode:set\n", "line 1: \"mode:set\": want"},
		{"unknown mode", "mode: sets\n", "line 1: unknown mode \"sets\""},
		{"mode with trailing space", "mode: set \n", "line 1: unknown mode \"set \""},
		{"capitalised mode", "Mode: set\n", "line 1"},
		{"second mode line", "mode: set\na.go:1.1,1.2 1 1\nmode: set\n", "line 3: second mode line"},
		{"empty line", "mode: set\na.go:1.1,1.2 1 1\n\nb.go:1.1,1.2 1 1\n", "line 3: empty line"},
		{"two final newlines", "mode: set\na.go:1.1,1.2 1 1\n\n", "line 3: empty line"},
		{"garbage", "mode: set\nhello\n", "line 2: \"hello\": want"},
		{"one field", "mode: set\na.go:1.1,1.2 1\n", "line 2: \"a.go:1.1,1.2 1\": want"},
		{"no colon", "mode: set\na.go 1 1\n", "line 2: \"a.go 1 1\": want"},
		{"no comma", "mode: set\na.go:1.1-1.2 1 1\n", "line 2: span \"1.1-1.2\""},
		{"no dot", "mode: set\na.go:1,1.2 1 1\n", "line 2: span \"1,1.2\""},
		{"extra field", "mode: set\na.go:1.1,1.2 1 1 1\n", "line 2: end column \"2 1\" is not a decimal number"},
		{"missing statement count", "mode: set\na.go:1.1,1.2  1\n", "line 2: missing statement count"},
		{"double space", "mode: set\na.go:1.1,1.2  1 1\n", "line 2: end column \"2 \""},
		{"trailing space", "mode: set\na.go:1.1,1.2 1 1 \n", "line 2: missing count"},
		{"letter", "mode: set\na.go:x.1,1.2 1 1\n", "line 2: start line \"x\" is not a decimal number"},
		{"negative count", "mode: count\na.go:1.1,1.2 1 -1\n", "line 2: count \"-1\" is not a decimal number"},
		{"plus sign", "mode: count\na.go:1.1,1.2 +1 1\n", "line 2: statement count \"+1\""},
		{"leading zero", "mode: count\na.go:01.1,1.2 1 1\n", "line 2: start line \"01\" has a leading zero"},
		{"missing column", "mode: count\na.go:1.,1.2 1 1\n", "line 2: missing start column"},
		{"zero line", "mode: set\na.go:0.1,1.2 1 1\n", "line 2: start line 0 out of range"},
		{"zero column", "mode: set\na.go:1.1,1.0 1 1\n", "line 2: end column 0 out of range"},
		{"position too large", "mode: set\na.go:1.1,2147483648.2 1 1\n", "line 2: end line \"2147483648\" is larger than 2147483647"},
		{"count too large", "mode: count\na.go:1.1,1.2 1 99999999999999999999\n", "line 2: count \"99999999999999999999\" is larger"},
		{"start line after end line", "mode: set\na.go:2.1,1.5 1 1\n", "line 2: block \"a.go\":2.1,1.5 starts after it ends"},
		{"start column after end column", "mode: set\na.go:1.5,1.4 1 1\n", "line 2: block \"a.go\":1.5,1.4 starts after it ends"},
		{"set count above 1", "mode: set\na.go:1.1,1.2 1 2\n", "line 2: count 2 in set mode"},
		{"empty file name", "mode: set\n:1.1,1.2 1 1\n", "line 2: empty file name"},
		{"control character", "mode: set\na\tb.go:1.1,1.2 1 1\n", "line 2: file name \"a\\tb.go\" holds a control character"},
		{"carriage return inside", "mode: set\na.go:1.1,1.2 1 1\rb.go:1.1,1.2 1 1\n", "line 2: file name \"a.go:1.1,1.2 1 1\\rb.go\" holds a control character"},
		{"invalid UTF-8", "mode: set\na\xff.go:1.1,1.2 1 1\n", "line 2: file name \"a\\xff.go\" is not valid UTF-8"},
		{"statement counts disagree", "mode: count\na.go:1.1,1.2 1 1\nb.go:1.1,1.2 1 1\na.go:1.1,1.2 2 1\n", "line 4: block \"a.go\":1.1,1.2 has 2 statements, 1 at line 2"},
		{"line too long", long, "line 3: longer than 8192 bytes"},
		{"line too long at the end", "mode: set\n" + strings.Repeat("x", MaxLineBytes+1), "line 2: longer than 8192 bytes"},
		{"line far too long", "mode: set\n" + strings.Repeat("x", 3*MaxLineBytes) + "\n", "line 2: longer than 8192 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseProfile(strings.NewReader(tc.in))
			if err == nil {
				t.Fatalf("ParseProfile = %+v, want error containing %q", p, tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseProfile error %q, want it to contain %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q spans lines", err)
			}
		})
	}
}

func TestParseProfileLineLimit(t *testing.T) {
	name := strings.Repeat("d/", (MaxLineBytes-len("a.go:1.1,1.2 1 1"))/2) + "a.go"
	line := name + ":1.1,1.2 1 1"
	if len(line) > MaxLineBytes || len(line) < MaxLineBytes-1 {
		t.Fatalf("test line has %d bytes", len(line))
	}
	for _, end := range []string{"\n", "\r\n", ""} {
		p, err := ParseProfile(strings.NewReader("mode: set\n" + line + end))
		if err != nil {
			t.Fatalf("a line of %d bytes ending in %q: %v", len(line), end, err)
		}
		if len(p.Blocks) != 1 || p.Blocks[0].File != name {
			t.Fatalf("got %d blocks", len(p.Blocks))
		}
	}
}

// repeatReader yields head, then body over and over.
type repeatReader struct {
	head, body []byte
	off        int
}

func (r *repeatReader) Read(b []byte) (int, error) {
	n := 0
	for n < len(b) {
		if len(r.head) > 0 {
			c := copy(b[n:], r.head)
			r.head = r.head[c:]
			n += c
			continue
		}
		c := copy(b[n:], r.body[r.off:])
		r.off = (r.off + c) % len(r.body)
		n += c
	}
	return n, nil
}

func TestParseProfileSizeLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("-short (CI's race step): parses a profile at the limit; this package starts no goroutine")
	}
	// Long lines of the same block: little memory, few lines.
	line := strings.Repeat("p/", 3000) + "a.go:1.1,1.2 1 1\n"
	_, err := ParseProfile(&repeatReader{head: []byte("mode: count\n"), body: []byte(line)})
	if err == nil || err.Error() != "coverage profile larger than 67108864 bytes" {
		t.Fatalf("ParseProfile of an endless profile: %v", err)
	}

	// Exactly at the limit is fine.
	head := "mode: count\n"
	n := (MaxProfileBytes - len(head)) / len(line)
	pad := MaxProfileBytes - len(head) - n*len(line)
	body := strings.Repeat(line, n)
	body += strings.Repeat("p/", (pad-len("a.go:1.1,1.2 1 1\n"))/2) + "a.go:1.1,1.2 1 1"
	if len(head)+len(body) != MaxProfileBytes && len(head)+len(body) != MaxProfileBytes-1 {
		t.Fatalf("built %d bytes", len(head)+len(body))
	}
	p, err := ParseProfile(strings.NewReader(head + body))
	if err != nil {
		t.Fatalf("ParseProfile of %d bytes: %v", len(head)+len(body), err)
	}
	if len(p.Blocks) != 2 || p.Blocks[1].Count != n {
		t.Fatalf("got %+v", p.Blocks)
	}
}

func TestParseProfileBlockLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("-short (CI's race step): parses a profile at the limit; this package starts no goroutine")
	}
	var b bytes.Buffer
	b.WriteString("mode: set\n")
	for i := 1; i <= MaxBlocks+1; i++ {
		b.WriteString("a.go:1.1,")
		b.WriteString(strconv.Itoa(i))
		b.WriteString(".1 1 1\n")
	}
	_, err := ParseProfile(&b)
	want := "coverage profile line " + strconv.Itoa(MaxBlocks+2) + ": more than 1048576 distinct blocks"
	if err == nil || err.Error() != want {
		t.Fatalf("ParseProfile: %v, want %s", err, want)
	}
}

type failingReader struct{ r io.Reader }

func (f failingReader) Read(b []byte) (int, error) {
	n, err := f.r.Read(b)
	if err == io.EOF {
		return n, io.ErrUnexpectedEOF
	}
	return n, err
}

func TestParseProfileReadError(t *testing.T) {
	_, err := ParseProfile(failingReader{strings.NewReader("mode: set\na.go:1.1,1.2 1 1\n")})
	if err == nil || !strings.Contains(err.Error(), "reading coverage profile after line 2: unexpected EOF") {
		t.Fatalf("ParseProfile: %v", err)
	}
}

func TestWriteRoundTrip(t *testing.T) {
	in := "mode: count\nexample.com/m/b.go:3.2,4.3 1 0\nC:\\a b\\c.go:1.1,1.1 0 0\nexample.com/m/b.go:3.2,4.3 1 5\n"
	p, err := ParseProfile(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := p.Write(&out); err != nil {
		t.Fatal(err)
	}
	want := "mode: count\nC:\\a b\\c.go:1.1,1.1 0 0\nexample.com/m/b.go:3.2,4.3 1 5\n"
	if out.String() != want {
		t.Errorf("Write =\n%s\nwant\n%s", out.String(), want)
	}
	q, err := ParseProfile(&out)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p, q) {
		t.Errorf("round trip: %+v, want %+v", q, p)
	}
}

func TestWriteErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    Profile
		want string
	}{
		{"no mode", Profile{}, "unknown mode \"\""},
		{"bad block", Profile{Mode: ModeSet, Blocks: []Block{{"a.go", 1, 1, 1, 2, 1, 1}, {"a.go", 2, 1, 1, 2, 1, 1}}}, "block 1: block \"a.go\":2.1,1.2 starts after it ends"},
		{"newline in name", Profile{Mode: ModeSet, Blocks: []Block{{"a\n.go", 1, 1, 1, 2, 1, 1}}}, "block 0: file name \"a\\n.go\" holds a control character"},
		{"set count", Profile{Mode: ModeSet, Blocks: []Block{{"a.go", 1, 1, 1, 2, 1, 3}}}, "block 0: count 3 in set mode"},
		{"long line", Profile{Mode: ModeSet, Blocks: []Block{{strings.Repeat("a", MaxLineBytes), 1, 1, 1, 2, 1, 1}}}, "block 0: line longer than 8192 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := tc.p.Write(&out)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Write: %v, want %q", err, tc.want)
			}
			if out.Len() != 0 {
				t.Errorf("Write wrote %q before failing", out.String())
			}
		})
	}
}

func TestMerge(t *testing.T) {
	a := &Profile{Mode: ModeCount, Blocks: []Block{{"b.go", 1, 1, 2, 2, 1, 2}, {"a.go", 1, 1, 2, 2, 1, 0}}}
	b := &Profile{Mode: ModeCount, Blocks: []Block{{"a.go", 1, 1, 2, 2, 1, 3}, {"c.go", 1, 1, 1, 2, 1, 1}}}
	got, err := Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	want := &Profile{Mode: ModeCount, Blocks: []Block{{"a.go", 1, 1, 2, 2, 1, 3}, {"b.go", 1, 1, 2, 2, 1, 2}, {"c.go", 1, 1, 1, 2, 1, 1}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Merge =\n%+v\nwant\n%+v", got, want)
	}
	if a.Blocks[0].Count != 2 || b.Blocks[0].Count != 3 {
		t.Errorf("Merge changed its inputs: %+v %+v", a, b)
	}

	s1 := &Profile{Mode: ModeSet, Blocks: []Block{{"a.go", 1, 1, 2, 2, 1, 1}, {"a.go", 3, 1, 4, 2, 1, 0}}}
	s2 := &Profile{Mode: ModeSet, Blocks: []Block{{"a.go", 1, 1, 2, 2, 1, 1}, {"a.go", 3, 1, 4, 2, 1, 0}}}
	got, err = Merge(s1, s2)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Block{{"a.go", 1, 1, 2, 2, 1, 1}, {"a.go", 3, 1, 4, 2, 1, 0}}; !reflect.DeepEqual(got.Blocks, want) {
		t.Errorf("Merge of set profiles = %+v, want %+v", got.Blocks, want)
	}

	single, err := Merge(&Profile{Mode: ModeAtomic})
	if err != nil || single.Mode != ModeAtomic || len(single.Blocks) != 0 {
		t.Errorf("Merge of an empty profile = %+v, %v", single, err)
	}
}

func TestMergeErrors(t *testing.T) {
	set := &Profile{Mode: ModeSet, Blocks: []Block{{"a.go", 1, 1, 2, 2, 1, 1}}}
	for _, tc := range []struct {
		name string
		ps   []*Profile
		want string
	}{
		{"none", nil, "merge: no profiles"},
		{"nil", []*Profile{set, nil}, "merge: profile 1 is nil"},
		{"modes differ", []*Profile{set, {Mode: ModeCount}}, "merge: profile 1 has mode count, profile 0 has mode set"},
		{"unknown mode", []*Profile{{Mode: "sometimes"}}, "merge: profile 0: unknown mode \"sometimes\""},
		{"statements differ", []*Profile{set, {Mode: ModeSet, Blocks: []Block{{"a.go", 1, 1, 2, 2, 4, 1}}}}, "merge: profile 1: block \"a.go\":1.1,2.2 has 4 statements, 1 at profile 0"},
		{"invalid block", []*Profile{set, {Mode: ModeSet, Blocks: []Block{{"a.go", 1, 1, 2, 2, 1, -1}}}}, "merge: profile 1: negative count -1"},
		{"set count", []*Profile{set, {Mode: ModeSet, Blocks: []Block{{"a.go", 1, 1, 2, 2, 1, 2}}}}, "merge: profile 1: count 2 in set mode, want 0 or 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Merge(tc.ps...)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("Merge = %+v, %v; want error %q", p, err, tc.want)
			}
		})
	}
}
