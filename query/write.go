package query

import "io"

// A Result encodes itself in three formats; enc.Write picks one by name.

// WriteJSON writes the JSON contract (docs/COMMANDS.md) of pareto front.
func (r *Result) WriteJSON(w io.Writer) error { return writeFrontJSON(w, r) }

// WriteCSV writes one row per point with its status.
func (r *Result) WriteCSV(w io.Writer) error { return writeFrontCSV(w, r) }

// WriteTable writes aligned sections: frontier, dominated, infeasible,
// invalid.
func (r *Result) WriteTable(w io.Writer) error { return writeFrontTable(w, r) }
