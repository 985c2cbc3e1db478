package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Mirror returns the local git repository of repo ("owner/name") under
// dir, the first of these that is a directory: dir/owner__name,
// dir/owner__name.git, dir/owner/name, dir/owner/name.git (a work tree or a
// bare repository; SWE-bench's own harness names its repositories
// owner__name). Nothing is fetched: a repository that is not there is an
// error saying where it was looked for.
func Mirror(dir, repo string) (string, error) {
	if err := checkRepo(repo); err != nil {
		return "", err
	}
	owner, name, _ := strings.Cut(repo, "/")
	var tried []string
	for _, rel := range []string{owner + "__" + name, owner + "__" + name + ".git", filepath.Join(owner, name), filepath.Join(owner, name+".git")} {
		p := filepath.Join(dir, rel)
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return p, nil
		}
		tried = append(tried, rel)
	}
	return "", fmt.Errorf("no mirror of %s under %s (looked for %s)", repo, dir, strings.Join(tried, ", "))
}
