-- Studies, trials and their measurements. There is no frontier table: a
-- frontier is computed from the trials whenever asked.
CREATE TABLE studies (
	id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	name       TEXT NOT NULL UNIQUE,
	created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE trials (
	id                    BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	study_id              BIGINT NOT NULL REFERENCES studies (id),
	hash                  TEXT NOT NULL,
	source_path           TEXT NOT NULL,
	source_format         TEXT NOT NULL,
	source_format_version TEXT NOT NULL,
	source_line           BIGINT NOT NULL,
	source_index          BIGINT NOT NULL,
	labels                JSONB NOT NULL,
	params                JSONB NOT NULL,
	input_tokens          DOUBLE PRECISION,
	output_tokens         DOUBLE PRECISION,
	mean_input_tokens     DOUBLE PRECISION,
	mean_output_tokens    DOUBLE PRECISION,
	concurrency           DOUBLE PRECISION,
	achieved_concurrency  DOUBLE PRECISION,
	request_rate          DOUBLE PRECISION,
	users                 DOUBLE PRECISION,
	requests              BIGINT NOT NULL,
	succeeded             BIGINT NOT NULL,
	failed                BIGINT NOT NULL,
	problem               TEXT NOT NULL,
	warnings              JSONB NOT NULL,
	engine                TEXT NOT NULL,
	engine_version        TEXT NOT NULL,
	cuda                  TEXT NOT NULL,
	driver                TEXT NOT NULL,
	gpu                   TEXT NOT NULL,
	host                  TEXT NOT NULL,
	ingested_at           TIMESTAMPTZ NOT NULL DEFAULT now(),
	UNIQUE (study_id, hash)
);

CREATE TABLE measurements (
	trial_id    BIGINT NOT NULL REFERENCES trials (id) ON DELETE CASCADE,
	seq         INTEGER NOT NULL,
	metric      TEXT NOT NULL,
	dims        TEXT NOT NULL,
	value       DOUBLE PRECISION,
	unit        TEXT NOT NULL,
	native      TEXT NOT NULL,
	source_unit TEXT NOT NULL,
	PRIMARY KEY (trial_id, seq)
);
