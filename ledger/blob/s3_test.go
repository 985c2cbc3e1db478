package blob

import (
	"context"
	"errors"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// TestS3Bucket talks the S3 protocol over loopback to an in-process S3
// server, through the same s3:// URL a deployment would use.
func TestS3Bucket(t *testing.T) {
	backend := s3mem.New()
	if err := backend.CreateBucket("sealgate-blobs"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	defer srv.Close()
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")

	q := url.Values{"region": {"us-east-1"}, "endpoint": {srv.URL}, "use_path_style": {"true"}, "disable_https": {"true"}}
	ctx := context.Background()
	s, err := Open(ctx, "s3://sealgate-blobs?"+q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	data := []byte("mutation report")
	d, err := s.Put(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, d)
	if err != nil || string(got) != string(data) {
		t.Fatalf("get: %q %v", got, err)
	}
	// What the server holds is what was put, under its digest.
	obj, err := backend.GetObject("sealgate-blobs", keyPrefix+d, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer obj.Contents.Close()
	if _, err := s.Get(ctx, Digest([]byte("absent"))); !errors.Is(err, ErrNotFound) {
		t.Fatalf("absent blob: %v, want ErrNotFound", err)
	}
}
