-- The queue and state of pareto tune, ask and tell (package store,
-- "Tuning queue"). A tune study belongs to the study of the same name,
-- where the runs' results are recorded as trials. It keeps the search
-- sampler's whole state (search.Study as JSON), the driver's options and
-- the budget in runs; every run is a row of tune_runs, queued, running
-- (claimed by a worker until lease_until, in Unix milliseconds; 0: no
-- expiry), complete or failed. A run whose lease expired is queued again
-- while attempts < max_attempts, else failed: it never completes twice
-- and is never lost. tune_trials holds one row per configuration: the
-- sampler's trial number (-1 for the baseline), its parameters and the
-- gate's latest verdict.
CREATE TABLE tune_studies (
	id           INTEGER PRIMARY KEY,
	study_id     INTEGER NOT NULL UNIQUE REFERENCES studies (id),
	space        TEXT NOT NULL,
	options      TEXT NOT NULL,
	sampler      TEXT NOT NULL,
	budget       INTEGER NOT NULL,
	session      INTEGER NOT NULL,
	max_attempts INTEGER NOT NULL,
	created_at   TEXT NOT NULL,
	updated_at   TEXT NOT NULL
);

CREATE TABLE tune_trials (
	tune_id    INTEGER NOT NULL REFERENCES tune_studies (id),
	number     INTEGER NOT NULL,
	role       TEXT NOT NULL,
	params     TEXT NOT NULL,
	state      TEXT NOT NULL,
	decision   TEXT NOT NULL,
	verdict    TEXT NOT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	PRIMARY KEY (tune_id, number)
);

CREATE TABLE tune_runs (
	id          INTEGER PRIMARY KEY,
	tune_id     INTEGER NOT NULL REFERENCES tune_studies (id),
	number      INTEGER NOT NULL,
	session     INTEGER NOT NULL,
	state       TEXT NOT NULL,
	worker      TEXT NOT NULL,
	handle      TEXT NOT NULL,
	dir         TEXT NOT NULL,
	lease_until INTEGER NOT NULL,
	attempts    INTEGER NOT NULL,
	reason      TEXT NOT NULL,
	result      TEXT NOT NULL,
	created_at  TEXT NOT NULL,
	updated_at  TEXT NOT NULL,
	FOREIGN KEY (tune_id, number) REFERENCES tune_trials (tune_id, number)
);
CREATE INDEX tune_runs_state ON tune_runs (tune_id, state, id);
