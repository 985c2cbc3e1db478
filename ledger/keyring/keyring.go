// Package keyring keeps the producer keys of sealgate's services on disk and
// derives the trust policy that authorizes each of them for its record kinds.
//
// Keys are Ed25519, stored as PKCS#8 PEM files readable only by their owner;
// private key bytes never leave this package except inside a record.Signer.
package keyring

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/record"
	"github.com/sealgate/sealgate/ledger/safefile"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// Service identities.
const (
	Gateway      = "sealgate/gateway"
	Checkout     = "sealgate/checkout"
	Executor     = "sealgate/executor"
	Reach        = "sealgate/reach"
	Mutation     = "sealgate/mutation"
	Adjudication = "sealgate/adjudication"
	Signing      = "sealgate/signing"
	// Ledger signs refusals: the admission guard of the ledger itself.
	Ledger = "sealgate/ledger"
	// Authority signs revocation epochs.
	Authority = "sealgate/authority"
)

// Roles maps each service identity to the record kinds it may write
// (DESIGN.md §8). Every service of a run's work may also say that it
// failed on the run (run.failed).
func Roles() map[string][]pb.Kind {
	return map[string][]pb.Kind{
		Gateway:      {pb.Kind_KIND_RUN_REQUESTED, pb.Kind_KIND_CRITERIA_SEALED},
		Checkout:     {pb.Kind_KIND_TREES_MATERIALIZED, pb.Kind_KIND_RUN_FAILED},
		Executor:     {pb.Kind_KIND_JOB_PLANNED, pb.Kind_KIND_JOB_RESULT, pb.Kind_KIND_RUN_FAILED},
		Reach:        {pb.Kind_KIND_JOB_PLANNED, pb.Kind_KIND_COVERAGE_MEASURED, pb.Kind_KIND_RUN_FAILED},
		Mutation:     {pb.Kind_KIND_JOB_PLANNED, pb.Kind_KIND_JOB_RESULT, pb.Kind_KIND_STRENGTH_MEASURED, pb.Kind_KIND_RUN_FAILED},
		Adjudication: {pb.Kind_KIND_VERDICT_REACHED, pb.Kind_KIND_RUN_FAILED},
		Signing:      {pb.Kind_KIND_VERDICT_SEALED, pb.Kind_KIND_RUN_FAILED},
		Ledger:       {pb.Kind_KIND_RECORD_REFUSED},
		Authority:    {pb.Kind_KIND_REVOCATION_EPOCH},
	}
}

// Identities lists the service identities in a stable order.
func Identities() []string {
	var ids []string
	for id := range Roles() {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Keyring holds one signer per service identity.
type Keyring struct {
	signers map[string]*record.Signer
}

// LoadOrCreate loads the keys of every service identity from dir, creating
// the missing ones.
func LoadOrCreate(dir string) (*Keyring, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("keyring: %w", err)
	}
	kr := &Keyring{signers: map[string]*record.Signer{}}
	for _, id := range Identities() {
		path := filepath.Join(dir, FileName(id))
		key, err := ReadKey(path)
		if errors.Is(err, fs.ErrNotExist) {
			key, err = createKey(path)
		}
		if err != nil {
			return nil, err
		}
		s, err := record.NewSigner(id, key)
		if err != nil {
			return nil, err
		}
		kr.signers[id] = s
	}
	return kr, nil
}

// Load loads the keys of the given identities from dir, refusing a missing
// one: in distributed mode each process holds only its own keys, made
// beforehand (sealgate keys services), and a key made on the spot would be
// trusted by nobody.
func Load(dir string, identities ...string) (*Keyring, error) {
	kr := &Keyring{signers: map[string]*record.Signer{}}
	for _, id := range identities {
		if _, ok := Roles()[id]; !ok {
			return nil, fmt.Errorf("keyring: unknown identity %q", id)
		}
		path := filepath.Join(dir, FileName(id))
		key, err := ReadKey(path)
		if err != nil {
			return nil, fmt.Errorf("keyring: the key of %s: %w", id, err)
		}
		s, err := record.NewSigner(id, key)
		if err != nil {
			return nil, err
		}
		kr.signers[id] = s
	}
	return kr, nil
}

// Signer returns the signer of a service identity.
func (k *Keyring) Signer(identity string) (*record.Signer, error) {
	s, ok := k.signers[identity]
	if !ok {
		return nil, fmt.Errorf("keyring: no key for %q", identity)
	}
	return s, nil
}

// Trust returns the trust policy authorizing every key of the ring for its
// role.
func (k *Keyring) Trust() (*authority.Trust, error) {
	roles := Roles()
	var keys []authority.Key
	for _, id := range Identities() {
		keys = append(keys, authority.Key{Identity: id, PublicKey: k.signers[id].PublicKey(), Kinds: roles[id]})
	}
	return authority.NewTrust(keys)
}

// FileName is the name of an identity's key file in a key directory.
func FileName(identity string) string {
	return strings.ReplaceAll(identity, "/", "_") + ".key"
}

// maxKeyFile bounds a key file: a PEM Ed25519 key is about 120 bytes.
const maxKeyFile = 64 << 10

// ReadKey reads an Ed25519 private key from a PKCS#8 PEM file: a regular
// file of at most 64 KiB (a FIFO or a device given as a key is refused).
func ReadKey(path string) (ed25519.PrivateKey, error) {
	b, err := safefile.ReadRegular(path, maxKeyFile)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(b)
	if block == nil || block.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("keyring: %s holds no PEM private key", path)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("keyring: %s: %w", path, err)
	}
	ek, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("keyring: %s holds a %T, want an Ed25519 key", path, k)
	}
	return ek, nil
}

func createKey(path string) (ed25519.PrivateKey, error) {
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("keyring: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("keyring: %w", err)
	}
	data := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	// Written whole, synced and linked into place: a crash never leaves
	// half a key, and of two processes making it at once one wins.
	if err := safefile.WriteNew(path, data, 0o600); err != nil {
		if errors.Is(err, fs.ErrExist) {
			// Another process created it first: use theirs.
			return ReadKey(path)
		}
		return nil, fmt.Errorf("keyring: %w", err)
	}
	return key, nil
}
