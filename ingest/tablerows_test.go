package ingest

import (
	"slices"
	"testing"
)

// TestTableRows: with TableOptions.Rows, the rows it accepts become the
// trials they are without it (same IDs, lines and indexes), the others
// none, and a table whose rows it all refuses gives no trial and no error.
func TestTableRows(t *testing.T) {
	data := []byte("id,ttft_ms,tps,note\na,100,1000,x\nb,105,1050,\nc,300,900,y\nd,50,20,z\n")
	all, err := ReadTable(data, "t.csv", TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, keep := range [][]int{{1, 3}, {0}, {0, 1, 2, 3}, {}} {
		got, err := ReadTable(data, "t.csv", TableOptions{Rows: func(path string, r int) bool {
			if path != "t.csv" {
				t.Errorf("Rows asked about %q", path)
			}
			return slices.Contains(keep, r)
		}})
		if err != nil {
			t.Fatalf("keep %v: %v", keep, err)
		}
		if len(got) != len(keep) {
			t.Fatalf("keep %v: %d trials", keep, len(got))
		}
		for k, r := range keep {
			w := &all[r]
			if g := &got[k]; g.ID != w.ID || g.Source != w.Source || g.Labels["id"] != w.Labels["id"] {
				t.Errorf("keep %v: trial %d is %s (%+v), want %s (%+v)", keep, k, g.ID, g.Source, w.ID, w.Source)
			}
		}
	}
	if _, err := ReadTable([]byte("id,ttft_ms\n"), "t.csv", TableOptions{Rows: func(string, int) bool { return false }}); err == nil {
		t.Error("a table with a header and no rows read without an error")
	}
}
