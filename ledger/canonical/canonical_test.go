package canonical

import (
	"encoding/json"
	"testing"
)

func TestTransform(t *testing.T) {
	cases := []struct{ in, want string }{
		// Keys sorted by UTF-16 code units, whitespace removed.
		{`{"b":1, "a":[true,false,null], "c":{"z":"x","y":1.5}}`, `{"a":[true,false,null],"b":1,"c":{"y":1.5,"z":"x"}}`},
		// RFC 8785 §3.2.3 sorting example (keys with non-ASCII and surrogates).
		{`{"\u20ac":"Euro Sign","\r":"Carriage Return","\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\ud83d\ude00":"Emoji: Grinning Face","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis"}`,
			"{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\",\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\",\"\U0001F600\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}"},
		// Only the required escapes; no HTML escaping.
		{`"<a href=\"x\">&\u2028\u0001"`, "\"<a href=\\\"x\\\">&\u2028\\u0001\""},
		// ECMAScript number forms.
		{`[1e21, 1e-7, 0.000001, 100, -0.5, 1E2]`, `[1e+21,1e-7,0.000001,100,-0.5,100]`},
	}
	for _, tc := range cases {
		got, err := Transform([]byte(tc.in))
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if string(got) != tc.want {
			t.Errorf("Transform(%s)\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

func TestRefusesWhatIsNotExact(t *testing.T) {
	for _, in := range []string{`9007199254740993`, `{"a":1} {"b":2}`, `{"a":`, "\"\xff\""} {
		if _, err := Transform([]byte(in)); err == nil {
			t.Errorf("Transform(%q) succeeded", in)
		}
	}
}

func FuzzTransform(f *testing.F) {
	f.Add([]byte(`{"b":[1,2.5,"x"],"a":null}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := Transform(in)
		if err != nil {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("canonical form %q is not JSON", out)
		}
		again, err := Transform(out)
		if err != nil || string(again) != string(out) {
			t.Fatalf("canonical form is not a fixed point: %q → %q (%v)", out, again, err)
		}
	})
}
