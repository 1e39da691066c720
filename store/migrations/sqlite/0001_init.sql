-- Studies, trials and their measurements. There is no frontier table: a
-- frontier is computed from the trials whenever asked.
CREATE TABLE studies (
	id         INTEGER PRIMARY KEY,
	name       TEXT NOT NULL UNIQUE,
	created_at TEXT NOT NULL
);

CREATE TABLE trials (
	id                    INTEGER PRIMARY KEY,
	study_id              INTEGER NOT NULL REFERENCES studies (id),
	hash                  TEXT NOT NULL,
	source_path           TEXT NOT NULL,
	source_format         TEXT NOT NULL,
	source_format_version TEXT NOT NULL,
	source_line           INTEGER NOT NULL,
	source_index          INTEGER NOT NULL,
	labels                TEXT NOT NULL,
	params                TEXT NOT NULL,
	input_tokens          REAL,
	output_tokens         REAL,
	mean_input_tokens     REAL,
	mean_output_tokens    REAL,
	concurrency           REAL,
	achieved_concurrency  REAL,
	request_rate          REAL,
	users                 REAL,
	requests              INTEGER NOT NULL,
	succeeded             INTEGER NOT NULL,
	failed                INTEGER NOT NULL,
	problem               TEXT NOT NULL,
	warnings              TEXT NOT NULL,
	engine                TEXT NOT NULL,
	engine_version        TEXT NOT NULL,
	cuda                  TEXT NOT NULL,
	driver                TEXT NOT NULL,
	gpu                   TEXT NOT NULL,
	host                  TEXT NOT NULL,
	ingested_at           TEXT NOT NULL,
	UNIQUE (study_id, hash)
);

CREATE TABLE measurements (
	trial_id    INTEGER NOT NULL REFERENCES trials (id) ON DELETE CASCADE,
	seq         INTEGER NOT NULL,
	metric      TEXT NOT NULL,
	dims        TEXT NOT NULL,
	value       REAL,
	unit        TEXT NOT NULL,
	native      TEXT NOT NULL,
	source_unit TEXT NOT NULL,
	PRIMARY KEY (trial_id, seq)
) WITHOUT ROWID;
