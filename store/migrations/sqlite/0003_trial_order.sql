-- Reading a study in ingest order walks this index (sorted by rowid within
-- the study) instead of sorting.
CREATE INDEX trials_study ON trials (study_id);
