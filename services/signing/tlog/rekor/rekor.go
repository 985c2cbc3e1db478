// Package rekor logs sealed verdicts to Sigstore Rekor v1 through its Go
// client, and checks Rekor's answers offline.
//
// An envelope signed with Ed25519 is logged as a `dsse` entry (Rekor's
// hashedrekord refuses plain Ed25519 over a digest); one signed with ECDSA
// P-256 as a `hashedrekord` entry over the SHA-256 of the envelope's DSSE
// pre-authentication encoding, which is exactly what its signature signs.
package rekor

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/go-openapi/strfmt"
	"github.com/secure-systems-lab/go-securesystemslib/dsse"
	rclient "github.com/sigstore/rekor/pkg/client"
	"github.com/sigstore/rekor/pkg/generated/client"
	"github.com/sigstore/rekor/pkg/generated/client/entries"
	"github.com/sigstore/rekor/pkg/generated/client/pubkey"
	"github.com/sigstore/rekor/pkg/generated/models"
	"github.com/sigstore/rekor/pkg/verify"
	"github.com/sigstore/sigstore/pkg/cryptoutils"
	"github.com/sigstore/sigstore/pkg/signature"

	"github.com/sealgate/sealgate/services/signing/tlog"
)

// Entry kinds.
const (
	KindDSSE         = "dsse"
	KindHashedRekord = "hashedrekord"
)

// Log is a Rekor v1 server.
type Log struct {
	url    string
	client *client.Rekor
}

// New connects to the Rekor server at url.
func New(url string) (*Log, error) {
	c, err := rclient.GetRekorClient(url, rclient.WithRetryCount(3), rclient.WithUserAgent("sealgate"))
	if err != nil {
		return nil, fmt.Errorf("rekor %s: %w", url, err)
	}
	return &Log{url: url, client: c}, nil
}

// Kind names the backend.
func (l *Log) Kind() string { return tlog.KindRekor }

// Close releases nothing: the client holds no connection open.
func (l *Log) Close() error { return nil }

// PublicKey fetches the log's public key (PEM). Trust it only as far as
// the channel it came over: pin it for offline checks.
func (l *Log) PublicKey(ctx context.Context) ([]byte, error) {
	//lint:ignore SA1019 the Rekor v1 client takes its context through the params; the e2e against a real rekor-server runs this path
	resp, err := l.client.Pubkey.GetPublicKey(pubkey.NewGetPublicKeyParamsWithContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("rekor %s: public key: %w", l.url, err)
	}
	return []byte(resp.Payload), nil
}

// Append uploads the envelope and returns the entry's inclusion proof.
func (l *Log) Append(ctx context.Context, s tlog.Submission) (*tlog.Proof, error) {
	entry, kind, err := proposed(s)
	if err != nil {
		return nil, err
	}
	//lint:ignore SA1019 the Rekor v1 client takes its context through the params; the e2e against a real rekor-server runs this path
	params := entries.NewCreateLogEntryParamsWithContext(ctx).WithProposedEntry(entry)
	resp, err := l.client.Entries.CreateLogEntry(params)
	if err != nil {
		return nil, fmt.Errorf("rekor %s: create %s entry: %w", l.url, kind, err)
	}
	uuid, e, err := only(resp.Payload)
	if err != nil {
		return nil, err
	}
	// Rekor answers once the entry is in the tree; should a proof be
	// missing, ask for the entry until it has one.
	for try := 0; e.Verification == nil || e.Verification.InclusionProof == nil; try++ {
		if try == 50 {
			return nil, fmt.Errorf("rekor %s: entry %s has no inclusion proof after 10s", l.url, uuid)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
		//lint:ignore SA1019 the Rekor v1 client takes its context through the params; the e2e against a real rekor-server runs this path
		got, err := l.client.Entries.GetLogEntryByUUID(entries.NewGetLogEntryByUUIDParamsWithContext(ctx).WithEntryUUID(uuid))
		if err != nil {
			return nil, fmt.Errorf("rekor %s: entry %s: %w", l.url, uuid, err)
		}
		if _, e, err = only(got.Payload); err != nil {
			return nil, err
		}
	}
	p, err := proof(uuid, kind, e)
	if err != nil {
		return nil, err
	}
	if err := tlog.VerifyInclusion(p); err != nil {
		return nil, fmt.Errorf("rekor %s: the proof it returned does not verify: %w", l.url, err)
	}
	if err := VerifyEntry(p, s.Envelope, s.PublicKeyPEM); err != nil {
		return nil, fmt.Errorf("rekor %s: the entry it logged is not our envelope: %w", l.url, err)
	}
	return p, nil
}

// proposed builds the entry to upload.
func proposed(s tlog.Submission) (models.ProposedEntry, string, error) {
	pub, err := cryptoutils.UnmarshalPEMToPublicKey(s.PublicKeyPEM)
	if err != nil {
		return nil, "", fmt.Errorf("rekor: verdict public key: %w", err)
	}
	if len(s.Envelope.Signatures) != 1 {
		return nil, "", fmt.Errorf("rekor: the envelope has %d signatures, want 1", len(s.Envelope.Signatures))
	}
	version := "0.0.1"
	if isEd25519(pub) {
		env, err := json.Marshal(s.Envelope)
		if err != nil {
			return nil, "", err
		}
		envs := string(env)
		return &models.DSSE{APIVersion: &version, Spec: &models.DSSEV001Schema{
			ProposedContent: &models.DSSEV001SchemaProposedContent{Envelope: &envs, Verifiers: []strfmt.Base64{s.PublicKeyPEM}},
		}}, KindDSSE, nil
	}
	payload, err := s.Envelope.DecodeB64Payload()
	if err != nil {
		return nil, "", err
	}
	sig, err := base64.StdEncoding.DecodeString(s.Envelope.Signatures[0].Sig)
	if err != nil {
		return nil, "", fmt.Errorf("rekor: envelope signature: %w", err)
	}
	sum := sha256.Sum256(dsse.PAE(s.Envelope.PayloadType, payload))
	alg, value := models.HashedrekordV001SchemaDataHashAlgorithmSha256, hex.EncodeToString(sum[:])
	return &models.Hashedrekord{APIVersion: &version, Spec: &models.HashedrekordV001Schema{
		Data: &models.HashedrekordV001SchemaData{Hash: &models.HashedrekordV001SchemaDataHash{Algorithm: &alg, Value: &value}},
		Signature: &models.HashedrekordV001SchemaSignature{
			Content:   sig,
			PublicKey: &models.HashedrekordV001SchemaSignaturePublicKey{Content: s.PublicKeyPEM},
		},
	}}, KindHashedRekord, nil
}

func only(le models.LogEntry) (string, models.LogEntryAnon, error) {
	if len(le) != 1 {
		return "", models.LogEntryAnon{}, fmt.Errorf("rekor: %d entries in the answer, want 1", len(le))
	}
	for uuid, e := range le {
		return uuid, e, nil
	}
	panic("unreachable")
}

func proof(uuid, kind string, e models.LogEntryAnon) (*tlog.Proof, error) {
	ip := e.Verification.InclusionProof
	if ip.LogIndex == nil || ip.TreeSize == nil || ip.RootHash == nil || ip.Checkpoint == nil || e.LogID == nil || e.LogIndex == nil || e.IntegratedTime == nil {
		return nil, fmt.Errorf("rekor: entry %s lacks parts of its proof", uuid)
	}
	body, ok := e.Body.(string)
	if !ok {
		return nil, fmt.Errorf("rekor: entry %s body is %T, want a base64 string", uuid, e.Body)
	}
	leaf, err := base64.StdEncoding.DecodeString(body)
	if err != nil {
		return nil, fmt.Errorf("rekor: entry %s body: %w", uuid, err)
	}
	if *ip.LogIndex < 0 || *ip.TreeSize < 0 {
		return nil, fmt.Errorf("rekor: entry %s has a negative index", uuid)
	}
	return &tlog.Proof{
		Kind: tlog.KindRekor, LogID: *e.LogID, Index: uint64(*ip.LogIndex), TreeSize: uint64(*ip.TreeSize),
		RootHash: *ip.RootHash, Hashes: ip.Hashes, Checkpoint: *ip.Checkpoint, Leaf: leaf,
		Rekor: &tlog.RekorEntry{
			UUID: uuid, LogIndex: *e.LogIndex, IntegratedTime: *e.IntegratedTime,
			SignedEntryTimestamp: e.Verification.SignedEntryTimestamp, EntryKind: kind,
		},
	}, nil
}

// entryBody is the part of a dsse or hashedrekord entry body the checks
// read.
type entryBody struct {
	Kind string `json:"kind"`
	Spec struct {
		// dsse
		PayloadHash *struct {
			Algorithm string `json:"algorithm"`
			Value     string `json:"value"`
		} `json:"payloadHash"`
		Signatures []struct {
			Signature string `json:"signature"`
			Verifier  []byte `json:"verifier"`
		} `json:"signatures"`
		// hashedrekord
		Data *struct {
			Hash struct {
				Algorithm string `json:"algorithm"`
				Value     string `json:"value"`
			} `json:"hash"`
		} `json:"data"`
		Signature *struct {
			Content   []byte `json:"content"`
			PublicKey struct {
				Content []byte `json:"content"`
			} `json:"publicKey"`
		} `json:"signature"`
	} `json:"spec"`
}

// VerifyEntry checks that the logged entry is this envelope, signed by
// this key (PEM): for dsse, the payload digest and every signature with its
// verifier; for hashedrekord, the digest of the pre-authentication
// encoding, the signature and the key.
func VerifyEntry(p *tlog.Proof, env *dsse.Envelope, pubPEM []byte) error {
	var b entryBody
	if err := json.Unmarshal(p.Leaf, &b); err != nil {
		return fmt.Errorf("the logged entry is not a Rekor entry: %w", err)
	}
	payload, err := env.DecodeB64Payload()
	if err != nil {
		return err
	}
	wantKey, err := cryptoutils.UnmarshalPEMToPublicKey(pubPEM)
	if err != nil {
		return fmt.Errorf("verdict key: %w", err)
	}
	sameKey := func(pemBytes []byte) bool {
		k, err := cryptoutils.UnmarshalPEMToPublicKey(pemBytes)
		return err == nil && cryptoutils.EqualKeys(k, wantKey) == nil
	}
	switch b.Kind {
	case KindDSSE:
		sum := sha256.Sum256(payload)
		if b.Spec.PayloadHash == nil || b.Spec.PayloadHash.Algorithm != "sha256" || b.Spec.PayloadHash.Value != hex.EncodeToString(sum[:]) {
			return errors.New("the logged dsse entry is for another payload")
		}
		for _, s := range env.Signatures {
			found := false
			for _, ls := range b.Spec.Signatures {
				if ls.Signature == s.Sig && sameKey(ls.Verifier) {
					found = true
				}
			}
			if !found {
				return errors.New("the logged dsse entry does not carry the envelope's signature by this key")
			}
		}
		return nil
	case KindHashedRekord:
		if b.Spec.Data == nil || b.Spec.Signature == nil || len(env.Signatures) != 1 {
			return errors.New("the logged hashedrekord entry is incomplete")
		}
		sum := sha256.Sum256(dsse.PAE(env.PayloadType, payload))
		if b.Spec.Data.Hash.Algorithm != "sha256" || b.Spec.Data.Hash.Value != hex.EncodeToString(sum[:]) {
			return errors.New("the logged hashedrekord entry is for another envelope")
		}
		sig, err := base64.StdEncoding.DecodeString(env.Signatures[0].Sig)
		if err != nil || !bytes.Equal(sig, b.Spec.Signature.Content) {
			return errors.New("the logged hashedrekord entry carries another signature")
		}
		if !sameKey(b.Spec.Signature.PublicKey.Content) {
			return errors.New("the logged hashedrekord entry names another key")
		}
		return nil
	}
	return fmt.Errorf("the logged entry is of kind %q, not dsse or hashedrekord", b.Kind)
}

// VerifyCheckpoint checks, with the log's public key (PEM), the signed
// checkpoint the inclusion proof ends in and the entry's signed entry
// timestamp.
func VerifyCheckpoint(ctx context.Context, p *tlog.Proof, logPubPEM []byte) error {
	pub, err := cryptoutils.UnmarshalPEMToPublicKey(logPubPEM)
	if err != nil {
		return fmt.Errorf("log key: %w", err)
	}
	v, err := signature.LoadVerifier(pub, crypto.SHA256)
	if err != nil {
		return fmt.Errorf("log key: %w", err)
	}
	if p.Rekor == nil {
		return errors.New("the proof carries no Rekor entry")
	}
	idx, size := int64(p.Index), int64(p.TreeSize)
	body := base64.StdEncoding.EncodeToString(p.Leaf)
	e := &models.LogEntryAnon{
		Body: body, IntegratedTime: &p.Rekor.IntegratedTime, LogID: &p.LogID, LogIndex: &p.Rekor.LogIndex,
		Verification: &models.LogEntryAnonVerification{
			InclusionProof: &models.InclusionProof{
				Checkpoint: &p.Checkpoint, Hashes: p.Hashes, LogIndex: &idx, RootHash: &p.RootHash, TreeSize: &size,
			},
			SignedEntryTimestamp: p.Rekor.SignedEntryTimestamp,
		},
	}
	if err := verify.VerifyCheckpointSignature(e, v); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	if err := verify.VerifySignedEntryTimestamp(ctx, e, v); err != nil {
		return fmt.Errorf("signed entry timestamp: %w", err)
	}
	return nil
}

func isEd25519(pub crypto.PublicKey) bool {
	_, ok := pub.(ed25519.PublicKey)
	return ok
}
