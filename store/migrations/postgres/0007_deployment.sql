-- What ran each trial (trial.Deployment), when its source says (CloudAI
-- runs): the serving layout (NULL when none), the allocated and serving
-- GPU counts (0 when unknown) with the reasons when unknown, and the
-- executed configuration's path and text, byte for byte (BYTEA: a text
-- column would refuse NUL bytes and invalid UTF-8). A trial whose columns
-- are all empty has no deployment.
ALTER TABLE trials ADD COLUMN layout JSONB;
ALTER TABLE trials ADD COLUMN allocated_gpus BIGINT NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN allocated_gpus_unknown TEXT NOT NULL DEFAULT '';
ALTER TABLE trials ADD COLUMN serving_gpus BIGINT NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN serving_gpus_unknown TEXT NOT NULL DEFAULT '';
ALTER TABLE trials ADD COLUMN config_path TEXT NOT NULL DEFAULT '';
ALTER TABLE trials ADD COLUMN config BYTEA NOT NULL DEFAULT '\x';
