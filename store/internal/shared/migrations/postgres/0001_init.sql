-- The schema of a pareto store (PostgreSQL); see "Schema" in the package
-- documentation of store. A later version is a migration beside this file
-- (0002_name.sql, ...), never an edit of it (this one was edited in place
-- before the first release; a store of its earlier form, without the
-- origins table, is refused with a message to re-ingest).
--
-- There is no frontier table: a frontier is computed from the trials
-- whenever asked.
CREATE TABLE studies (
	id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	name       TEXT NOT NULL UNIQUE,
	created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- One row per ingested source: when, and what it added.
CREATE TABLE sources (
	id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	study_id    BIGINT NOT NULL REFERENCES studies (id),
	path        TEXT NOT NULL,
	added       INTEGER NOT NULL,
	present     INTEGER NOT NULL,
	ingested_at TIMESTAMPTZ NOT NULL DEFAULT now()
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
	id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	study_id        BIGINT NOT NULL REFERENCES studies (id),
	first_trial     BIGINT NOT NULL,
	last_trial      BIGINT NOT NULL,
	trials          INTEGER NOT NULL,
	row_ids         BYTEA NOT NULL,
	ids             BYTEA NOT NULL,
	problems        BYTEA NOT NULL,
	checksum        BIGINT NOT NULL DEFAULT 0,
	sketches        BYTEA NOT NULL DEFAULT '\x',
	sketch_version  TEXT NOT NULL DEFAULT '',
	sketch_checksum BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX blocks_study ON blocks (study_id, first_trial);
-- Packed hashes do not compress: store them out of line uncompressed.
ALTER TABLE blocks ALTER COLUMN ids SET STORAGE EXTERNAL;

-- Per block and (metric, dims) pair, the values of its trials in row-id
-- order, packed as float64s, with their CRC-32C (valuesChecksum).
CREATE TABLE block_values (
	block_id BIGINT NOT NULL REFERENCES blocks (id),
	metric   TEXT NOT NULL,
	dims     TEXT NOT NULL,
	vals     BYTEA NOT NULL,
	checksum BIGINT NOT NULL DEFAULT 0,
	PRIMARY KEY (block_id, metric, dims)
);
-- Packed floats do not compress either.
ALTER TABLE block_values ALTER COLUMN vals SET STORAGE EXTERNAL;

-- What the trials of one file share (their origin): the file's path and
-- key (file_key names it independently of the working directory it was
-- read from, '' when the path says it), its format and format version, the
-- measurement session and the ingest time. An ingest writes one row per
-- distinct origin of the trials it writes; a trial refers to it by
-- origin_id.
CREATE TABLE origins (
	origin         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	path           TEXT NOT NULL,
	file_key       TEXT NOT NULL,
	format         TEXT NOT NULL,
	format_version TEXT NOT NULL,
	session        TEXT NOT NULL,
	ingested_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- One row per trial; its measurements are one blob (packMeasurements).
-- The trial ID is UNIQUE per study; trials are indexed by (study, id) and
-- (study, engine, engine_version).
--
-- origin_id is the trial's origin (origins); source_line and source_index
-- its place in the file. params holds the parameters that param_refs does
-- not: bit j of param_refs is the parameter named as measurement j (its
-- native name, else its metric) whose text is the shortest form of that
-- measurement's value (codec.ParamRefs). The deployment (what ran the
-- trial, trial.Deployment): the serving layout as JSON (NULL when none),
-- the allocated and serving GPU counts (0 when unknown) with the reasons
-- when unknown, and the executed configuration's path and text, byte for
-- byte. content_id is the content hash (trial.ComputeID) of the trial as
-- stored when it is not its ID ('' when it is); checksum is the CRC-32C of
-- the fields the content hash does not cover (trialChecksum).
CREATE TABLE trials (
	id                     BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	study_id               BIGINT NOT NULL REFERENCES studies (id),
	hash                   TEXT NOT NULL,
	origin_id              BIGINT NOT NULL REFERENCES origins (origin),
	source_line            BIGINT NOT NULL,
	source_index           BIGINT NOT NULL,
	labels                 JSONB NOT NULL,
	params                 JSONB NOT NULL,
	param_refs             BIGINT NOT NULL DEFAULT 0,
	input_tokens           DOUBLE PRECISION,
	output_tokens          DOUBLE PRECISION,
	mean_input_tokens      DOUBLE PRECISION,
	mean_output_tokens     DOUBLE PRECISION,
	concurrency            DOUBLE PRECISION,
	achieved_concurrency   DOUBLE PRECISION,
	request_rate           DOUBLE PRECISION,
	users                  DOUBLE PRECISION,
	requests               BIGINT NOT NULL,
	succeeded              BIGINT NOT NULL,
	failed                 BIGINT NOT NULL,
	problem                TEXT NOT NULL,
	warnings               JSONB NOT NULL,
	engine                 TEXT NOT NULL,
	engine_version         TEXT NOT NULL,
	cuda                   TEXT NOT NULL,
	driver                 TEXT NOT NULL,
	gpu                    TEXT NOT NULL,
	host                   TEXT NOT NULL,
	measurements           BYTEA NOT NULL DEFAULT '\x',
	layout                 JSONB,
	allocated_gpus         BIGINT NOT NULL DEFAULT 0,
	allocated_gpus_unknown TEXT NOT NULL DEFAULT '',
	serving_gpus           BIGINT NOT NULL DEFAULT 0,
	serving_gpus_unknown   TEXT NOT NULL DEFAULT '',
	config_path            TEXT NOT NULL DEFAULT '',
	config                 BYTEA NOT NULL DEFAULT '\x',
	content_id             TEXT NOT NULL DEFAULT '',
	checksum               BIGINT NOT NULL DEFAULT 0,
	UNIQUE (study_id, hash)
);
CREATE INDEX trials_study ON trials (study_id, id);
CREATE INDEX trials_engine ON trials (study_id, engine, engine_version);

-- The inputs of a study that yielded no trial (trial.Skip): a file that
-- could not be read, a failed CloudAI run, ... One row per input: file
-- names it as trial IDs name files (Skip.Key, else the path) and run is
-- the CloudAI point ('' for a file), so recording the same skip again
-- replaces the row (its path, code and reason are the newest) instead of
-- adding one. An ingest that stores trials of the file, or of a file below
-- a skipped directory, deletes the skip: the input yields trials now.
CREATE TABLE skips (
	id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	study_id    BIGINT NOT NULL REFERENCES studies (id),
	file        TEXT NOT NULL,
	run         TEXT NOT NULL,
	path        TEXT NOT NULL,
	case_id     TEXT NOT NULL,
	iteration   BIGINT NOT NULL,
	step        BIGINT NOT NULL,
	phase       TEXT NOT NULL,
	code        TEXT NOT NULL,
	reason      TEXT NOT NULL,
	recorded_at TIMESTAMPTZ NOT NULL DEFAULT now(),
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
	id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	study_id     BIGINT NOT NULL UNIQUE REFERENCES studies (id),
	space        TEXT NOT NULL,
	options      TEXT NOT NULL,
	sampler      TEXT NOT NULL,
	budget       BIGINT NOT NULL,
	session      BIGINT NOT NULL,
	max_attempts BIGINT NOT NULL,
	created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
	updated_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE tune_trials (
	tune_id    BIGINT NOT NULL REFERENCES tune_studies (id),
	number     BIGINT NOT NULL,
	role       TEXT NOT NULL,
	params     TEXT NOT NULL,
	state      TEXT NOT NULL,
	decision   TEXT NOT NULL,
	verdict    TEXT NOT NULL,
	created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
	updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
	PRIMARY KEY (tune_id, number)
);

CREATE TABLE tune_runs (
	id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	tune_id     BIGINT NOT NULL REFERENCES tune_studies (id),
	number      BIGINT NOT NULL,
	session     BIGINT NOT NULL,
	state       TEXT NOT NULL,
	worker      TEXT NOT NULL,
	handle      TEXT NOT NULL,
	dir         TEXT NOT NULL,
	lease_until BIGINT NOT NULL,
	attempts    BIGINT NOT NULL,
	reason      TEXT NOT NULL,
	result      TEXT NOT NULL,
	created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
	updated_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
	FOREIGN KEY (tune_id, number) REFERENCES tune_trials (tune_id, number)
);
CREATE INDEX tune_runs_state ON tune_runs (tune_id, state, id);
