// pareto.html: interactive Pareto frontier report. Written for this project,
// no third-party code. All data comes from the JSON block #pareto-data and is
// only ever inserted with textContent, never as HTML.
//
// The report is split by concern into report-*.js files that render.go
// inlines in one script element, after repeats.js, in this order: core,
// chart, draw, svg, tables, details, main. It wraps them in one strict-mode
// function, so they share one scope (their top-level names stay out of the
// page's globals) and must not be loaded as modules or on their own.
//
// This file holds the page data, the shared state (the test hook
// window.__pareto, the charts and the show-dominated switch) and the small
// helpers every other file uses: DOM building, number formatting, colours,
// axis ticks, point names and downloads.

var t0 = performance.now();
var data = JSON.parse(document.getElementById('pareto-data').textContent);
// Okabe-Ito, colour-blind safe; markers vary too.
var PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#8C6D1F', '#999999'];
var SHAPES = ['circle', 'square', 'triangle', 'diamond'];
var STATUS = ['frontier', 'dominated', 'infeasible'];
var R = ParetoRepeats;
var api = { ready: false, drawn: {}, drawnDominated: {}, errorBars: {}, baselineDrawn: {}, renderMs: 0, redrawMs: 0, lastCopied: null };
window.__pareto = api;
var charts = [];
var state = { showDominated: false };

// ---- helpers ----------------------------------------------------------
function el(tag, attrs) {
  var e = document.createElement(tag);
  if (attrs) {
    Object.keys(attrs).forEach(function (k) {
      if (k === 'text') { e.textContent = attrs[k]; } else if (k === 'class') { e.className = attrs[k]; } else { e.setAttribute(k, attrs[k]); }
    });
  }
  for (var i = 2; i < arguments.length; i++) {
    var c = arguments[i];
    if (c == null) { continue; }
    e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return e;
}
function fmt(v) {
  if (typeof v !== 'number') { return String(v); }
  if (!isFinite(v)) { return String(v); }
  var a = Math.abs(v);
  if (a !== 0 && (a >= 1e6 || a < 1e-3)) { return v.toExponential(3); }
  return String(Number(v.toPrecision(5)));
}
function cssVar(name) { return getComputedStyle(document.documentElement).getPropertyValue(name).trim(); }
function color(i) { return PALETTE[i % PALETTE.length]; }
function axisTitle(a) { return a.label + (a.unit ? ' (' + a.unit + ')' : '') + ' — ' + (a.direction === 'maximize' ? 'higher is better' : 'lower is better'); }
function worse(a, b, dir) { return dir === 'maximize' ? Math.min(a, b) : Math.max(a, b); }

function niceTicks(lo, hi, n) {
  var span = hi - lo;
  if (!(span > 0)) { return [lo]; }
  var step = Math.pow(10, Math.floor(Math.log10(span / n)));
  var err = span / n / step;
  if (err >= 7.5) { step *= 10; } else if (err >= 3.5) { step *= 5; } else if (err >= 1.5) { step *= 2; }
  var out = [];
  for (var v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) { out.push(Math.abs(v) < step * 1e-9 ? 0 : v); }
  return out;
}
function logTicks(lo, hi) {
  var out = [];
  var mult = hi - lo < 2.5 ? [1, 2, 5] : [1];
  for (var e = Math.floor(lo); e <= Math.ceil(hi); e++) {
    mult.forEach(function (m) { var t = e + Math.log10(m); if (t >= lo && t <= hi) { out.push(t); } });
  }
  return out;
}

function pointName(pt) {
  var parts = [pt.case];
  if (pt.iteration) { parts.push('iter ' + pt.iteration); }
  if (pt.step) { parts.push('step ' + pt.step); }
  if (pt.phase) { parts.push('phase ' + pt.phase); }
  return parts.join(' · ');
}

function download(name, text, type) {
  var a = el('a', { download: name.replace(/[^A-Za-z0-9._-]+/g, '_') });
  a.href = URL.createObjectURL(new Blob([text], { type: type }));
  document.body.appendChild(a);
  a.click();
  setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}
