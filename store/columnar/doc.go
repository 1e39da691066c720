// Package columnar is the columnar copy of a study's trials that the
// stores keep beside the rows: blocks of up to BlockTrials trials of one
// ingest (their row ids, IDs and problems, and one column of float64
// values per (metric, dims) pair, Block) and the trials' sketches
// (Sketcher, UnpackSketches: the repeat key and what names a row), with
// their checksums (SketchChecksum, SketchVersion), and how both dialects
// write them (WriteBlock). Reading them back into store.Columns is the
// stores' (package store/internal/shared). See package store's
// documentation, "Columnar reads", for the format.
package columnar
