-- Packed measurements: each trial's measurements become one blob of its
-- row, and blocks of trials (what one ingest added) keep one blob of
-- values per (metric, dims) pair for columnar reads. The measurements
-- table and its per-measurement index go, and so does trials_study: a
-- study's trials are the row-id ranges of its blocks (first_trial to
-- last_trial).
--
-- The content hash is no longer indexed as text: trials_key
-- indexes 32 bits of it (hkey, see hashKey), and the writer, which
-- holds the write lock, compares full hashes among the trials of that
-- key. The UNIQUE constraint cannot be dropped in place, so the table is
-- rebuilt without it, and without trials_engine: an index whose inserts
-- land in a different place for each trial costs a sixth of the ingest
-- (filters on environment columns scan the study's rows instead; create
-- the index by hand if SQL queries need it).
ALTER TABLE trials ADD COLUMN measurements BLOB NOT NULL DEFAULT x'';
ALTER TABLE trials ADD COLUMN hkey INTEGER NOT NULL DEFAULT 0;

CREATE TABLE blocks (
	id          INTEGER PRIMARY KEY,
	study_id    INTEGER NOT NULL REFERENCES studies (id),
	first_trial INTEGER NOT NULL,
	last_trial  INTEGER NOT NULL,
	trials      INTEGER NOT NULL,
	row_ids     BLOB NOT NULL,
	ids         BLOB NOT NULL,
	problems    BLOB NOT NULL
);
CREATE INDEX blocks_study ON blocks (study_id, first_trial);

CREATE TABLE block_values (
	block_id INTEGER NOT NULL REFERENCES blocks (id),
	metric   TEXT NOT NULL,
	dims     TEXT NOT NULL,
	vals     BLOB NOT NULL,
	PRIMARY KEY (block_id, metric, dims)
);

-- Go code packs the existing measurements at the next line, and gives the
-- trials whose ID is an earlier version's content hash the current one.
-- pareto:fill

DROP INDEX measurements_metric;
DROP TABLE measurements;

CREATE TABLE trials_packed (
	id                    INTEGER PRIMARY KEY,
	study_id              INTEGER NOT NULL REFERENCES studies (id),
	hash                  TEXT NOT NULL,
	hkey                  INTEGER NOT NULL,
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
	measurements          BLOB NOT NULL
);
INSERT INTO trials_packed SELECT id, study_id, hash, hkey, source_path, source_format, source_format_version,
	source_line, source_index, labels, params, input_tokens, output_tokens, mean_input_tokens, mean_output_tokens,
	concurrency, achieved_concurrency, request_rate, users, requests, succeeded, failed, problem, warnings,
	engine, engine_version, cuda, driver, gpu, host, ingested_at, measurements
FROM trials ORDER BY id;
DROP TABLE trials;
ALTER TABLE trials_packed RENAME TO trials;
CREATE INDEX trials_key ON trials (study_id, hkey);
