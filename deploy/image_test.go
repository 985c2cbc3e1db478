package deploy

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// imageSource is the program that builds the sealgate image
// (tools/image): the manifests run the name and tag it gives the image.
const imageSource = "../tools/image/build.go"

// TestManifestsRunTheBuiltImage checks that the base's images: entry is
// the image `go run ./tools/image` builds and tags — its repository
// constant and its --tag default — with no registry in front, so an
// image loaded into a cluster's runtime (kind load image-archive, k3s ctr
// images import) is the one the pods run; and that no container of the
// rendered manifests would pull it (imagePullPolicy Always, or a :latest
// tag, whose default policy is Always): a loaded image is in no registry.
// Under Bazel, where tools/image is not among the test's data, the
// comparison with the source skips.
func TestManifestsRunTheBuiltImage(t *testing.T) {
	renders, mem := renderAll(t)
	k, err := readKustomization(mem, "base")
	if err != nil {
		t.Fatal(err)
	}
	if len(k.Images) != 1 {
		t.Fatalf("base: want one images: entry, have %+v", k.Images)
	}
	img := k.Images[0]
	for dir, o := range renders {
		for _, d := range sealgateDeployments(&problems{}, o) {
			for _, c := range d.Spec.Template.Spec.Containers {
				if msg := pulls(c); msg != "" {
					t.Errorf("%s: %s: %s", dir, d.Name, msg)
				}
			}
		}
	}

	src, err := os.ReadFile(imageSource)
	if err != nil {
		if os.Getenv("TEST_SRCDIR") != "" {
			t.Skipf("%s is not in this test's runfiles: %v", imageSource, err)
		}
		t.Fatal(err)
	}
	repo, tag, err := builtImage(src)
	if err != nil {
		t.Fatal(err)
	}
	if img.Name != repo || img.NewName != "" && img.NewName != repo || img.NewTag != tag || img.Digest != "" {
		t.Errorf("base runs %+v; tools/image builds %s:%s", img, repo, tag)
	}
}

// pulls says why a container would pull its image from a registry, or "".
func pulls(c corev1.Container) string {
	if c.ImagePullPolicy == corev1.PullAlways {
		return "imagePullPolicy Always: a loaded image is in no registry"
	}
	if c.ImagePullPolicy == "" && (c.Image == "sealgate" || c.Image == "sealgate:latest") {
		return "image " + c.Image + ": a :latest tag is pulled every time (tag the image)"
	}
	return ""
}

// builtImage reads, from tools/image's source, the repository constant and
// the default of its --tag flag.
func builtImage(src []byte) (repo, tag string, err error) {
	file, err := parser.ParseFile(token.NewFileSet(), imageSource, src, 0)
	if err != nil {
		return "", "", err
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if id.Name == "repository" && i < len(n.Values) {
					repo, _ = stringLit(n.Values[i])
				}
			}
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if ok && sel.Sel.Name == "StringVar" && len(n.Args) >= 3 {
				if name, ok := stringLit(n.Args[1]); ok && name == "tag" {
					tag, _ = stringLit(n.Args[2])
				}
			}
		}
		return true
	})
	if repo == "" || tag == "" {
		return "", "", strconv.ErrSyntax
	}
	return repo, tag, nil
}
