// Package schematest validates JSON documents a command or a library
// prints against the JSON Schemas published in docs/schema/, so that
// every JSON output is held to its schema by the tests that produce it.
package schematest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Dir returns the directory holding the schemas: docs/schema at the root
// of the module.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "docs", "schema")
}

var (
	mu       sync.Mutex
	compiled = map[string]*jsonschema.Schema{}
)

// Schema compiles docs/schema/NAME.schema.json once per process. Every
// schema of the directory is known to the compiler by its $id, so that one
// refers to another ("$ref": "gate.schema.json") without a network.
func Schema(name string) (*jsonschema.Schema, error) {
	mu.Lock()
	defer mu.Unlock()
	if s, ok := compiled[name]; ok {
		return s, nil
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	paths, err := filepath.Glob(filepath.Join(Dir(), "*.schema.json"))
	if err != nil {
		return nil, err
	}
	want := filepath.Join(Dir(), name+".schema.json")
	url := ""
	for _, path := range paths {
		doc, err := readSchema(path)
		if err != nil {
			return nil, err
		}
		u := "file://" + filepath.ToSlash(path)
		if m, ok := doc.(map[string]any); ok {
			if id, ok := m["$id"].(string); ok && id != "" {
				u = id
			}
		}
		if err := c.AddResource(u, doc); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if path == want {
			url = u
		}
	}
	if url == "" {
		return nil, fmt.Errorf("%s: %w", want, os.ErrNotExist)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", want, err)
	}
	compiled[name] = s
	return s, nil
}

// readSchema reads one schema file as JSON.
func readSchema(path string) (any, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return doc, nil
}

// Check validates every JSON document in data (one, or one per line as
// JSON Lines) against the schema NAME and returns the first violation.
func Check(name string, data []byte) error {
	s, err := Schema(name)
	if err != nil {
		return err
	}
	docs := 0
	for i, line := range splitDocs(data) {
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
		if err != nil {
			return fmt.Errorf("document %d is not JSON: %w", i+1, err)
		}
		if err := s.Validate(v); err != nil {
			return fmt.Errorf("document %d does not satisfy %s.schema.json: %w", i+1, name, err)
		}
		docs++
	}
	if docs == 0 {
		return fmt.Errorf("no JSON document to validate against %s.schema.json", name)
	}
	return nil
}

// splitDocs returns the one document of data, or its lines when it holds
// one document per line.
func splitDocs(data []byte) [][]byte {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil
	}
	if !bytes.Contains(data, []byte("\n")) || bytes.HasPrefix(data, []byte("{\n")) || bytes.HasPrefix(data, []byte("[\n")) {
		return [][]byte{data}
	}
	var out [][]byte
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, []byte(l))
		}
	}
	return out
}

// Validate fails t when data does not satisfy the schema NAME.
func Validate(t testing.TB, name string, data []byte) {
	t.Helper()
	if err := Check(name, data); err != nil {
		t.Errorf("%v\n%s", err, data)
	}
}
