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
