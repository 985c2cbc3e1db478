package realworld

// Fixes returns the corpus: real fixes of public Go modules, each between
// two consecutive released versions the Go module proxy serves, in a fixed
// order (by name, a fix of the same module by version).
//
// Every entry was checked against the upstream history: the diff from
// Before to After (over Paths, when set) is the linked commit's diff, plus
// only what About names (a test commit or a second change of the same
// release) and documentation. And by plain `go test` (`go run
// ./tools/corpus check`): each claim fails on the reintroduced tree
// (Before's code with After's test files) and passes on the fix, and the
// whole suite passes on the parent and on the fix.
func Fixes() []Fix {
	return []Fix{
		{
			Name:   "cast-time-numeric-tz",
			Module: "github.com/spf13/cast",
			Before: Version{"v1.4.0", "h1:WhlbjwB9EGCc8W5Rxdkus+wmH2ASRwwTJk6tgHKwdqQ="},
			After:  Version{"v1.4.1", "h1:s0hze+J0196ZfEMTs80N7UlFt0BDuQ7Q+JDnHiMWKdA="},
			Claims: []string{"go:.:TestToTime"},
			Commit: "https://github.com/spf13/cast/commit/88075729b052bca4b8b6c31bf198db2fe6c9da93",
			About:  `ToTime applies the numeric zone offset of "2006-01-02 15:04:05 -0700" layouts instead of treating them as named zones: the fix changes only rows of a package-level table; the test is rows added to an existing table (go.mod has no go line and requires testify)`,
		},
		{
			Name:   "gjson-unwrap-panic",
			Module: "github.com/tidwall/gjson",
			Before: Version{"v1.6.5", "h1:P/K9r+1pt9AK54uap7HcoIp6T3a7AoMg3v18tUis+Cg="},
			After:  Version{"v1.6.6", "h1:Gh0D/kZV+L9rcuE2hE8Hn2dTYe2L6j6SKwcPlKpXAcs="},
			Claims: []string{"go:.:TestIssue196"},
			Commit: "https://github.com/tidwall/gjson/commit/bf4efcb3c18d1825b2988603dea5909140a5302b",
			About:  "unwrap's missing parentheses let Get panic with a slice out of range on a malformed path (#196); the test panics on the old code",
		},
		{
			Name:   "gjson-empty-string-query",
			Module: "github.com/tidwall/gjson",
			Before: Version{"v1.10.1", "h1:Midn39zaqkz9SPTBDuEe0RdW9T4T+MpBOAC10e9/qFE="},
			After:  Version{"v1.10.2", "h1:APbLGOM0rrEkd8WBw9C24nllro4ajFuJu0Sc9hRz8Bo="},
			Claims: []string{"go:.:TestEmptyValueQuery"},
			Commit: "https://github.com/tidwall/gjson/commit/0b52f9a3618fb33e3cde84f9db7b73e324dff643",
			About:  `a query comparing with the empty string, #(!="")#, matches: one off-by-one in the quoted-value check (#246)`,
			// Its suite takes about 9 s a run, and gjson-unwrap-panic
			// covers the same module, its dependencies and its go 1.12.
			Measured: "the corpus's slowest fix (112 s of CI's time), the same module as gjson-unwrap-panic",
		},
		{
			Name:   "goversion-equal-nil",
			Module: "github.com/hashicorp/go-version",
			Before: Version{"v1.2.0", "h1:3vNe/fWF5CBgRIguda1meWhsZHy3m8gCJ5wx+dIzX/E="},
			After:  Version{"v1.2.1", "h1:zEfKbn2+PDgroKdiOzqiE8rsmLqU2uwi5PB5pBJ3TkI="},
			Paths:  []string{"version.go", "version_test.go"},
			Claims: []string{"go:.:TestVersionEqual_nil"},
			Commit: "https://github.com/hashicorp/go-version/commit/a6043353333f90fd8ca9e55dd006201a25d5aedb",
			About:  "Version.Equal with a nil side answers instead of panicking with a nil dereference; the release also corrects two doc comments of version.go",
		},
		{
			Name:   "jsonparser-malformed-index",
			Module: "github.com/buger/jsonparser",
			Before: Version{"v1.1.0", "h1:EPAGdKZgZCON4ZcMD+h4l/NN4ndr6ijSpj4INh8PbUY="},
			After:  Version{"v1.1.1", "h1:2PnMjfWD7wBILjqQbt530v576A/cAbQvEW9gGIpYMUs="},
			Claims: []string{"go:.:TestGetString"},
			Commit: "https://github.com/buger/jsonparser/commit/df3ea76ece10095374fd1c9a22a4fb85a44efc42",
			About:  `a malformed array index in a path ("[" or "[]") is not found instead of a slice-bounds panic (CVE-2020-35381, #221); the test is rows added to a package-level table the unchanged TestGetString ranges over`,
		},
		{
			Name:   "jwt-v4-signature-first",
			Module: "github.com/golang-jwt/jwt/v4",
			Before: Version{"v4.5.0", "h1:7cYmW1XlMY7h7ii7UhUyChSgS5wUJEnm9uZVTGqOWzg="},
			After:  Version{"v4.5.1", "h1:JdqV9zKUdtaa9gdPlywC3aeoEsR681PlKC+4F5gQgeo="},
			Claims: []string{"go:.:TestParser_Parse"},
			Commit: "https://github.com/golang-jwt/jwt/commit/7b1c1c00a171c6c79bbdb40e4ce7d197060c1c2c",
			About:  "ParseWithClaims verifies the signature before the claims, so an expired token with a bad signature reports the signature error (GHSA-29wx-vh33-7x7r): the end of the function rewritten; the test is a row of constants added to a package-level table of an external test package whose other rows call time.Now",
		},
		{
			Name:   "lru-simplelru-evict-same-key",
			Module: "github.com/hashicorp/golang-lru/v2",
			Before: Version{"v2.0.5", "h1:wW7h1TG88eUIJ2i69gaE3uNVtEPIagzhGvHgwfx2Vm4="},
			After:  Version{"v2.0.6", "h1:3xi/Cafd1NaoEnS/yDssIiuVeDVywU0QdFGl3aQaQHM="},
			Paths:  []string{"simplelru/lru.go", "simplelru/lru_test.go"},
			Claims: []string{"go:./simplelru:TestCache_EvictionSameKey"},
			Commit: "https://github.com/hashicorp/golang-lru/commit/0ed35fdcd45f53f54749528e31ab9acee63ce1ff",
			About:  "Add of an existing key no longer calls the eviction callback: the fix only deletes three lines (a revert of #135); the test came in 8f8764f of the same release, in the simplelru subpackage, whose test file declares an unexported helper method on the package's type",
		},
		{
			Name:   "mapstructure-json-number-uint64",
			Module: "github.com/mitchellh/mapstructure",
			Before: Version{"v1.4.2", "h1:6h7AQ0yhTcIsmFmnAwQls75jp2Gzs4iB8W7pjMO+rqo="},
			After:  Version{"v1.4.3", "h1:OVowDSCllw/YjdLkam3/sm7wEtOy59d8ndGgCcyj8cs="},
			Paths:  []string{"mapstructure.go", "mapstructure_test.go"},
			Claims: []string{"go:.:TestBasicTypes"},
			Commit: "https://github.com/mitchellh/mapstructure/commit/8b0346e1f77b976ec736ca85935276a49b9d630e",
			About:  "a json.Number above MaxInt64 decodes into a uint64 field (#261, with its test fix ea0720b); the test adds a field to a struct type of the test file and checks it in an existing test",
		},
		{
			Name:   "multierror-wrapped-nil",
			Module: "github.com/hashicorp/go-multierror",
			Before: Version{"v1.1.0", "h1:B9UzwGQJehnUY1yNrnwREHc3fGbC2xefo8g4TbElacI="},
			After:  Version{"v1.1.1", "h1:H5DkEtf6CXdFp0N0Em5UCwQpXMWke8IA0+lD48awMYo="},
			Paths:  []string{"multierror.go", "multierror_test.go"},
			Claims: []string{"go:.:TestErrorWrappedErrors"},
			Commit: "https://github.com/hashicorp/go-multierror/commit/0023bb0ab1225a10509dca08627b42bed25d74a5",
			About:  "WrappedErrors on a nil *Error returns nil instead of panicking; the test is lines added to an existing test; four mutants, every one killed; needs hashicorp/errwrap",
		},
		{
			Name:   "mux-cors-subrouter",
			Module: "github.com/gorilla/mux",
			Before: Version{"v1.7.3", "h1:gnP5JzjVOuiZD07fKKToCAOjS0yOpj/qPETTXCCS6hw="},
			After:  Version{"v1.7.4", "h1:VuZ8uybHlWmqV03+zRzdwKL4tUnIp1MAQtp1mIFE1bc="},
			Paths:  []string{"middleware.go", "middleware_test.go"},
			Claims: []string{"go:.:TestCORSMethodMiddlewareSubrouter"},
			Commit: "https://github.com/gorilla/mux/commit/946b6237eb8d0ce3225f502b7fd4208d0b60ce5f",
			About:  "CORSMethodMiddleware on a subrouter lists the methods of the route that matches, not of every route with a matching path regexp (#534)",
		},
		{
			Name:   "pflag-zero-time-default",
			Module: "github.com/spf13/pflag",
			Before: Version{"v1.0.7", "h1:vN6T9TfwStFPFM5XzjsvmzZkLuaLX+HS+0SeFLRgU6M="},
			After:  Version{"v1.0.8", "h1:/v546uKZ4gFGHpyXvV6CNKDeJBu4l5PRvxwQvdWrc0I="},
			Paths:  []string{"time.go", "time_test.go"},
			Claims: []string{"go:.:TestTimeDefaultZero"},
			Commit: "https://github.com/spf13/pflag/commit/1b52f7648f880d6ef6aaa19e45b102edadd6c50a",
			About:  "a time.Time flag whose default is the zero time prints no default in the usage line; the fix also changes a test helper the old tests use",
		},
		{
			Name:   "pretty-nan-inf",
			Module: "github.com/tidwall/pretty",
			Before: Version{"v1.1.1", "h1:nt6/Ot5LtZnJCWwEFlelOixPo0xhPFsuZlKyOL3Xfnc="},
			After:  Version{"v1.2.0", "h1:RWIZEg2iJ8/g6fDDYzMpobmaoGh5OLl4AXtGUGPcqCs="},
			Claims: []string{"go:.:TestNaN"},
			Commit: "https://github.com/tidwall/pretty/commit/aaa765e7476acb0028a854b85675801362cbdaa2",
			About:  "Pretty and Ugly keep NaN and Inf number literals instead of mangling them (#12)",
		},
		{
			Name:   "semver-caret-zero",
			Module: "github.com/Masterminds/semver/v3",
			Before: Version{"v3.0.1", "h1:2kKm5lb7dKVrt5TYUiAavE6oFc1cFT0057UVGT+JqLk="},
			After:  Version{"v3.0.2", "h1:tRi7ENs+AaOUCH+j6qwNQgPYfV26dX3JNonq+V4mhqc="},
			Claims: []string{"go:.:TestConstraintCheck"},
			Commit: "https://github.com/Masterminds/semver/commit/1b4e5a26d9da25a8c2a5fd1846817c62092f8646",
			About:  "the constraint ^0.0 no longer admits 1.x versions (#134); the test is one row added to an existing table-driven test",
		},
		{
			Name:   "semver-less-equal",
			Module: "github.com/Masterminds/semver/v3",
			Before: Version{"v3.0.2", "h1:tRi7ENs+AaOUCH+j6qwNQgPYfV26dX3JNonq+V4mhqc="},
			After:  Version{"v3.0.3", "h1:znjIyLfpXEDQjOIEWh+ehwpTU14UzUPub3c3sm36u14="},
			Paths:  []string{"constraints.go", "constraints_test.go"},
			Claims: []string{"go:.:TestConstraintsCheck"},
			Commit: "https://github.com/Masterminds/semver/commit/f1b17e8202e84e45fcb8cf0b68b49acb2bd7cb16",
			About:  "<=4.5 admits 3.7.0: a larger minor version only exceeds the constraint within the same major (#141); the test is rows added to an existing table",
		},
		{
			Name:   "toml-meta-keys-inline",
			Module: "github.com/BurntSushi/toml",
			Before: Version{"v1.3.0", "h1:Ws8e5YmnrGEHzZEzg0YvK/7COGYtTC5PbaH9oSSbgfA="},
			After:  Version{"v1.3.1", "h1:rHnDkSK+/g6DlREUK73PkmIs60pqrnuduK+JmP++JmU="},
			Claims: []string{"go:.:TestMetaKeys"},
			Commit: "https://github.com/BurntSushi/toml/commit/60801d0059e5ac0eb04c240af09d742f32c11ccc",
			About:  "MetaData.Keys lists an inline table before its keys; the release also reads BURNTSUSHI_TOML_110 in the parser instead of at init (#394, with its test helper changed), drops a stray comment in Encode and fixes a benchmark",
		},
		{
			Name:   "uuid-v7-monotonic",
			Module: "github.com/google/uuid",
			Before: Version{"v1.5.0", "h1:1p67kYwdtXjb0gL0BPiP1Av9wiZPo5A8z2cWkTZ+eyU="},
			After:  Version{"v1.6.0", "h1:NIvaJDMOsjHA8n1jAhLSgzrAzy1Hgr+hNrb57e+94F0="},
			Paths:  []string{"uuid_test.go", "version7.go"},
			Claims: []string{"go:.:TestVersion7MonotonicityStrict"},
			Commit: "https://github.com/google/uuid/commit/a2b2b32373ff0b1a312b7fdf6d38a977099698a6",
			About:  "NewV7 is strictly monotonic within one millisecond: 12 bits of sub-millisecond sequence (#150; the strict test came with #154 in the same release, with a doc typo fix)",
		},
	}
}
