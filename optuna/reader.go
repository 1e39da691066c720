package optuna

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/pareto-llm/pareto/frontier"
	"github.com/pareto-llm/pareto/trial"
)

// reader reads one study inside one read transaction.
type reader struct {
	d   *db
	tx  *sql.Tx
	ctx context.Context
	// byID maps Optuna trial_id to the index in Study.Trials.
	byID map[int64]int
}

func (r *reader) study(name string) (*Study, error) {
	id, name, err := r.studyID(name)
	if err != nil {
		return nil, err
	}
	st := &Study{Name: name}
	if err := r.tx.QueryRowContext(r.ctx, `SELECT schema_version, library_version FROM version_info`).
		Scan(&st.SchemaVersion, &st.LibraryVersion); err != nil {
		return nil, fmt.Errorf("version_info: %w", err)
	}
	if err := r.directions(id, st); err != nil {
		return nil, err
	}
	if err := r.metricNames(id, st); err != nil {
		return nil, err
	}
	steps := []func(int64, *Study) error{r.trials, r.params, r.values, r.userAttrs, r.constraints}
	for _, step := range steps {
		if err := step(id, st); err != nil {
			return nil, err
		}
	}
	for i := range st.Trials {
		st.Trials[i].Finalize()
	}
	return st, nil
}

func (r *reader) studyID(name string) (int64, string, error) {
	q := `SELECT study_id, study_name FROM studies WHERE study_name = ` + r.d.ph(1)
	args := []any{name}
	if name == "" {
		q, args = `SELECT study_id, study_name FROM studies`, nil
	}
	rows, err := r.tx.QueryContext(r.ctx, q, args...)
	if err != nil {
		return 0, "", err
	}
	defer rows.Close()
	var id int64
	n := 0
	for rows.Next() {
		if err := rows.Scan(&id, &name); err != nil {
			return 0, "", err
		}
		n++
	}
	switch {
	case n == 0:
		return 0, "", fmt.Errorf("study %q: %w", name, ErrNoStudy)
	case n > 1:
		return 0, "", fmt.Errorf("the storage has %d studies: name one", n)
	}
	return id, name, rows.Err()
}

// query runs q with the study id as its only argument and calls fn per row.
func (r *reader) query(q string, id int64, fn func(*sql.Rows) error) error {
	rows, err := r.tx.QueryContext(r.ctx, q, id)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (r *reader) directions(id int64, st *Study) error {
	return r.query(`SELECT direction FROM study_directions WHERE study_id = `+r.d.ph(1)+` ORDER BY objective`, id,
		func(rows *sql.Rows) error {
			var dir string
			if err := rows.Scan(&dir); err != nil {
				return err
			}
			d := frontier.Minimize
			if dir == "MAXIMIZE" {
				d = frontier.Maximize
			}
			st.Directions = append(st.Directions, d)
			return nil
		})
}

// metricNames takes Optuna's "study:metric_names" system attribute, else a
// "metric_names" user attribute, else values_<i>.
func (r *reader) metricNames(id int64, st *Study) error {
	var sys, user []string
	decode := func(dst *[]string) func(*sql.Rows) error {
		return func(rows *sql.Rows) error {
			var v string
			if err := rows.Scan(&v); err != nil {
				return err
			}
			json.Unmarshal([]byte(v), dst) // a malformed attribute falls back to values_<i>
			return nil
		}
	}
	if err := r.query(`SELECT value_json FROM study_system_attributes WHERE key = 'study:metric_names' AND study_id = `+r.d.ph(1), id, decode(&sys)); err != nil {
		return err
	}
	if err := r.query(`SELECT value_json FROM study_user_attributes WHERE key = 'metric_names' AND study_id = `+r.d.ph(1), id, decode(&user)); err != nil {
		return err
	}
	names := sys
	if len(names) != len(st.Directions) {
		names = user
	}
	if len(names) != len(st.Directions) {
		names = make([]string, len(st.Directions))
		for i := range names {
			names[i] = "values_" + strconv.Itoa(i)
		}
	}
	st.Metrics = names
	return nil
}

func (r *reader) trials(id int64, st *Study) error {
	r.byID = map[int64]int{}
	return r.query(`SELECT trial_id, number FROM trials WHERE state = 'COMPLETE' AND study_id = `+r.d.ph(1)+` ORDER BY number`, id,
		func(rows *sql.Rows) error {
			var tid, num int64
			if err := rows.Scan(&tid, &num); err != nil {
				return err
			}
			// The study's name, not its storage, places the trial (with its
			// number as Index): the same study copied from SQLite to
			// PostgreSQL has the same trial IDs.
			t := trial.Trial{Source: trial.Source{Path: r.d.loc + "#" + st.Name, Key: "optuna:" + st.Name, Format: "optuna",
				FormatVersion: strconv.Itoa(st.SchemaVersion), Index: int(num)}, Failed: -1}
			t.SetLabel(trial.LabelTool, "optuna")
			t.SetLabel(trial.LabelToolVersion, st.LibraryVersion)
			t.SetLabel("optuna_study", st.Name)
			t.SetLabel("optuna_trial", strconv.FormatInt(num, 10))
			r.byID[tid] = len(st.Trials)
			st.Trials = append(st.Trials, t)
			return nil
		})
}

// perTrial joins a trial-level table to the study's complete trials.
func (r *reader) perTrial(cols, table, extra string) string {
	return `SELECT x.trial_id, ` + cols + ` FROM ` + table + ` x JOIN trials t ON t.trial_id = x.trial_id
		WHERE t.state = 'COMPLETE' AND t.study_id = ` + r.d.ph(1) + extra
}

func (r *reader) params(id int64, st *Study) error {
	return r.query(r.perTrial(`x.param_name, x.param_value, x.distribution_json`, `trial_params`, ` ORDER BY x.param_id`), id,
		func(rows *sql.Rows) error {
			var tid int64
			var name, dist string
			var v float64
			if err := rows.Scan(&tid, &name, &v, &dist); err != nil {
				return err
			}
			s, err := paramValue(v, dist)
			if err != nil {
				return fmt.Errorf("param %s: %w", name, err)
			}
			st.Trials[r.byID[tid]].SetParam(name, s)
			return nil
		})
}

func (r *reader) values(id int64, st *Study) error {
	return r.query(r.perTrial(`x.objective, x.value, x.value_type`, `trial_values`, ` ORDER BY x.trial_id, x.objective`), id,
		func(rows *sql.Rows) error {
			var tid, obj int64
			var v sql.NullFloat64
			var typ string
			if err := rows.Scan(&tid, &obj, &v, &typ); err != nil {
				return err
			}
			if obj < 0 || int(obj) >= len(st.Metrics) {
				return fmt.Errorf("trial value for objective %d of %d", obj, len(st.Metrics))
			}
			val := v.Float64
			switch typ {
			case "INF_POS":
				val = math.Inf(1)
			case "INF_NEG":
				val = math.Inf(-1)
			}
			t := &st.Trials[r.byID[tid]]
			t.Measurements = append(t.Measurements, trial.Measurement{Metric: st.Metrics[obj], Value: val})
			return nil
		})
}

func (r *reader) userAttrs(id int64, st *Study) error {
	return r.query(r.perTrial(`x.key, x.value_json`, `trial_user_attributes`, ``), id,
		func(rows *sql.Rows) error {
			var tid int64
			var key, v string
			if err := rows.Scan(&tid, &key, &v); err != nil {
				return err
			}
			var s string
			if json.Unmarshal([]byte(v), &s) != nil {
				s = v
			}
			st.Trials[r.byID[tid]].SetLabel(key, s)
			return nil
		})
}

func (r *reader) constraints(id int64, st *Study) error {
	return r.query(r.perTrial(`x.value_json`, `trial_system_attributes`, ` AND x.key = 'constraints'`), id,
		func(rows *sql.Rows) error {
			var tid int64
			var v string
			if err := rows.Scan(&tid, &v); err != nil {
				return err
			}
			var cs []float64
			if err := json.Unmarshal([]byte(v), &cs); err != nil {
				return fmt.Errorf("constraints %q: %w", v, err)
			}
			t := &st.Trials[r.byID[tid]]
			for i, c := range cs {
				t.Measurements = append(t.Measurements, trial.Measurement{Metric: ConstraintMetric(i), Value: c})
			}
			st.Constraints = max(st.Constraints, len(cs))
			return nil
		})
}
