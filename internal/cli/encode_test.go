package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pareto-llm/pareto/compare"
	"github.com/pareto-llm/pareto/decide"
	"github.com/pareto-llm/pareto/internal/enc"
	"github.com/pareto-llm/pareto/internal/schematest"
	"github.com/pareto-llm/pareto/trial"
	"github.com/pareto-llm/pareto/tune"
)

// typedResults are the typed results the commands print, by the schema
// of their JSON (docs/schema/NAME.schema.json). pareto front's result
// streams its own JSON (query.Result.WriteJSON) and has no value to
// decode into: query's encode tests hold it to its schema.
var typedResults = map[string]reflect.Type{
	"ask":          reflect.TypeFor[tune.AskResult](),
	"check":        reflect.TypeFor[checkResult](),
	"compare":      reflect.TypeFor[compare.Report](),
	"drift":        reflect.TypeFor[driftResult](),
	"gate":         reflect.TypeFor[verdictResult](),
	"gate-archive": reflect.TypeFor[archiveResult](),
	"ingest":       reflect.TypeFor[ingestResult](),
	"migrate":      reflect.TypeFor[migrateResult](),
	"noise":        reflect.TypeFor[noiseResult](),
	"pick":         reflect.TypeFor[decide.PickOutput](),
	"studies":      reflect.TypeFor[studiesResult](),
	"tell":         reflect.TypeFor[tellResult](),
	"trial":        reflect.TypeFor[trial.Trial](),
	"tune":         reflect.TypeFor[tuneSummary](),
	"tune-status":  reflect.TypeFor[tuneStatusJSON](),
	"version":      reflect.TypeFor[build](),
}

// equalResults compare decoded results: unexported fields (zero when
// decoded) included, NaN (null) equal to NaN.
var equalResults = []cmp.Option{
	cmp.Exporter(func(reflect.Type) bool { return true }),
	cmp.Comparer(func(a, b decide.Num) bool { return a == b || a != a && b != b }),
	cmp.Comparer(func(a, b decide.ExactNum) bool { return a == b || a != a && b != b }),
}

// roundTrip checks data, a command's JSON output (one document, or one
// per line), against the schema NAME (internal/schematest) and against
// its typed result: each document, decoded into the result with no member
// left unknown and encoded again through enc.Write, is the same bytes,
// and decodes to an equal value.
func roundTrip(name string, data []byte) error {
	if err := schematest.Check(name, data); err != nil {
		return err
	}
	typ, ok := typedResults[name]
	if !ok {
		return nil
	}
	for i, doc := range bytes.SplitAfter(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		doc = append(bytes.TrimSuffix(doc, []byte("\n")), '\n')
		v := reflect.New(typ)
		d := json.NewDecoder(bytes.NewReader(doc))
		d.DisallowUnknownFields()
		if err := d.Decode(v.Interface()); err != nil {
			return fmt.Errorf("%s document %d: decoding into %v: %w", name, i+1, typ, err)
		}
		var again bytes.Buffer
		if err := enc.Write(&again, enc.FormatJSON, v.Interface()); err != nil {
			return fmt.Errorf("%s document %d: encoding %v: %w", name, i+1, typ, err)
		}
		if !bytes.Equal(again.Bytes(), doc) {
			return fmt.Errorf("%s document %d: %v encodes again as\n%s\nwant\n%s", name, i+1, typ, again.Bytes(), doc)
		}
		w := reflect.New(typ)
		if err := json.Unmarshal(again.Bytes(), w.Interface()); err != nil {
			return fmt.Errorf("%s document %d: decoding again: %w", name, i+1, err)
		}
		if !cmp.Equal(v.Interface(), w.Interface(), equalResults...) {
			return fmt.Errorf("%s document %d: %v decodes again to another value", name, i+1, typ)
		}
	}
	return nil
}

// validateOutput fails t when data is not a JSON output of schema NAME
// and the encoding of its typed result (roundTrip).
func validateOutput(t testing.TB, name string, data []byte) {
	t.Helper()
	if err := roundTrip(name, data); err != nil {
		t.Errorf("%v\n%s", err, data)
	}
}
