package main

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// TestWriteArchive writes one image under two tags, given in either
// order, many times: the bytes must never change (tarball.MultiRefWrite,
// which the build used before, listed the tags in map order and failed
// this). The tarball must load back under each tag as the same image, a
// layer the image holds twice stored once.
func TestWriteArchive(t *testing.T) {
	img, err := random.Image(2048, 2)
	if err != nil {
		t.Fatal(err)
	}
	ls, err := img.Layers()
	if err != nil {
		t.Fatal(err)
	}
	if img, err = mutate.AppendLayers(img, ls[0]); err != nil {
		t.Fatal(err)
	}
	want, err := img.Digest()
	if err != nil {
		t.Fatal(err)
	}
	var tags []name.Tag
	for _, s := range []string{"sealgate:dev", "sealgate:0123456789ab"} {
		tag, err := name.NewTag(s, name.WeakValidation)
		if err != nil {
			t.Fatal(err)
		}
		tags = append(tags, tag)
	}
	dir := t.TempDir()
	var first []byte
	for i := range 20 {
		p := filepath.Join(dir, "image.tar")
		order := tags
		if i%2 == 1 {
			order = []name.Tag{tags[1], tags[0]}
		}
		if err := writeArchive(p, img, order); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = b
		} else if !bytes.Equal(first, b) {
			t.Fatalf("write %d gave other bytes than the first", i)
		}
	}
	p := filepath.Join(dir, "image.tar")
	// What docker load reads: one manifest entry, both tags in order, the
	// repeated layer named twice and stored once.
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	files := map[string][]byte{}
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !h.ModTime.IsZero() && h.ModTime.Unix() != 0 || h.Uid != 0 || h.Uname != "" {
			t.Errorf("%s: header carries a time or an owner: %+v", h.Name, h)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if _, dup := files[h.Name]; dup {
			t.Errorf("%s stored twice", h.Name)
		}
		files[h.Name] = b
	}
	var m tarball.Manifest
	if err := json.Unmarshal(files["manifest.json"], &m); err != nil {
		t.Fatal(err)
	}
	if len(m) != 1 || !slices.Equal(m[0].RepoTags, []string{"sealgate:0123456789ab", "sealgate:dev"}) || len(m[0].Layers) != 3 || m[0].Layers[0] != m[0].Layers[2] {
		t.Errorf("manifest %+v", m)
	}
	if len(files) != 4 {
		t.Errorf("%d files in the tarball, want config, 2 layers, manifest", len(files))
	}
	for _, tag := range tags {
		got, err := tarball.ImageFromPath(p, &tag)
		if err != nil {
			t.Fatalf("load %s: %v", tag, err)
		}
		d, err := got.Digest()
		if err != nil || d != want {
			t.Fatalf("load %s: digest %s (%v), want %s", tag, d, err, want)
		}
	}
	if err := writeArchive(p, img, nil); err == nil {
		t.Error("an archive without a tag was written")
	}
}
