package ingest

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestAsTable checks LoadOptions.AsTable: inside a directory the .csv and
// .jsonl files are read as generic tables (one trial per row, format
// "table"), whatever a reader would take them for (a real SGLang JSONL),
// and the other files as usual; without it the table in the directory is
// skipped as not_a_result (inside a directory only results are read)
// and the SGLang file is read by its reader.
func TestAsTable(t *testing.T) {
	dir := t.TempDir()
	sglang, err := os.ReadFile(filepath.Join("testdata", "sglang", "datacrunch_2024-12_llama_3_3_70b_online_output.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"runs.csv":     "id,config,output_tps,ttft_ms\na,tp2,100,20\nb,tp4,120,25\n",
		"sglang.jsonl": string(sglang),
		"notes.txt":    "tp2 is the baseline\n",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		name    string
		asTable bool
		formats map[string]int // trials per source format
		skipped []string       // file: code
	}{
		{"by content", false, map[string]int{"sglang": 7}, []string{"notes.txt: not_a_result", "runs.csv: not_a_result"}},
		{"as table", true, map[string]int{"table": 9}, []string{"notes.txt: not_a_result"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Load([]string{dir}, LoadOptions{AsTable: tt.asTable})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for _, tr := range d.Trials {
				got[tr.Source.Format]++
			}
			if !maps.Equal(got, tt.formats) {
				t.Errorf("trials per format %v; want %v", got, tt.formats)
			}
			var skips []string
			for _, s := range d.Skipped {
				skips = append(skips, filepath.Base(s.Path)+": "+s.Code)
			}
			slices.Sort(skips)
			if !slices.Equal(skips, tt.skipped) {
				t.Errorf("skipped %v; want %v", skips, tt.skipped)
			}
		})
	}
}
