// Package codec is how the stores encode a trial in its row: labels,
// params and dims as JSON (JSONEncoder, Decoder), measurements packed in
// one blob (PackMeasurements, Unpacker), trial IDs packed for blocks
// (AppendID, HashKey), the CRC-32C checksums of rows, blocks and value
// columns (TrialChecksum, BlockChecksum, ValuesChecksum), a trial ready to
// be written (Prepare, Prepared) and its repeat key (SketchKey). It
// imports no database driver and nothing of package store; the SQLite
// and PostgreSQL stores, the columnar blocks and the shared code above
// them use it. See package store's documentation for the format.
package codec
