-- Packed measurements: each trial's measurements become one blob of its
-- row, and blocks of trials (what one ingest added) keep one blob of
-- values per (metric, dims) pair for columnar reads. The measurements
-- table and its per-measurement index go; trials_study keeps the study
-- only (the index entries carry the row id, in ingest order).
ALTER TABLE trials ADD COLUMN measurements BLOB NOT NULL DEFAULT x'';

CREATE TABLE blocks (
	id          INTEGER PRIMARY KEY,
	study_id    INTEGER NOT NULL REFERENCES studies (id),
	first_trial INTEGER NOT NULL,
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

-- Go code packs the existing measurements at the next line.
-- pareto:fill

DROP INDEX measurements_metric;
DROP TABLE measurements;
DROP INDEX trials_study;
CREATE INDEX trials_study ON trials (study_id);
