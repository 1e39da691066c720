package enc

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Format names an encoding of a typed result: what a command's --format
// and an MCP tool's format argument choose.
type Format string

// The encodings every result may offer. A command offers a subset
// (ParseFormat); a result type says which it can write by the methods it
// has (Write).
const (
	FormatTable    Format = "table"    // aligned text for a reader (TableWriter)
	FormatJSON     Format = "json"     // one JSON document (JSONWriter, else EncodeJSON)
	FormatCSV      Format = "csv"      // RFC 4180 rows (CSVWriter)
	FormatMarkdown Format = "markdown" // a Markdown summary (MarkdownWriter)
)

// TableWriter is a result that writes itself as aligned text (Section).
type TableWriter interface{ WriteTable(w io.Writer) error }

// JSONWriter is a result that writes its own JSON document, for results
// too large to build as a value first (the frontier of a million
// trials). Other results are encoded from their value (EncodeJSON).
type JSONWriter interface{ WriteJSON(w io.Writer) error }

// CSVWriter is a result that writes itself as CSV rows with a header.
type CSVWriter interface{ WriteCSV(w io.Writer) error }

// MarkdownWriter is a result that writes itself as Markdown.
type MarkdownWriter interface{ WriteMarkdown(w io.Writer) error }

// FormatWriter is a result with encodings of its own beyond the four
// above (pick's toml and env, an export's jsonl).
type FormatWriter interface {
	WriteFormat(w io.Writer, f Format) error
}

// Write encodes result to w as f: through the result's own writer for f,
// or, for JSON, from its value (EncodeJSON). A format the result cannot
// write is a *FormatError.
func Write(w io.Writer, f Format, result any) error {
	switch f {
	case FormatTable:
		if r, ok := result.(TableWriter); ok {
			return r.WriteTable(w)
		}
	case FormatJSON:
		if r, ok := result.(JSONWriter); ok {
			return r.WriteJSON(w)
		}
		return EncodeJSON(w, result)
	case FormatCSV:
		if r, ok := result.(CSVWriter); ok {
			return r.WriteCSV(w)
		}
	case FormatMarkdown:
		if r, ok := result.(MarkdownWriter); ok {
			return r.WriteMarkdown(w)
		}
	}
	if r, ok := result.(FormatWriter); ok {
		return r.WriteFormat(w, f)
	}
	return &FormatError{Name: string(f)}
}

// EncodeJSON writes v as one line of JSON, without HTML escaping (a
// bound reads "ttft<=200", not "ttft\u003c=200"): the one JSON encoder
// of every result that is not a JSONWriter.
func EncodeJSON(w io.Writer, v any) error {
	e := json.NewEncoder(w)
	e.SetEscapeHTML(false)
	return e.Encode(v)
}

// ParseFormat returns name as a Format when it is one of offered, and a
// *FormatError listing them when it is not.
func ParseFormat(name string, offered ...Format) (Format, error) {
	if slices.Contains(offered, Format(name)) {
		return Format(name), nil
	}
	return "", &FormatError{Name: name, Offered: offered}
}

// FormatError is a format that is not offered: Name, and the formats
// that are (none known when a result cannot write Name).
type FormatError struct {
	Name    string
	Offered []Format
}

// Want lists the offered formats as a sentence: "table or json",
// "table, json or markdown".
func (e *FormatError) Want() string {
	s := make([]string, len(e.Offered))
	for i, f := range e.Offered {
		s[i] = string(f)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

func (e *FormatError) Error() string {
	if len(e.Offered) == 0 {
		return fmt.Sprintf("format %q: this result has no such encoding", e.Name)
	}
	return fmt.Sprintf("unknown format %q (want %s)", e.Name, e.Want())
}
