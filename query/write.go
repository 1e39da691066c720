package query

import "io"

// Write encodes the result as format: "json" (WriteJSON), "csv"
// (WriteCSV) or "table" (WriteTable, the default).
func (r *Result) Write(w io.Writer, format string) error {
	switch format {
	case "json":
		return r.WriteJSON(w)
	case "csv":
		return r.WriteCSV(w)
	default:
		return r.WriteTable(w)
	}
}

// WriteJSON writes the JSON contract (docs/COMMANDS.md) of pareto front.
func (r *Result) WriteJSON(w io.Writer) error { return writeFrontJSON(w, r) }

// WriteCSV writes one row per point with its status.
func (r *Result) WriteCSV(w io.Writer) error { return writeFrontCSV(w, r) }

// WriteTable writes aligned sections: frontier, dominated, infeasible,
// invalid.
func (r *Result) WriteTable(w io.Writer) error { return writeFrontTable(w, r) }
