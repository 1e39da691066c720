package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
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

// TestEncodeGolden decodes a JSON output of each command
// (testdata/encode/NAME.json) into its typed result, and writes every
// other format the result offers through enc.Write: each must match its
// golden file testdata/encode/NAME.FORMAT (go test -update rewrites
// them). pareto front, whose result has no JSON decoder, runs on
// examples/trials.csv.
func TestEncodeGolden(t *testing.T) {
	// Fields a command sets from its flags, not its JSON.
	flags := map[string]func(any){
		"noise": func(v any) { r := v.(*noiseResult); r.confidence, r.minRepeats = 0.95, 3 },
		"drift": func(v any) { v.(*driftResult).confidence = 0.95 },
	}
	formats := []struct {
		f      enc.Format
		offers func(any) bool
	}{
		{enc.FormatTable, func(v any) bool { _, ok := v.(enc.TableWriter); return ok }},
		{enc.FormatCSV, func(v any) bool { _, ok := v.(enc.CSVWriter); return ok }},
		{enc.FormatMarkdown, func(v any) bool { _, ok := v.(enc.MarkdownWriter); return ok }},
	}
	paths, err := filepath.Glob("testdata/encode/*.json")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no testdata/encode/*.json: %v", err)
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		if name == "front" { // the golden JSON of the front run below
			continue
		}
		t.Run("result="+name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := roundTrip(name, data); err != nil {
				t.Fatal(err)
			}
			v := reflect.New(typedResults[name]).Interface()
			if err := json.Unmarshal(data, v); err != nil {
				t.Fatal(err)
			}
			if set := flags[name]; set != nil {
				set(v)
			}
			n := 0
			for _, f := range formats {
				if !f.offers(v) {
					continue
				}
				n++
				var got bytes.Buffer
				if err := enc.Write(&got, f.f, v); err != nil {
					t.Fatal(err)
				}
				golden(t, filepath.Join("testdata/encode", name+"."+string(f.f)), got.Bytes())
			}
			if n == 0 {
				t.Errorf("%T offers no format beside JSON", v)
			}
		})
	}
	t.Run("result=front", func(t *testing.T) {
		for _, f := range []enc.Format{enc.FormatTable, enc.FormatCSV, enc.FormatJSON} {
			var stdout, stderr bytes.Buffer
			args := []string{"front", "../../examples/trials.csv", "-o", "ttft_p99_ms:min", "-o", "output_tps:max", "--format", string(f)}
			if code := Main(t.Context(), args, nil, &stdout, &stderr); code != 0 {
				t.Fatalf("pareto %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
			}
			if f == enc.FormatJSON {
				schematest.Validate(t, "front", stdout.Bytes())
			}
			golden(t, "testdata/encode/front."+string(f), stdout.Bytes())
		}
	})
}

// golden compares got with the file at path, or rewrites it under
// -update; a mismatch writes path.got beside it.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *updateDocs {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		os.WriteFile(path+".got", got, 0o644)
		t.Errorf("%s differs from what the result encodes (see %s.got):\n%s", path, path, cmp.Diff(string(want), string(got)))
	}
}

// TestTypedResultsCoverSchemas: every JSON output a schema describes has
// a typed result that roundTrip decodes it into (pareto front's streams
// its own JSON, held to its schema by query's tests and the scripts).
func TestTypedResultsCoverSchemas(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(schematest.Dir(), "*.schema.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no schemas in %s: %v", schematest.Dir(), err)
	}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".schema.json")
		if _, ok := typedResults[name]; !ok && name != "front" {
			t.Errorf("docs/schema/%s.schema.json has no typed result in typedResults", name)
		}
	}
}
