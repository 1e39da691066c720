// Package report writes pareto.html: CloudAI's [reports.pareto]
// configuration (Config, ReadConfig; pareto.toml holds the same tables),
// the page model (Page: per plot and frontier group the points, their
// frontier status, ties, repeats and baseline deltas, computed through
// package query as pareto front computes them; the points' details; the
// exclusions) built by Build, and the self-contained page Render writes.
//
// The page inlines its data (JSON, the points column by column), its
// JavaScript and CSS (assets/, written for this project, no third-party
// code) and forbids every network load (CSP). In the browser it draws one
// canvas chart per plot through a painter shared with the SVG export;
// offers box, axis and Ctrl+wheel zoom, pan, keyboard navigation and pins
// that never scroll the page; and holds a frontier simulator that
// recomputes the noise-aware frontier with the engine's relation
// (assets/frontier.js, checked against frontier.Analyze by the browser
// tests). When every chart is drawn it sets data-state="ready" on <html>.
package report
