-- Trial IDs hash the trial's position as well as its content (trial IDs
-- "pareto-trial-v3"): two runs with identical numbers, in two files or two
-- records of one file, are two trials. source_key names the file
-- independently of the working directory it was read from ('' when
-- source_path says it).
ALTER TABLE trials ADD COLUMN source_key TEXT NOT NULL DEFAULT '';

-- Go code gives each stored trial its key and, where its ID is the content
-- hash of schema version 5, the ID of the same content at its position,
-- and rewrites the blocks' copies of the IDs.
-- pareto:fill
