package doctor

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"embed"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/criteria"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/record"
)

// Paths of the fixture files inside the embedded file system.
const (
	fixtureRunFile   = "fixtures/run.json"
	fixtureTrustFile = "fixtures/trust.json"
	// fixtureKeyDir holds one PKCS#8 PEM key per service identity. These
	// keys are published test fixtures: they sign the doctor's run and its
	// mutated copies, and no trust policy but the fixture's may list them.
	fixtureKeyDir = "fixtures/fixture-only-keys"
	// fixtureSchema names the format of fixtureRunFile.
	fixtureSchema = "sealgate.doctor.fixture.v1"
)

// embedded holds the fixture: the README, the recorded run, its trust policy
// and the fixture-only keys.
//
//go:embed fixtures
var embedded embed.FS

func fixtureFiles() fs.FS { return embedded }

// manifest is the stored form of the recorded run.
type manifest struct {
	Schema  string           `json:"schema"`
	RunID   string           `json:"run_id"`
	Records []manifestRecord `json:"records"`
}

// manifestRecord is one stored record, in ledger order. Name is how the
// mutations find it; Kind, Producer and Digest repeat what the signed record
// says, for readers of the file, and are checked on load.
type manifestRecord struct {
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	Producer string `json:"producer"`
	Digest   string `json:"digest"`
	// Signed is the encoded SignedRecord exactly as a ledger stores it.
	Signed []byte `json:"signed_record"`
}

// Names of the recorded run's records, in ledger order.
const (
	recEpoch         = "epoch"
	recRequest       = "request"
	recSeal          = "seal"
	recTrees         = "trees"
	recPlan          = "plan"
	recClaim0        = "result-claim-000"
	recClaim1        = "result-claim-001"
	recCoverage      = "coverage"
	recMutationPlan  = "mutation-plan"
	recMutant0       = "result-mutant-000"
	recMutant1       = "result-mutant-001"
	recStrength      = "strength"
	recVerdict       = "verdict"
	recVerdictSealed = "verdict-sealed"
)

// recordNames lists the records the fixture must hold, in ledger order.
func recordNames() []string {
	return []string{
		recEpoch, recRequest, recSeal, recTrees, recPlan, recClaim0, recClaim1, recCoverage,
		recMutationPlan, recMutant0, recMutant1, recStrength, recVerdict, recVerdictSealed,
	}
}

// Token ids of the recorded run.
const (
	tokClaim0    = "claim-000"
	tokClaim1    = "claim-001"
	tokMutations = "mutations"
	tokMutant0   = "mutant-000"
	tokMutant1   = "mutant-001"
)

// fixture is the loaded recorded run with what it takes to sign copies.
type fixture struct {
	runID   string
	raw     [][]byte
	records []*record.Decoded
	index   map[string]int
	sealed  *criteria.Sealed
	trust   *authority.Trust
	signers map[string]*record.Signer
}

// loadFixture reads and checks the recorded run, the trust policy and the
// fixture keys from fsys.
func loadFixture(fsys fs.FS) (*fixture, error) {
	b, err := fs.ReadFile(fsys, fixtureRunFile)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var m manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: %w", fixtureRunFile, err)
	}
	if m.Schema != fixtureSchema {
		return nil, fmt.Errorf("%s: schema %q, want %q", fixtureRunFile, m.Schema, fixtureSchema)
	}
	if m.RunID == "" {
		return nil, fmt.Errorf("%s: no run id", fixtureRunFile)
	}
	fx := &fixture{runID: m.RunID, index: map[string]int{}, signers: map[string]*record.Signer{}}
	for i, mr := range m.Records {
		rec, err := record.Decode(mr.Signed)
		if err != nil {
			return nil, fmt.Errorf("%s: record %q: %w", fixtureRunFile, mr.Name, err)
		}
		if rec.Digest != mr.Digest || record.KindName(rec.Kind) != mr.Kind || rec.Record.GetProducer().GetIdentity() != mr.Producer {
			return nil, fmt.Errorf("%s: record %q is not the %s by %s with digest %.16s… it is listed as", fixtureRunFile, mr.Name, mr.Kind, mr.Producer, mr.Digest)
		}
		if _, dup := fx.index[mr.Name]; dup {
			return nil, fmt.Errorf("%s: record name %q is used twice", fixtureRunFile, mr.Name)
		}
		fx.index[mr.Name] = i
		fx.raw = append(fx.raw, mr.Signed)
		fx.records = append(fx.records, rec)
	}
	names := recordNames()
	if len(m.Records) != len(names) {
		return nil, fmt.Errorf("%s: %d records, want %d", fixtureRunFile, len(m.Records), len(names))
	}
	for i, name := range names {
		if m.Records[i].Name != name {
			return nil, fmt.Errorf("%s: record #%d is %q, want %q", fixtureRunFile, i+1, m.Records[i].Name, name)
		}
	}
	cs := fx.rec(recSeal).Record.GetCriteriaSealed()
	if cs == nil {
		return nil, fmt.Errorf("%s: record %q is no criteria seal", fixtureRunFile, recSeal)
	}
	if fx.sealed, err = criteria.Parse(cs.CanonicalCriteria); err != nil {
		return nil, fmt.Errorf("%s: sealed criteria: %w", fixtureRunFile, err)
	}

	tb, err := fs.ReadFile(fsys, fixtureTrustFile)
	if err != nil {
		return nil, err
	}
	if fx.trust, err = authority.ParseTrust(tb); err != nil {
		return nil, fmt.Errorf("%s: %w", fixtureTrustFile, err)
	}
	for _, id := range keyring.Identities() {
		s, err := readSigner(fsys, id)
		if err != nil {
			return nil, err
		}
		if k, ok := fx.trust.Lookup(s.KeyID()); !ok || k.Identity != id {
			return nil, fmt.Errorf("%s: the fixture key of %q is not trusted as %q", fixtureTrustFile, id, id)
		}
		fx.signers[id] = s
	}
	return fx, nil
}

// keyFile is where the fixture key of identity is stored; the name is the
// one keyring.LoadOrCreate uses, so the generator can keep the keys.
func keyFile(identity string) string {
	return path.Join(fixtureKeyDir, strings.ReplaceAll(identity, "/", "_")+".key")
}

// readSigner reads the fixture key of identity.
func readSigner(fsys fs.FS, identity string) (*record.Signer, error) {
	name := keyFile(identity)
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(b)
	if block == nil || block.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("%s holds no PEM private key", name)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	ek, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("%s holds a %T, want an Ed25519 key", name, k)
	}
	return record.NewSigner(identity, ek)
}

// rec returns the recorded record called name; loadFixture made sure every
// name of recordNames exists.
func (fx *fixture) rec(name string) *record.Decoded { return fx.records[fx.index[name]] }

// signer returns the fixture signer of identity.
func (fx *fixture) signer(identity string) (*record.Signer, error) {
	s, ok := fx.signers[identity]
	if !ok {
		return nil, errors.New("no fixture key for " + identity)
	}
	return s, nil
}

// tokenNonce derives the nonce of a fixture token. Nonces of real tokens
// are random; the fixture's are derived from the run and token id so that
// the recorded run and every copy are reproducible byte for byte.
func tokenNonce(runID, tokenID string) []byte {
	sum := sha256.Sum256([]byte("sealgate doctor fixture nonce\x00" + runID + "\x00" + tokenID))
	return sum[:16]
}

// strangerKey is a key no trust policy lists: derived from a published
// seed, it is as good as anybody's.
func strangerKey() ed25519.PrivateKey {
	seed := sha256.Sum256([]byte("sealgate doctor: a key nobody trusts"))
	return ed25519.NewKeyFromSeed(seed[:])
}

// retiredKeyID is the key id the recorded revocation epoch revokes: a
// retired executor key that signs nothing in the run.
func retiredKeyID() string {
	sum := sha256.Sum256([]byte("sealgate doctor: a retired executor key"))
	return record.KeyID(ed25519.NewKeyFromSeed(sum[:]).Public().(ed25519.PublicKey))
}

// hexSum is the hex SHA-256 of s: a well-formed digest naming nothing.
func hexSum(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
