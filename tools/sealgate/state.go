package main

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sealgate/sealgate/ledger"
	"github.com/sealgate/sealgate/ledger/authority"
	"github.com/sealgate/sealgate/ledger/keyring"
	"github.com/sealgate/sealgate/ledger/local"
)

// The state directory holds everything embedded mode keeps between runs.
const (
	ledgerFile = "ledger.db"
	keysDir    = "keys"
	trustFile  = "trust.json"
	blobsDir   = "blobs"
)

// defaultStateDir is $SEALGATE_STATE, else $XDG_STATE_HOME/sealgate, else
// ~/.local/state/sealgate.
func defaultStateDir() string {
	if d := os.Getenv("SEALGATE_STATE"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "sealgate")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "state", "sealgate")
	}
	return ".sealgate"
}

// state is an opened state directory in embedded mode.
type state struct {
	dir      string
	log      *local.Log
	keys     *keyring.Keyring
	trust    *authority.Trust
	appender *ledger.Appender
}

// openState opens (creating when missing) the state directory: keys, trust
// policy and the local ledger, whose admission state is rebuilt from the log.
func openState(ctx context.Context, dir string) (*state, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, infraErrorf("state directory %s: %v", dir, err)
	}
	keys, err := keyring.LoadOrCreate(filepath.Join(dir, keysDir))
	if err != nil {
		return nil, infraErrorf("%v", err)
	}
	trust, err := keys.Trust()
	if err != nil {
		return nil, infraErrorf("%v", err)
	}
	if err := writeTrustIfMissing(filepath.Join(dir, trustFile), trust); err != nil {
		return nil, err
	}
	log, err := local.Open(filepath.Join(dir, ledgerFile), local.Options{})
	if err != nil {
		return nil, infraErrorf("open ledger: %v", err)
	}
	st := authority.New(trust)
	err = log.Scan(ctx, 1, func(e local.Entry, err error) error {
		if err != nil {
			return err
		}
		if e.Topic != ledger.Topic {
			return nil
		}
		return ledger.Replay(st, e.Payload)
	})
	if err != nil {
		log.Close()
		return nil, infraErrorf("the ledger in %s is damaged (%v); run `sealgate ledger verify --state %s`", dir, err, dir)
	}
	pub, err := local.NewPublisher(log)
	if err != nil {
		log.Close()
		return nil, infraErrorf("%v", err)
	}
	guard, err := keys.Signer(keyring.Ledger)
	if err != nil {
		log.Close()
		return nil, infraErrorf("%v", err)
	}
	app, err := ledger.NewAppender(pub, st, guard, nil)
	if err != nil {
		log.Close()
		return nil, infraErrorf("%v", err)
	}
	return &state{dir: dir, log: log, keys: keys, trust: trust, appender: app}, nil
}

func (s *state) Close() error { return s.log.Close() }

func writeTrustIfMissing(path string, trust *authority.Trust) error {
	if _, err := os.Stat(path); err == nil {
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return infraErrorf("%v", err)
	}
	b, err := trust.Marshal()
	if err != nil {
		return infraErrorf("%v", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return infraErrorf("write trust policy: %v", err)
	}
	return nil
}

// loadTrust reads a trust policy file.
func loadTrust(path string) (*authority.Trust, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, usageErrorf("trust policy: %v; give one with --trust FILE", err)
	}
	t, err := authority.ParseTrust(b)
	if err != nil {
		return nil, usageErrorf("%s: %v", path, err)
	}
	return t, nil
}

// ledgerExists refuses, as a usage error, a ledger path with nothing there.
func ledgerExists(path string) error {
	if _, err := os.Stat(path); err != nil {
		return usageErrorf("no ledger at %s (%v); give --state DIR or --ledger FILE", path, errors.Unwrap(err))
	}
	return nil
}
