-- Integrity: reads verify what they read (see Integrity in the package
-- documentation). content_id is the content hash (trial.ComputeID) of the
-- trial as stored when it is not its ID ('' when it is): an ID set by the
-- caller, an ID an upgrade kept, labels SetLabels changed. checksum is
-- the CRC-32C of the fields the content hash does not cover (trialChecksum),
-- and the blocks' and their values' checksums cover their packed data
-- (blockChecksum, valuesChecksum).
ALTER TABLE trials ADD COLUMN content_id TEXT NOT NULL DEFAULT '';
ALTER TABLE trials ADD COLUMN checksum BIGINT NOT NULL DEFAULT 0;
ALTER TABLE blocks ADD COLUMN checksum BIGINT NOT NULL DEFAULT 0;
ALTER TABLE block_values ADD COLUMN checksum BIGINT NOT NULL DEFAULT 0;

-- Go code computes the content hashes and checksums of the stored rows at
-- the next line: what is stored at the upgrade is taken as it is.
-- pareto:fill
