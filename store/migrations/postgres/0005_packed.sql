-- Packed measurements: each trial's measurements become one blob of its
-- row, and blocks of trials (what one ingest batch added) keep one blob of
-- values per (metric, dims) pair for columnar reads. The measurements
-- table and its per-measurement index go; trials_study keeps the study
-- and row id only.
ALTER TABLE trials ADD COLUMN measurements BYTEA NOT NULL DEFAULT '\x';

CREATE TABLE blocks (
	id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	study_id    BIGINT NOT NULL REFERENCES studies (id),
	first_trial BIGINT NOT NULL,
	last_trial  BIGINT NOT NULL,
	trials      INTEGER NOT NULL,
	row_ids     BYTEA NOT NULL,
	ids         BYTEA NOT NULL,
	problems    BYTEA NOT NULL
);
CREATE INDEX blocks_study ON blocks (study_id, first_trial);

CREATE TABLE block_values (
	block_id BIGINT NOT NULL REFERENCES blocks (id),
	metric   TEXT NOT NULL,
	dims     TEXT NOT NULL,
	vals     BYTEA NOT NULL,
	PRIMARY KEY (block_id, metric, dims)
);
-- Packed floats do not compress: store them out of line uncompressed.
ALTER TABLE block_values ALTER COLUMN vals SET STORAGE EXTERNAL;
ALTER TABLE blocks ALTER COLUMN ids SET STORAGE EXTERNAL;

-- Go code packs the existing measurements at the next line, and gives the
-- trials whose ID is an earlier version's content hash the current one.
-- pareto:fill

DROP TABLE measurements;
DROP INDEX trials_study;
CREATE INDEX trials_study ON trials (study_id, id);
