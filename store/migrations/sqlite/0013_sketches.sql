-- Sketches: every block keeps, for its trials, their repeat keys and what
-- names them (see Sketches in sketch.go), so that a frontier of the median
-- of repeats reads blocks instead of trials. sketch_version is the
-- definition of the keys they follow, '' when the block has none;
-- sketch_checksum covers the first row id, the version and the sketches.
ALTER TABLE blocks ADD COLUMN sketches BLOB NOT NULL DEFAULT x'';
ALTER TABLE blocks ADD COLUMN sketch_version TEXT NOT NULL DEFAULT '';
ALTER TABLE blocks ADD COLUMN sketch_checksum INTEGER NOT NULL DEFAULT 0;

-- Go code computes the sketches of the stored blocks from their trials at
-- the next line.
-- pareto:fill
