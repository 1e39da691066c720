package source

import (
	"github.com/pareto-llm/pareto/table"
)

// TableColumns reads the file at path column by column (spec's columns, as
// front reads a generic table, Rows) when it is a generic CSV or JSONL
// table, within lim, and reports whether it is one: a directory,
// standard input ("-") and a benchmark result file are not (false, no
// error). A JSON array of objects, which ingest reads as no table, is not
// one either; asTable is LoadOptions.AsTable. The error is the table's (a missing column, a syntax
// error): the caller that can read the file as trials instead (Stream)
// then has ingest say what it makes of it.
func TableColumns(path string, spec table.Spec, lim Limits, asTable bool) (*table.Table, bool, error) {
	if path == "-" {
		return nil, false, nil
	}
	kind, _, err := sniff(nil, path, lim, asTable)
	if err != nil || kind != kindTable {
		return nil, false, err
	}
	t, err := readTable(nil, path, spec, lim)
	if err != nil {
		return nil, true, err
	}
	if t.Format == "json" {
		return nil, false, nil
	}
	return t, true, nil
}
