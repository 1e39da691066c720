package optuna

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/ncruces/go-sqlite3/driver"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/trial"
)

// Study is an Optuna study read into trials.
type Study struct {
	// Name is the study name.
	Name string
	// Metrics are the objective names, in objective order.
	Metrics []string
	// Directions are the objectives' directions, in objective order.
	Directions []frontier.Direction
	// Constraints is the largest number of constraint values of a trial.
	Constraints int
	// Trials are the COMPLETE trials in trial-number order.
	Trials []trial.Trial
	// SchemaVersion and LibraryVersion are Optuna's version_info.
	SchemaVersion  int
	LibraryVersion string
}

// ErrNoStudy is returned by Read for a study name the storage lacks.
var ErrNoStudy = errors.New("no such Optuna study")

// Objectives returns one objective per metric with its direction.
func (s *Study) Objectives() []frontier.Objective {
	out := make([]frontier.Objective, len(s.Metrics))
	for i, m := range s.Metrics {
		out[i] = frontier.Objective{Name: m, Direction: s.Directions[i]}
	}
	return out
}

// SLOs returns Optuna's feasibility rule as bounds: constraint_<i> <= 0.
func (s *Study) SLOs() []frontier.SLO {
	out := make([]frontier.SLO, s.Constraints)
	for i := range out {
		out[i] = frontier.SLO{Name: ConstraintMetric(i), Op: frontier.LE, Bound: 0}
	}
	return out
}

// ConstraintMetric names the measurement of the i-th constraint value.
func ConstraintMetric(i int) string { return fmt.Sprintf("constraint_%d", i) }

// db is an open storage and its placeholder style.
type db struct {
	*sql.DB
	loc      string // redacted
	raw      string // as given, to scrub its password from errors
	numbered bool
}

// ph returns the i-th (1-based) placeholder.
func (d *db) ph(i int) string {
	if d.numbered {
		return fmt.Sprintf("$%d", i)
	}
	return "?"
}

// open opens an Optuna storage read-only: a SQLite path or sqlite:/// URL
// (SQLAlchemy's form), or a postgres:// or postgresql+psycopg2:// URL.
func open(location string) (*db, error) {
	lower := strings.ToLower(location)
	if strings.HasPrefix(lower, "postgres") {
		u := location
		if i := strings.Index(u, "://"); i >= 0 {
			u = "postgres" + u[i:] // drop SQLAlchemy's +driver suffix
		}
		cfg, err := pgx.ParseConfig(u)
		if err != nil {
			return nil, fmt.Errorf("optuna storage %s: %w", trial.RedactLocation(location), trial.RedactError(err, location))
		}
		sqldb := sql.OpenDB(stdlib.GetConnector(*cfg))
		if err := sqldb.Ping(); err != nil {
			sqldb.Close()
			return nil, fmt.Errorf("optuna storage %s: %w", trial.RedactLocation(location), trial.RedactError(err, location))
		}
		return &db{DB: sqldb, loc: trial.RedactLocation(location), raw: location, numbered: true}, nil
	}
	path := location
	if strings.HasPrefix(lower, "sqlite:///") {
		path = location[len("sqlite:///"):]
		if !strings.HasPrefix(path, "/") && strings.HasPrefix(location[len("sqlite:///"):], "/") {
			path = "/" + path
		}
	}
	sqldb, err := driver.Open("file:" + path + "?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return nil, fmt.Errorf("optuna storage %s: %w", path, err)
	}
	return &db{DB: sqldb, loc: path}, nil
}

// Studies lists the study names of an Optuna storage.
func Studies(ctx context.Context, location string) ([]string, error) {
	d, err := open(location)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	rows, err := d.QueryContext(ctx, `SELECT study_name FROM studies ORDER BY study_name`)
	if err != nil {
		return nil, d.wrap("listing studies", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, d.wrap("listing studies", err)
		}
		out = append(out, n)
	}
	return out, d.wrap("listing studies", rows.Err())
}

// Read reads the COMPLETE trials of the named study. An empty name picks
// the only study of the storage.
func Read(ctx context.Context, location, name string) (*Study, error) {
	d, err := open(location)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	tx, err := d.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, d.wrap("reading", err)
	}
	defer tx.Rollback()
	r := &reader{d: d, tx: tx, ctx: ctx}
	st, err := r.study(name)
	if err != nil {
		return nil, d.wrap("reading study "+name, err)
	}
	return st, nil
}

func (d *db) wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	err = trial.RedactError(err, d.raw)
	if errors.Is(err, ErrNoStudy) {
		return fmt.Errorf("optuna storage %s: %w", d.loc, err)
	}
	return fmt.Errorf("optuna storage %s: %s: %w (is it an Optuna RDB storage?)", d.loc, op, err)
}
