package adjudication

import "github.com/sealgate/sealgate/services/executor/jobs"

// Classify says how a claim behaved from its two side outcomes (the
// jobs.Outcome* values), in a fixed order where the first match wins. It
// never guesses: a combination it does not know is invalid.
func Classify(base, patch string) (Class, Outcome) {
	switch {
	case patch == jobs.OutcomeNotRun || patch == jobs.OutcomeInvalid || patch == "" ||
		base == jobs.OutcomeNotRun || base == jobs.OutcomeInvalid || base == "":
		return Invalid, Unverified
	case base == jobs.OutcomeUnrunnable || patch == jobs.OutcomeUnrunnable || patch == jobs.OutcomeAbsent:
		return Unrunnable, Unverified
	case base == jobs.OutcomeFlaky || patch == jobs.OutcomeFlaky:
		return Flaky, Unverified
	case patch == jobs.OutcomeTimeout && base == jobs.OutcomePass:
		return Hang, Refuted
	case patch == jobs.OutcomeTimeout || base == jobs.OutcomeTimeout:
		return Flaky, Unverified
	case base == jobs.OutcomeFail && patch == jobs.OutcomeFail:
		return IncompleteFix, Refuted
	case base == jobs.OutcomePass && patch == jobs.OutcomeFail:
		return Regression, Refuted
	case base == jobs.OutcomeAbsent && patch == jobs.OutcomeFail:
		return NewBug, Refuted
	case base == jobs.OutcomeFail && patch == jobs.OutcomePass:
		return Fixed, Verified
	case base == jobs.OutcomePass && patch == jobs.OutcomePass:
		return NoRegression, Verified
	case base == jobs.OutcomeAbsent && patch == jobs.OutcomePass:
		return Discarded, Verified
	}
	return Invalid, Unverified
}
