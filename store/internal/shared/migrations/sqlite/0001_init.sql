-- The schema of a pareto store (SQLite); see "Schema" in the package
-- documentation of store. A later version is a migration beside this file
-- (0002_name.sql, ...), never an edit of it (this one was edited in place
-- before the first release; a store of its earlier form, without the
-- origins table, is refused with a message to re-ingest).
--
-- There is no frontier table: a frontier is computed from the trials
-- whenever asked.
CREATE TABLE studies (
	id         INTEGER PRIMARY KEY,
	name       TEXT NOT NULL UNIQUE,
	created_at TEXT NOT NULL
);

-- One row per ingested source: when, and what it added.
CREATE TABLE sources (
	id          INTEGER PRIMARY KEY,
	study_id    INTEGER NOT NULL REFERENCES studies (id),
	path        TEXT NOT NULL,
	added       INTEGER NOT NULL,
	present     INTEGER NOT NULL,
	ingested_at TEXT NOT NULL
);
CREATE INDEX sources_study ON sources (study_id, path);

-- Blocks of trials (what one ingest added, up to 65,536): their row ids,
-- IDs and problems, packed, and a CRC-32C of them (blockChecksum). A
-- study's trials are the row-id ranges of its blocks (first_trial to
-- last_trial). Every block keeps, for its trials, their repeat keys and
-- what names them (sketches), so that a frontier of the median of repeats
-- reads blocks instead of trials: sketch_version is the definition of the
-- keys they follow ('' when the block has none), sketch_checksum covers
-- the first row id, the version and the sketches.
CREATE TABLE blocks (
	id              INTEGER PRIMARY KEY,
	study_id        INTEGER NOT NULL REFERENCES studies (id),
	first_trial     INTEGER NOT NULL,
	last_trial      INTEGER NOT NULL,
	trials          INTEGER NOT NULL,
	row_ids         BLOB NOT NULL,
	ids             BLOB NOT NULL,
	problems        BLOB NOT NULL,
	checksum        INTEGER NOT NULL DEFAULT 0,
	sketches        BLOB NOT NULL DEFAULT x'',
	sketch_version  TEXT NOT NULL DEFAULT '',
	sketch_checksum INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX blocks_study ON blocks (study_id, first_trial);

-- Per block and (metric, dims) pair, the values of its trials in row-id
-- order, packed as float64s, with their CRC-32C (valuesChecksum).
CREATE TABLE block_values (
	block_id INTEGER NOT NULL REFERENCES blocks (id),
	metric   TEXT NOT NULL,
	dims     TEXT NOT NULL,
	vals     BLOB NOT NULL,
	checksum INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (block_id, metric, dims)
);

-- What the trials of one file share (their origin): the file's path and
-- key (file_key names it independently of the working directory it was
-- read from, '' when the path says it), its format and format version, the
-- measurement session and the ingest time. An ingest writes one row per
-- distinct origin of the trials it adds; a trial refers to it by
-- origin_id.
CREATE TABLE origins (
	origin         INTEGER PRIMARY KEY,
	path           TEXT NOT NULL,
	file_key       TEXT NOT NULL,
	format         TEXT NOT NULL,
	format_version TEXT NOT NULL,
	session        TEXT NOT NULL,
	ingested_at    TEXT NOT NULL
);

-- One row per trial; its measurements are one blob (packMeasurements).
-- The content hash is not indexed as text: trials_key indexes 32 bits of
-- it (hkey, see hashKey), and the writer, which holds the write lock,
-- compares full hashes among the trials of that key. The environment
-- columns are not indexed: an index whose inserts land in a different
-- place for each trial costs a sixth of the ingest (filters on them scan
-- the study's rows; create the index by hand if SQL queries need it).
--
-- origin_id is the trial's origin (origins); source_line and source_index
-- its place in the file. params holds the parameters that param_refs does
-- not: bit j of param_refs is the parameter named as measurement j (its
-- native name, else its metric) whose text is the shortest form of that
-- measurement's value (codec.ParamRefs). Empty params, labels and
-- warnings are ''. The deployment (what ran the trial, trial.Deployment):
-- the serving layout as JSON ('' when none), the allocated and serving GPU
-- counts (0 when unknown) with the reasons when unknown, and the executed
-- configuration's path and text, byte for byte. content_id is the content
-- hash (trial.ComputeID) of the trial as stored when it is not its ID (''
-- when it is); checksum is the CRC-32C of the fields the content hash does
-- not cover (trialChecksum).
CREATE TABLE trials (
	id                     INTEGER PRIMARY KEY,
	study_id               INTEGER NOT NULL REFERENCES studies (id),
	hash                   TEXT NOT NULL,
	hkey                   INTEGER NOT NULL,
	origin_id              INTEGER NOT NULL REFERENCES origins (origin),
	source_line            INTEGER NOT NULL,
	source_index           INTEGER NOT NULL,
	labels                 TEXT NOT NULL,
	params                 TEXT NOT NULL,
	param_refs             INTEGER NOT NULL DEFAULT 0,
	input_tokens           NUMERIC,
	output_tokens          NUMERIC,
	mean_input_tokens      NUMERIC,
	mean_output_tokens     NUMERIC,
	concurrency            NUMERIC,
	achieved_concurrency   NUMERIC,
	request_rate           NUMERIC,
	users                  NUMERIC,
	requests               INTEGER NOT NULL,
	succeeded              INTEGER NOT NULL,
	failed                 INTEGER NOT NULL,
	problem                TEXT NOT NULL,
	warnings               TEXT NOT NULL,
	engine                 TEXT NOT NULL,
	engine_version         TEXT NOT NULL,
	cuda                   TEXT NOT NULL,
	driver                 TEXT NOT NULL,
	gpu                    TEXT NOT NULL,
	host                   TEXT NOT NULL,
	measurements           BLOB NOT NULL,
	layout                 TEXT NOT NULL DEFAULT '',
	allocated_gpus         INTEGER NOT NULL DEFAULT 0,
	allocated_gpus_unknown TEXT NOT NULL DEFAULT '',
	serving_gpus           INTEGER NOT NULL DEFAULT 0,
	serving_gpus_unknown   TEXT NOT NULL DEFAULT '',
	config_path            TEXT NOT NULL DEFAULT '',
	config                 BLOB NOT NULL DEFAULT x'',
	content_id             TEXT NOT NULL DEFAULT '',
	checksum               INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX trials_key ON trials (study_id, hkey);

-- The inputs of a study that yielded no trial (trial.Skip): a file that
-- could not be read, a failed CloudAI run, ... One row per input: file
-- names it as trial IDs name files (Skip.Key, else the path) and run is
-- the CloudAI point ('' for a file), so recording the same skip again
-- replaces the row (its path, code and reason are the newest) instead of
-- adding one. An ingest that stores trials of the file, or of a file below
-- a skipped directory, deletes the skip: the input yields trials now.
CREATE TABLE skips (
	id          INTEGER PRIMARY KEY,
	study_id    INTEGER NOT NULL REFERENCES studies (id),
	file        TEXT NOT NULL,
	run         TEXT NOT NULL,
	path        TEXT NOT NULL,
	case_id     TEXT NOT NULL,
	iteration   INTEGER NOT NULL,
	step        INTEGER NOT NULL,
	phase       TEXT NOT NULL,
	code        TEXT NOT NULL,
	reason      TEXT NOT NULL,
	recorded_at TEXT NOT NULL,
	UNIQUE (study_id, file, run)
);

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
