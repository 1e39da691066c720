-- Reading a study in ingest order walks this index instead of sorting.
CREATE INDEX trials_study ON trials (study_id, id);
