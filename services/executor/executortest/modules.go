package executortest

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sealgate/sealgate/demo"
)

// UUIDModule is the dependency of ModuleRepo's repository.
const UUIDModule = "github.com/google/uuid"

// UUIDSums returns go.sum's lines for UUIDModule v1.6.0, from the module
// proxy; it skips t when the proxy is not reachable.
func UUIDSums(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", UUIDModule+"@v1.6.0").Output()
	if err != nil {
		t.Skipf("the module proxy is not reachable: %v", err)
	}
	var m struct{ Sum, GoModSum string }
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatal(err)
	}
	return UUIDModule + " v1.6.0 " + m.Sum + "\n" + UUIDModule + " v1.6.0/go.mod " + m.GoModSum + "\n"
}

// ModuleRepo builds the demo repository with a baseline that requires
// UUIDModule v1.6.0, with go.sum as given, and TestID in ./calc using it,
// and a patch that changes a comment of the code: the repository, the
// baseline and the patch commits.
func ModuleRepo(t testing.TB, gosum string) (repo *demo.Repo, base, patch string) {
	t.Helper()
	ctx := context.Background()
	repo, err := demo.Build(ctx, filepath.Join(t.TempDir(), "calc"))
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(repo.Dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	idGo := "package calc\n\nimport \"github.com/google/uuid\"\n\n// ID is a new identifier.\nfunc ID() string { return uuid.NewString() }\n"
	idTest := "package calc\n\nimport \"testing\"\n\nfunc TestID(t *testing.T) {\n\tif len(ID()) != 36 {\n\t\tt.Fatal(ID())\n\t}\n}\n"
	base, err = repo.Commit(ctx, repo.Base, "deps", "a dependency", map[string]string{
		"go.mod": string(gomod) + "\nrequire " + UUIDModule + " v1.6.0\n", "go.sum": gosum,
		"calc/id.go": idGo, "calc/id_test.go": idTest,
	})
	if err != nil {
		t.Fatal(err)
	}
	patch, err = repo.Commit(ctx, base, "deps-patch", "a change", map[string]string{
		"calc/id.go": strings.Replace(idGo, "a new identifier", "a new random identifier", 1),
	})
	if err != nil {
		t.Fatal(err)
	}
	return repo, base, patch
}
