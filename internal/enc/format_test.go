package enc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"testing"

	"github.com/pareto-llm/pareto/trial"
)

// result offers a table and CSV, and JSON from its value.
type result struct {
	Name  string  `json:"name"`
	Bound string  `json:"bound"`
	Value float64 `json:"value"`
}

func (r result) WriteTable(w io.Writer) error {
	_, err := io.WriteString(w, "table "+r.Name+"\n")
	return err
}
func (r result) WriteCSV(w io.Writer) error {
	_, err := io.WriteString(w, "name\n"+r.Name+"\n")
	return err
}

// streamed writes its own JSON and a format of its own.
type streamed struct{}

func (streamed) WriteJSON(w io.Writer) error {
	_, err := io.WriteString(w, "{\"own\":true}\n")
	return err
}
func (streamed) WriteFormat(w io.Writer, f Format) error {
	if f != "env" {
		return &FormatError{Name: string(f)}
	}
	_, err := io.WriteString(w, "OWN=1\n")
	return err
}

// TestWrite picks each result's writer by format, encodes JSON from the
// value (without HTML escaping) when the result has no writer of its
// own, and refuses a format the result cannot write.
func TestWrite(t *testing.T) {
	r := result{Name: "a<b&c", Bound: "ttft<=200", Value: 1.5}
	for _, tt := range []struct {
		name   string
		f      Format
		v      any
		want   string
		refuse bool
	}{
		{"table", FormatTable, r, "table a<b&c\n", false},
		{"csv", FormatCSV, r, "name\na<b&c\n", false},
		{"json from the value", FormatJSON, r, `{"name":"a<b&c","bound":"ttft<=200","value":1.5}` + "\n", false},
		{"own json", FormatJSON, streamed{}, "{\"own\":true}\n", false},
		{"own format", "env", streamed{}, "OWN=1\n", false},
		{"no markdown", FormatMarkdown, r, "", true},
		{"no table", FormatTable, streamed{}, "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			err := Write(&b, tt.f, tt.v)
			if _, ok := errors.AsType[*FormatError](err); ok != tt.refuse {
				t.Fatalf("Write(%s) = %v; want a *FormatError: %v", tt.f, err, tt.refuse)
			}
			if got := b.String(); got != tt.want {
				t.Errorf("Write(%s) = %q; want %q", tt.f, got, tt.want)
			}
		})
	}
}

func TestParseFormat(t *testing.T) {
	offered := []Format{FormatTable, FormatJSON, FormatMarkdown}
	if f, err := ParseFormat("json", offered...); err != nil || f != FormatJSON {
		t.Errorf(`ParseFormat("json") = %q, %v; want json`, f, err)
	}
	for _, tt := range []struct {
		offered []Format
		want    string
	}{
		{offered, `unknown format "xml" (want table, json or markdown)`},
		{offered[:2], `unknown format "xml" (want table or json)`},
		{offered[:1], `unknown format "xml" (want table)`},
	} {
		_, err := ParseFormat("xml", tt.offered...)
		if err == nil || err.Error() != tt.want {
			t.Errorf("ParseFormat(xml, %v) = %v; want %s", tt.offered, err, tt.want)
		}
	}
}

// TestJSONArrays: Strs, Nums and Skips write what encoding/json reads
// back, NaN as null.
func TestJSONArrays(t *testing.T) {
	var j JSON
	j.Raw(`{"s":`)
	j.Strs([]string{"a", "b\"\n", ""})
	j.Raw(`,"n":`)
	j.Nums([]float64{1, 2.5e-7, math.NaN()})
	j.Raw(`,"e":`)
	j.Strs(nil)
	j.Raw("}")
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	if err := j.Flush(w, true); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	var got struct {
		S []string   `json:"s"`
		N []*float64 `json:"n"`
		E []string   `json:"e"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, buf.Bytes())
	}
	if len(got.S) != 3 || got.S[1] != "b\"\n" || len(got.N) != 3 || *got.N[1] != 2.5e-7 || got.N[2] != nil || got.E == nil || len(got.E) != 0 {
		t.Errorf("decoded %+v from %s", got, buf.Bytes())
	}
	sk := Skips{{Path: "a.json", Code: "error", Reason: "bad <value>", Key: "k"}}
	b, err := json.Marshal(struct {
		S Skips `json:"skipped"`
		N Skips `json:"none"`
	}{S: sk})
	if want := `{"skipped":[{"path":"a.json","run":"","code":"error","reason":"bad \u003cvalue\u003e"}],"none":[]}`; err != nil || string(b) != want {
		t.Errorf("Skips = %s, %v; want %s", b, err, want)
	}
	var back []trial.Skip
	if err := json.Unmarshal(b[len(`{"skipped":`):len(b)-len(`,"none":[]}`)], &back); err != nil || len(back) != 1 || back[0].Reason != "bad <value>" {
		t.Errorf("Skips decode back as %+v, %v", back, err)
	}
}
