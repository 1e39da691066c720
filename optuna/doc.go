// Package optuna reads studies from an Optuna RDB storage (a SQLite file
// or a PostgreSQL database written by optuna.storages.RDBStorage) into
// pareto trials, read-only, so that a noise-aware frontier, SLO filtering
// and the report work over a study someone already ran with Optuna.
//
// Only COMPLETE trials are read. Each becomes a trial.Trial with
//
//   - one measurement per objective, named from the study's metric names
//     (Optuna's "study:metric_names" system attribute, else a
//     "metric_names" user attribute, else "values_0", "values_1", ...);
//   - one measurement "constraint_<i>" per constraint value (Optuna's
//     "constraints" system attribute; a trial is feasible when every
//     value is <= 0, see Study.SLOs);
//   - the parameters as params, decoded from Optuna's internal
//     representation (categorical choices, integers, floats);
//   - the user attributes as labels (strings as they are, other JSON
//     values as JSON text), plus tool=optuna, optuna_study and
//     optuna_trial (the trial number).
//
// Study.Objectives gives the objectives with their directions, for
// frontier.Analyze.
package optuna
