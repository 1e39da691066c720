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
CREATE INDEX trials_engine ON trials (study_id, engine, engine_version);
