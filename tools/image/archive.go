package main

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// writeArchive writes img as a `docker load` tarball named by tags. It is
// the format tarball.MultiRefWrite writes — the config, each layer once as
// HEX.tar.gz, then manifest.json — but with the tags in sorted order: that
// function lists one image's tags in map order, so two builds of the same
// image gave tarballs that differed in manifest.json.
func writeArchive(p string, img v1.Image, tags []name.Tag) (err error) {
	if len(tags) == 0 {
		return fmt.Errorf("archive %s: no tag", p)
	}
	repoTags := make([]string, 0, len(tags))
	for _, t := range tags {
		repoTags = append(repoTags, t.String())
	}
	slices.Sort(repoTags)
	repoTags = slices.Compact(repoTags)

	cfgName, err := img.ConfigName()
	if err != nil {
		return err
	}
	cfg, err := img.RawConfigFile()
	if err != nil {
		return err
	}
	layers, err := img.Layers()
	if err != nil {
		return err
	}
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	tw := tar.NewWriter(f)
	if err := writeArchiveEntry(tw, cfgName.String(), bytes.NewReader(cfg), int64(len(cfg))); err != nil {
		return err
	}
	desc := tarball.Descriptor{Config: cfgName.String(), RepoTags: repoTags}
	seen := map[v1.Hash]bool{}
	for _, l := range layers {
		d, err := l.Digest()
		if err != nil {
			return err
		}
		file := d.Hex + ".tar.gz"
		desc.Layers = append(desc.Layers, file)
		if seen[d] {
			continue
		}
		seen[d] = true
		size, err := l.Size()
		if err != nil {
			return err
		}
		rc, err := l.Compressed()
		if err != nil {
			return err
		}
		err = writeArchiveEntry(tw, file, rc, size)
		if cerr := rc.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("layer %s: %w", d, err)
		}
	}
	m, err := json.Marshal(tarball.Manifest{desc})
	if err != nil {
		return err
	}
	if err := writeArchiveEntry(tw, "manifest.json", bytes.NewReader(m), int64(len(m))); err != nil {
		return err
	}
	return tw.Close()
}

// writeArchiveEntry writes one regular file with nothing in its header
// but its name, size and mode: no time, no owner.
func writeArchiveEntry(tw *tar.Writer, file string, r io.Reader, size int64) error {
	if err := tw.WriteHeader(&tar.Header{Name: file, Size: size, Typeflag: tar.TypeReg, Mode: 0o644}); err != nil {
		return err
	}
	n, err := io.Copy(tw, r)
	if err != nil {
		return err
	}
	if n != size {
		return fmt.Errorf("%s: wrote %d bytes, want %d", file, n, size)
	}
	return nil
}
