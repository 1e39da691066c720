package report

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"html"
	"io/fs"
	"slices"
	"strings"
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

// TestPolicyHashes renders a page and checks that its Content-Security-
// Policy allows exactly its inline script and style by their SHA-256 (the
// bytes between the tags, as a browser hashes them), and nothing inline
// otherwise.
func TestPolicyHashes(t *testing.T) {
	var buf bytes.Buffer
	if err := Render(&buf, buildFixture(t)); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	between := func(open, close string) string {
		_, rest, ok := strings.Cut(page, open)
		if !ok {
			t.Fatalf("no %s in the page", open)
		}
		body, _, ok := strings.Cut(rest, close)
		if !ok {
			t.Fatalf("%s not closed", open)
		}
		return body
	}
	meta := html.UnescapeString(between(`<meta http-equiv="Content-Security-Policy" content="`, `"`))
	if strings.Contains(meta, "unsafe-inline") || strings.Contains(meta, "unsafe-eval") {
		t.Errorf("policy %q allows inline code", meta)
	}
	hash := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	js, css := between("<script>", "</script>"), between("<style>", "</style>")
	for _, want := range []string{"script-src " + hash(js) + ";", "style-src " + hash(css) + ";", "default-src 'none';"} {
		if !strings.Contains(meta, want) {
			t.Errorf("policy %q lacks %q", meta, want)
		}
	}
	if strings.Count(page, "<script>") != 1 || strings.Count(page, "<style>") != 1 {
		t.Errorf("the page has %d scripts and %d styles; want one of each", strings.Count(page, "<script>"), strings.Count(page, "<style>"))
	}
}

// TestRenderRedactsNames checks that a token in the page's title, source or
// a plot's name (a scenario named after a command line, say) is not in the
// page.
func TestRenderRedactsNames(t *testing.T) {
	page := buildFixture(t)
	const token = "hf_abcdefghijklmnopqrstuvwxyz0123"
	page.Title, page.Source = "bench --api-key SEKRETpassw0rd "+token, "runs/"+token+".json"
	page.Plots[0].Name = "Bearer SEKRETbearer0123"
	var buf bytes.Buffer
	if err := Render(&buf, page); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"SEKRETpassw0rd", token, "SEKRETbearer0123"} {
		if strings.Contains(buf.String(), s) {
			t.Errorf("the page holds %q", s)
		}
	}
	if !strings.Contains(buf.String(), "bench --api-key") {
		t.Error("the page lost the title's words around the secret")
	}
}
