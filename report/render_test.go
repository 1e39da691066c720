package report

import (
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
