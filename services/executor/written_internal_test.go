package executor

import (
	"reflect"
	"testing"
)

// TestVetImporters: the packages vetted are the changed ones and every
// package of the module that imports one through non-test imports; a
// package whose tests import one is vetted and ends the chain.
func TestVetImporters(t *testing.T) {
	v := view{root: "/src"}
	pkgs := []goPackage{
		{ImportPath: "m", Dir: "/src", Imports: []string{"fmt"}},
		{ImportPath: "m/logx", Dir: "/src/logx", Imports: []string{"fmt"}},
		{ImportPath: "m/report", Dir: "/src/report", Imports: []string{"m/logx"}},
		{ImportPath: "m/cmd/tool", Dir: "/src/cmd/tool", Imports: []string{"m/report"}},
		{ImportPath: "m/testonly", Dir: "/src/testonly", TestImports: []string{"m/report"}},
		{ImportPath: "m/usestestonly", Dir: "/src/usestestonly", Imports: []string{"m/testonly"}},
		{ImportPath: "m/xtest", Dir: "/src/xtest", XTestImports: []string{"m/logx"}},
		{ImportPath: "m/xtest_test", Dir: "/src/xtest", Imports: []string{"m/logx"}},
		{ImportPath: "m/other", Dir: "/src/other", Imports: []string{"m"}},
		{ImportPath: "elsewhere", Dir: "/elsewhere", Imports: []string{"m/logx"}},
	}
	rels, ips := vetImporters(v, ".", []string{"./logx"}, pkgs)
	if want := []string{"./cmd/tool", "./logx", "./report", "./testonly", "./xtest"}; !reflect.DeepEqual(rels, want) {
		t.Fatalf("vetted %q, want %q", rels, want)
	}
	if ips["./report"] != "m/report" || ips["."] != "m" {
		t.Fatalf("import paths %q", ips)
	}
	// A changed package go list did not list (its files all excluded) is
	// vetted still: vet says what is wrong with it.
	if rels, _ := vetImporters(v, ".", []string{"./gone"}, pkgs); !reflect.DeepEqual(rels, []string{"./gone"}) {
		t.Fatalf("vetted %q, want ./gone alone", rels)
	}
}
