//go:build failpoints

package runtime

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/sealgate/sealgate/ledger/record"
	pb "github.com/sealgate/sealgate/proto/sealgate/v1"
)

// failpoint injects the failure the environment names for rec's run.
func (s *Service) failpoint(rec *record.Decoded, run []*record.Decoded) error {
	if rec.Kind != pb.Kind_KIND_CRITERIA_SEALED {
		return nil
	}
	repo := ""
	for _, r := range run {
		if req := r.Record.GetRunRequested(); req != nil {
			repo = req.Repository
		}
	}
	for _, fp := range strings.Split(os.Getenv(FailpointsEnv), ",") {
		service, rest, _ := strings.Cut(fp, ":")
		action, match, _ := strings.Cut(rest, ":")
		if service != s.Name || match == "" || !strings.Contains(repo, match) {
			continue
		}
		switch action {
		case "panic":
			panic(fmt.Sprintf("failpoint: %s panics on run %s", s.Name, rec.Record.GetRunId()))
		case "fail":
			return Permanent(errors.New("failpoint: " + s.Name + " fails for good on this run"))
		}
	}
	return nil
}
