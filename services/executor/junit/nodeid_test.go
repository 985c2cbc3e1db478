package junit

import (
	"errors"
	"strings"
	"testing"
)

func TestPytestAddress(t *testing.T) {
	tests := []struct {
		nodeID, path, classname, name string
	}{
		{"tests/test_x.py::test_a", "tests/test_x.py", "tests.test_x", "test_a"},
		{"test_x.py::test_a", "test_x.py", "test_x", "test_a"},
		{"tests/test_x.py::TestK::test_m", "tests/test_x.py", "tests.test_x.TestK", "test_m"},
		{"tests/test_x.py::TestK::TestInner::test_n", "tests/test_x.py", "tests.test_x.TestK.TestInner", "test_n"},
		{"tests/test_x.py::test_add[1-2]", "tests/test_x.py", "tests.test_x", "test_add[1-2]"},
		// Everything from the first "[" on stays in the name, "::" and "/"
		// included.
		{"tests/test_x.py::test_add[x::y-a/b.c]", "tests/test_x.py", "tests.test_x", "test_add[x::y-a/b.c]"},
		{"tests/test_x.py::TestK::test_m[a[b]]", "tests/test_x.py", "tests.test_x.TestK", "test_m[a[b]]"},
		{`tests/test_x.py::test_add[\xe9-[]`, "tests/test_x.py", "tests.test_x", `test_add[\xe9-[]`},
		// Dots in directories become indistinguishable from "/".
		{"tests/sub.dir/test_y.py::test_dot", "tests/sub.dir/test_y.py", "tests.sub.dir.test_y", "test_dot"},
		// Only a final ".py" goes.
		{"tests/test.py.d/test_y.py::t", "tests/test.py.d/test_y.py", "tests.test.py.d.test_y", "t"},
		{"tests/spec.yaml::item", "tests/spec.yaml", "tests.spec.yaml", "item"},
		// bin_xml_escape: control characters, DEL, beyond U+FFFF.
		{"t.py::f[a\x07b]", "t.py", "t", "f[a#x07b]"},
		{"t.py::f[\x7f]", "t.py", "t", "f[#x7F]"},
		{"t.py::f[\U0001F600]", "t.py", "t", "f[#x1F600]"},
		{"t.py::f[é\uFFFD\tx]", "t.py", "t", "f[é\uFFFD\tx]"},
	}
	for _, tt := range tests {
		path, classname, name, err := pytestAddress(tt.nodeID)
		if err != nil || path != tt.path || classname != tt.classname || name != tt.name {
			t.Errorf("pytestAddress(%q) = %q, %q, %q, %v; want %q, %q, %q", tt.nodeID, path, classname, name, err, tt.path, tt.classname, tt.name)
		}
	}
}

func TestPytestAddressRefusals(t *testing.T) {
	for _, id := range []string{
		"", "tests/test_x.py", "tests/test_x.py[1]", "tests/dir[1]/test_x.py::test_a",
		"::test_a", "/abs/test_x.py::test_a", "./tests/test_x.py::test_a", "tests/../test_x.py::test_a",
		"tests//test_x.py::test_a", "tests/test_x.py::", "tests/test_x.py::::test_a", "tests/test_x.py::TestK::",
	} {
		_, err := Match(&Report{}, id)
		if !errors.Is(err, ErrNodeID) || strings.ContainsAny(err.Error(), "\n") {
			t.Errorf("Match(%q) = %v, want ErrNodeID", id, err)
		}
		if _, ok := Find(&Report{}, id); ok {
			t.Errorf("Find(%q) found something in an empty report", id)
		}
	}
}

func TestNodeID(t *testing.T) {
	tests := []struct {
		c    Case
		want string
	}{
		{Case{Classname: "tests.test_x", Name: "test_a"}, "tests/test_x.py::test_a"},
		{Case{Classname: "test_x", Name: "test_a"}, "test_x.py::test_a"},
		{Case{Classname: "tests.test_x.TestK", Name: "test_m"}, "tests/test_x.py::TestK::test_m"},
		{Case{Classname: "tests.test_x.TestK.TestInner", Name: "test_n[1]"}, "tests/test_x.py::TestK::TestInner::test_n[1]"},
		{Case{Classname: "tests.test_x", Name: "test_add[x::y-a/b.c]"}, "tests/test_x.py::test_add[x::y-a/b.c]"},
		// A directory named like a class stays a directory when a module
		// follows it.
		{Case{Classname: "TestData.test_x.TestK", Name: "t"}, "TestData/test_x.py::TestK::t"},
		// A module alone is never taken for a class.
		{Case{Classname: "TestModule", Name: "t"}, "TestModule.py::t"},
		// The documented ambiguity: a dot in a directory name reads as "/".
		{Case{Classname: "tests.sub.dir.test_y", Name: "test_dot"}, "tests/sub/dir/test_y.py::test_dot"},
		// With the file (xunit1), exact.
		{Case{Classname: "tests.sub.dir.test_y", Name: "test_dot", File: "tests/sub.dir/test_y.py"}, "tests/sub.dir/test_y.py::test_dot"},
		{Case{Classname: "tests.sub.dir.test_y.TestK", Name: "t", File: "tests/sub.dir/test_y.py"}, "tests/sub.dir/test_y.py::TestK::t"},
		// A file that does not account for the classname (an inherited
		// test) is not used.
		{Case{Classname: "tests.test_x.TestK", Name: "t", File: "tests/base.py"}, "tests/test_x.py::TestK::t"},
		// Collection errors.
		{Case{Classname: "", Name: "tests.test_broken", File: "tests/test_broken.py"}, "tests/test_broken.py"},
		{Case{Classname: "", Name: "tests.test_broken"}, "tests/test_broken.py"},
	}
	for _, tt := range tests {
		if got := NodeID(tt.c); got != tt.want {
			t.Errorf("NodeID(%+v) = %q, want %q", tt.c, got, tt.want)
		}
	}
}

func TestMatch(t *testing.T) {
	r := &Report{Cases: []Case{
		{Classname: "tests.test_x", Name: "test_a", Status: StatusPassed},
		{Classname: "tests.test_x.TestK", Name: "test_m[1-2]", Status: StatusFailed},
		// The same dotted name from two paths, without files: ambiguous.
		{Classname: "tests.sub.dir.test_y", Name: "test_dot", Status: StatusPassed},
		{Classname: "tests.sub.dir.test_y", Name: "test_dot", Status: StatusFailed},
		// ... and with files (xunit1): each is found.
		{Classname: "pkg.a.b.test_z", Name: "t", File: "pkg/a.b/test_z.py", Status: StatusPassed},
		{Classname: "pkg.a.b.test_z", Name: "t", File: "pkg/a/b/test_z.py", Status: StatusFailed},
		// A test inherited from a base class in another module.
		{Classname: "tests.test_w.TestW", Name: "test_base", File: "tests/base.py", Status: StatusSkipped},
		// The other path's test only, with a file.
		{Classname: "lib.x.test_v", Name: "t", File: "lib/x/test_v.py", Status: StatusPassed},
		// Escaped by pytest.
		{Classname: "t", Name: "f[a#x07b]", Status: StatusPassed},
	}}
	tests := []struct {
		nodeID string
		want   Status
		err    error
	}{
		{"tests/test_x.py::test_a", StatusPassed, nil},
		{"tests/test_x.py::TestK::test_m[1-2]", StatusFailed, nil},
		{"tests/test_x.py::test_m[1-2]", 0, ErrNotFound},
		{"tests/test_x.py::TestK::test_m", 0, ErrNotFound},
		{"tests/test_x.py::TestK::test_m[1-3]", 0, ErrNotFound},
		{"tests/test_x.py::test_b", 0, ErrNotFound},
		{"tests/sub.dir/test_y.py::test_dot", 0, ErrAmbiguous},
		{"tests/sub/dir/test_y.py::test_dot", 0, ErrAmbiguous},
		{"pkg/a.b/test_z.py::t", StatusPassed, nil},
		{"pkg/a/b/test_z.py::t", StatusFailed, nil},
		{"pkg/a/b.test_z.py::t", 0, ErrNotFound},
		{"tests/test_w.py::TestW::test_base", StatusSkipped, nil},
		{"lib/x/test_v.py::t", StatusPassed, nil},
		{"lib/x.test_v.py::t", 0, ErrNotFound},
		{"t.py::f[a\x07b]", StatusPassed, nil},
		{"t.py::f[a#x07b]", StatusPassed, nil}, // the escape is not reversible
	}
	for _, tt := range tests {
		c, err := Match(r, tt.nodeID)
		switch {
		case tt.err != nil:
			if !errors.Is(err, tt.err) {
				t.Errorf("Match(%q) = %+v, %v; want %v", tt.nodeID, c, err, tt.err)
			}
			if _, ok := Find(r, tt.nodeID); ok {
				t.Errorf("Find(%q) found a case", tt.nodeID)
			}
		case err != nil || c.Status != tt.want:
			t.Errorf("Match(%q) = %+v, %v; want status %v", tt.nodeID, c, err, tt.want)
		default:
			if f, ok := Find(r, tt.nodeID); !ok || f != c {
				t.Errorf("Find(%q) = %+v, %v", tt.nodeID, f, ok)
			}
		}
	}
}

// TestMatchRoundTrip: for node ids without the documented ambiguities,
// NodeID inverts what pytest writes and Match finds the case.
func TestMatchRoundTrip(t *testing.T) {
	ids := []string{
		"test_top.py::test_a",
		"tests/test_x.py::test_a",
		"tests/unit/test_x.py::TestK::test_m",
		"tests/unit/test_x.py::TestK::TestInner::test_n[1-2]",
		"tests/test_x.py::test_add[x::y-a/b.c]",
		"tests/Test_dir/test_x.py::Test_k::test_m",
	}
	var r Report
	for _, id := range ids {
		_, classname, name, err := pytestAddress(id)
		if err != nil {
			t.Fatal(err)
		}
		r.Cases = append(r.Cases, Case{Classname: classname, Name: name, Status: StatusPassed})
	}
	for i, id := range ids {
		if got := NodeID(r.Cases[i]); got != id {
			t.Errorf("NodeID = %q, want %q", got, id)
		}
		if c, ok := Find(&r, id); !ok || c != r.Cases[i] {
			t.Errorf("Find(%q) = %+v, %v", id, c, ok)
		}
	}
}
