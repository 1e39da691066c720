package codec

import (
	"github.com/pareto-llm/pareto/store/tunequeue"
)

// BlockTx is what writing blocks needs from a transaction of either
// dialect. Queries are written with '?' placeholders.
type BlockTx interface {
	Exec(query string, args ...any) error
	QueryInt(query string, args ...any) (int64, error)
	// Numbered reports PostgreSQL, whose statements the caller may batch
	// with arrays.
	Numbered() bool
}

// QueryTx is what the code shared by both dialects (checks, sketches) and
// the tuning queue (tunequeue.SQL) need from a transaction.
type QueryTx interface {
	BlockTx
	Query(query string, args ...any) (tunequeue.Rows, error)
}
