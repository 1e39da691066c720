package report

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"slices"

	"github.com/pareto-llm/pareto/internal/atomicfile"
	"github.com/pareto-llm/pareto/trial"
)

// The page's JavaScript, CSS and HTML skeleton are written for this project
// (no third-party code) and embedded in the binary.
//
//go:embed assets/repeats.js assets/frontier.js assets/report-*.js assets/report.css assets/report.html.tmpl
var assets embed.FS

// reportScripts are the report's JavaScript files, split by concern, in the
// order they run: shared state and helpers first, start-up last.
var reportScripts = []string{
	"assets/report-core.js",     // page data, shared state, helpers, ticks
	"assets/report-paint.js",    // canvas and SVG painters, marker shapes
	"assets/report-chart.js",    // Chart: view state, section, controls
	"assets/report-density.js",  // density layer of many dominated points
	"assets/report-draw.js",     // the picture, hover grid
	"assets/report-interact.js", // mouse, touch, wheel and keyboard
	"assets/report-svg.js",      // SVG export
	"assets/report-tables.js",   // measurement and exclusion tables
	"assets/report-details.js",  // details of the pinned point
	"assets/report-sim.js",      // frontier simulator
	"assets/report-compare.js",  // comparisons: frontiers, uplift, buckets
	"assets/report-state.js",    // the view in the URL, PNG and CSV export
	"assets/report-main.js",     // start-up
}

var pageTemplate = template.Must(template.ParseFS(assets, "assets/report.html.tmpl"))

// Policy returns the page's Content-Security-Policy for its script and
// style: exactly these two inline elements may run and apply (by their
// SHA-256, computed when the page is written, so no 'unsafe-inline'),
// images only from data: URLs, every network load forbidden.
func Policy(js, css []byte) string {
	hash := func(b []byte) string {
		sum := sha256.Sum256(b)
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	return "default-src 'none'; script-src " + hash(js) + "; style-src " + hash(css) + "; img-src data:"
}

// MarshalData encodes the page data as the page embeds it: JSON with <, >
// and & escaped (so no string can close the script element), indented
// for golden files when indent is set.
func MarshalData(p *Page, indent bool) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(true)
	if indent {
		enc.SetIndent("", " ")
	}
	if err := enc.Encode(p); err != nil {
		return nil, fmt.Errorf("encoding report data: %w", err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// dataMark stands for the page data in the rendered template; Render
// streams the data in its place.
const dataMark = "\x00pareto-data\x00"

// Render writes the self-contained HTML page. The page data is encoded
// straight into w (buffered), not built as one string first: a
// 100,000-point page holds no extra copies of its ten megabytes.
func Render(w io.Writer, p *Page) error {
	p = redactNames(p)
	js, err := script()
	if err != nil {
		return err
	}
	css, err := assets.ReadFile("assets/report.css")
	if err != nil {
		return err
	}
	title := p.Title
	if title == "" {
		title = "Pareto report"
	}
	var page bytes.Buffer
	err = pageTemplate.Execute(&page, map[string]any{
		"Title": title,
		// the policy is built here of fixed words and base64 digests
		"CSP": template.HTMLAttr(`content="` + Policy(js, css) + `"`),
		// the data is streamed in place of the mark (JSON from the encoder
		// with <, >, & escaped); js and css are this package's own files.
		"Data": template.JS(dataMark),
		"JS":   template.JS(js),
		"CSS":  template.CSS(css),
	})
	if err != nil {
		return err
	}
	head, tail, ok := bytes.Cut(page.Bytes(), []byte(dataMark))
	if !ok {
		return fmt.Errorf("rendering report: the template lost the data mark")
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.Write(head)
	if err := writeData(bw, p); err != nil {
		return fmt.Errorf("encoding report data: %w", err)
	}
	bw.Write(tail)
	return bw.Flush()
}

// redactNames returns p with its title, source and plot names through
// the one redaction policy (trial.RedactText): they come from a
// scenario's name, a file's path or a command line, which may carry a
// token. The page's trials were redacted when read.
func redactNames(p *Page) *Page {
	out := *p
	out.Title, out.Source = trial.RedactText(p.Title), trial.RedactText(p.Source)
	if len(p.Plots) > 0 {
		out.Plots = slices.Clone(p.Plots)
		for i := range out.Plots {
			out.Plots[i].Name = trial.RedactText(out.Plots[i].Name)
		}
	}
	return &out
}

// writeData writes the page data as MarshalData does (without indent),
// field by field, so that no buffer holds all of it: only one field's
// encoding (the plots, or the point columns) at a time. TestWriteData
// keeps it equal to encoding/json's output of Page.
func writeData(w *bufio.Writer, p *Page) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(true)
	fields := []struct {
		name string
		v    any
		omit bool
	}{
		{"title", p.Title, false}, {"source", p.Source, p.Source == ""}, {"plots", p.Plots, false},
		{"points", p.Points.columns(), false}, {"layouts", p.Layouts, false}, {"configs", p.Configs, false},
		{"exclusions", p.Exclusions, false}, {"warnings", p.Warnings, len(p.Warnings) == 0},
		{"aggregate", p.Aggregate, false}, {"baseline", p.Baseline, p.Baseline == ""},
		{"comparisons", p.Comparisons, len(p.Comparisons) == 0},
	}
	sep := byte('{')
	for _, f := range fields {
		if f.omit {
			continue
		}
		buf.Reset()
		if err := enc.Encode(f.v); err != nil {
			return err
		}
		w.WriteByte(sep)
		sep = ','
		w.WriteString(`"` + f.name + `":`)
		w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	}
	_, err := w.WriteString("}")
	return err
}

// script returns the page's JavaScript for its one script element: the
// repeats helpers and the frontier relation, then the report's files wrapped in one strict-mode
// function, so that they share one scope (no modules, no bundler) without
// adding names to the page's globals.
func script() ([]byte, error) {
	var out []byte
	for _, name := range []string{"assets/repeats.js", "assets/frontier.js"} {
		b, err := assets.ReadFile(name)
		if err != nil {
			return nil, err
		}
		out = append(append(out, b...), '\n')
	}
	out = append(out, "(function () {\n'use strict';\n"...)
	for _, name := range reportScripts {
		b, err := assets.ReadFile(name)
		if err != nil {
			return nil, err
		}
		out = append(append(out, b...), '\n')
	}
	return append(out, "}());\n"...), nil
}

// WriteFile renders the page to path atomically (atomicfile.Write): an
// interrupted run never leaves a partial report.
func WriteFile(path string, p *Page) error {
	return atomicfile.Write(path, func(w io.Writer) error { return Render(w, p) })
}
