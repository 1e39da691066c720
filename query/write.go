package query

import (
	"bufio"
	"io"
)

// A Result encodes itself in three formats; enc.Write picks one by name.

// WriteJSON writes the JSON contract (docs/COMMANDS.md) of pareto front.
func (r *Result) WriteJSON(w io.Writer) error { return buffered(w, r, writeFrontJSON) }

// WriteCSV writes one row per point with its status.
func (r *Result) WriteCSV(w io.Writer) error { return buffered(w, r, writeFrontCSV) }

// WriteTable writes aligned sections: frontier, dominated, infeasible,
// invalid.
func (r *Result) WriteTable(w io.Writer) error { return buffered(w, r, writeFrontTable) }

// buffered runs one of the encoders on a 64 KiB buffer over out, then
// flushes it (not after an encoder's error).
func buffered(out io.Writer, r *Result, write func(*bufio.Writer, *Result) error) error {
	w := bufio.NewWriterSize(out, 1<<16)
	if err := write(w, r); err != nil {
		return err
	}
	return w.Flush()
}
