-- What ran each trial (trial.Deployment), when its source says (CloudAI
-- runs): the serving layout as JSON ('' when none), the allocated and
-- serving GPU counts (0 when unknown) with the reasons when unknown, and
-- the executed configuration's path and text, byte for byte. A trial
-- whose columns are all empty has no deployment.
ALTER TABLE trials ADD COLUMN layout TEXT NOT NULL DEFAULT '';
ALTER TABLE trials ADD COLUMN allocated_gpus INTEGER NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN allocated_gpus_unknown TEXT NOT NULL DEFAULT '';
ALTER TABLE trials ADD COLUMN serving_gpus INTEGER NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN serving_gpus_unknown TEXT NOT NULL DEFAULT '';
ALTER TABLE trials ADD COLUMN config_path TEXT NOT NULL DEFAULT '';
ALTER TABLE trials ADD COLUMN config BLOB NOT NULL DEFAULT x'';
