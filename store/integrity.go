package store

import (
	"errors"
	"fmt"
)

// ErrDamaged is what every IntegrityError is (errors.Is): a stored trial or
// block no longer matches its content hash or checksum.
var ErrDamaged = errors.New("the store is damaged")

// IntegrityError reports a stored trial or block that does not match what
// was stored: a trial whose content no longer hashes to its content hash,
// or whose checksum fails; a block whose checksum fails, or (pareto check)
// that disagrees with its trials. Reads return it instead of changed
// values.
type IntegrityError struct {
	// Study is the study holding the trial or block.
	Study string
	// Trial is the trial's ID as stored; empty for a block.
	Trial string
	// Block is the block's row id, for a block.
	Block int64
	// Detail says what does not match.
	Detail string
}

func (e *IntegrityError) Error() string {
	what := "trial " + e.Trial
	if e.Trial == "" {
		what = fmt.Sprintf("block %d", e.Block)
	}
	if e.Study != "" {
		what += " of study " + e.Study
	}
	return what + ": " + e.Detail + ": the store is damaged (pareto check lists every damaged trial and block)"
}

// Is makes errors.Is(err, ErrDamaged) hold.
func (e *IntegrityError) Is(target error) bool { return target == ErrDamaged }
