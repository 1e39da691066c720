package report

import (
	"bufio"
	"bytes"
	"io/fs"
	"slices"
	"testing"
)

// TestReportScriptsListed checks that script inlines every embedded
// report-*.js file, each once, so a new file cannot be left out of the page.
func TestReportScriptsListed(t *testing.T) {
	files, err := fs.Glob(assets, "assets/report-*.js")
	if err != nil {
		t.Fatal(err)
	}
	listed := slices.Sorted(slices.Values(reportScripts))
	if !slices.Equal(files, listed) || len(slices.Compact(listed)) != len(reportScripts) {
		t.Errorf("reportScripts = %q; embedded files = %q", reportScripts, files)
	}
}

// TestWriteData checks that the page data Render streams equals
// encoding/json's encoding of the page (so a new Page field cannot be left
// out of it).
func TestWriteData(t *testing.T) {
	for name, page := range map[string]*Page{"fixture": buildFixture(t), "repeats": repeatsPage(t), "empty": {Plots: []PagePlot{}}} {
		want, err := MarshalData(page, false)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		w := bufio.NewWriter(&got)
		if err := writeData(w, page); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		if got.String() != string(want) {
			t.Errorf("%s: streamed data differs from MarshalData:\n got %.300s\nwant %.300s", name, got.String(), want)
		}
	}
}
