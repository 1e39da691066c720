// pareto.html: interactive Pareto frontier report. Written for this project,
// no third-party code. All data comes from the JSON block #pareto-data and is
// only ever inserted with textContent (or escaped into SVG), never as HTML.
//
// The report is split by concern into report-*.js files that render.go
// inlines in one script element, after repeats.js and frontier.js, in this
// order: core, paint, chart, density, draw, interact, svg, tables, details, sim,
// compare, state, main.
// It wraps them in one strict-mode function, so they share one scope (their
// top-level names stay out of the page's globals) and must not be loaded as
// modules or on their own.
//
// This file holds the page data, the shared state (the test hook
// window.__pareto and the charts) and the small helpers every other file
// uses: DOM building, number formatting, axis ticks, colours and marker
// shapes, point names and downloads.

var t0 = performance.now();
var data = JSON.parse(document.getElementById('pareto-data').textContent);
// SLO columns write ±Inf as strings (JSON has no infinity).
data.plots.forEach(function (p) {
  p.series.forEach(function (s) {
    (s.slo || []).forEach(function (col, k) { s.slo[k] = col.map(Number); });
  });
});
// Okabe-Ito, colour-blind safe; every series also has its own marker shape,
// so that no two of the first eight series look alike without colour.
// On white every colour has at least 3:1 contrast (WCAG's bound for graphics):
// Okabe-Ito's orange and sky blue are darkened to #B37A00 and #2B8CC4.
var PALETTE = ['#0072B2', '#B37A00', '#009E73', '#CC79A7', '#2B8CC4', '#D55E00', '#8C6D1F', '#555555'];
// The same hues, lighter, for the dark theme (each at least 6:1 on its
// background).
var PALETTE_DARK = ['#4BA3E3', '#F2B53C', '#2DC79A', '#E59BC9', '#8AD0F5', '#FF7F3F', '#CDA65A', '#B5B5B5'];
var SHAPES = ['circle', 'square', 'triangle', 'diamond', 'triangle-down', 'plus', 'cross', 'star'];
var STATUS = ['frontier', 'dominated', 'infeasible', 'invalid'];
var R = ParetoRepeats, F = ParetoFrontier;
var api = { ready: false, drawn: {}, drawnDominated: {}, errorBars: {}, baselineDrawn: {}, ticks: {}, markers: {}, logHidden: {}, densityCells: {},
  renderMs: 0, redrawMs: 0, readyMs: 0, lastCopied: null };
window.__pareto = api;
var charts = [];

// ---- DOM helpers -------------------------------------------------------
function el(tag, attrs) {
  var e = document.createElement(tag);
  setAttrs(e, attrs);
  for (var i = 2; i < arguments.length; i++) {
    var c = arguments[i];
    if (c == null) { continue; }
    e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return e;
}
function setAttrs(e, attrs) {
  if (!attrs) { return; }
  Object.keys(attrs).forEach(function (k) {
    if (k === 'text') { e.textContent = attrs[k]; } else if (k === 'class') { e.setAttribute('class', attrs[k]); } else { e.setAttribute(k, attrs[k]); }
  });
}
var SVGNS = 'http://www.w3.org/2000/svg';
function svgEl(tag, attrs) { var e = document.createElementNS(SVGNS, tag); setAttrs(e, attrs); return e; }
function cssVar(name) { return getComputedStyle(document.documentElement).getPropertyValue(name).trim(); }

// ---- points --------------------------------------------------------------
// The points are embedded column by column (report/points.go); pt(k)
// returns point k as an object, built on first use.
var PC = data.points, ptCache = [];
function textAt(c, k) {
  if (!c) { return ''; }
  if (c.raw) { return c.raw[k] || ''; }
  var j = c.idx[k];
  return j >= 0 ? c.dict[j] : '';
}
function pt(k) {
  var p = ptCache[k];
  if (p) { return p; }
  var labels = {};
  Object.keys(PC.labels || {}).forEach(function (key) { var v = textAt(PC.labels[key], k); if (v) { labels[key] = v; } });
  p = { id: textAt(PC.id, k), case: textAt(PC.case, k), iteration: textAt(PC.iteration, k), step: textAt(PC.step, k),
    phase: textAt(PC.phase, k), benchmark: textAt(PC.benchmark, k), source: textAt(PC.source, k), labels: labels,
    workload: PC.workloads[PC.workload[k]] || {}, layout: PC.layout ? PC.layout[k] - 1 : -1, config: PC.config ? PC.config[k] - 1 : -1,
    line: PC.line ? PC.line[k] : 0, index: PC.index ? PC.index[k] : 0 };
  ptCache[k] = p;
  return p;
}
// pointName names a point: its case, iteration, step, phase and place in
// its file; a point whose case is only its file (a generic table's row)
// by its ID (shownID), then the file's name and line.
function pointName(p) {
  if (shownID(p) && (!p.case || p.case === p.source)) {
    var file = (p.source || '').split('/').pop();
    return shownID(p) + (file ? ' · ' + file + (p.line ? ':' + p.line : '') : '');
  }
  var parts = [p.case];
  if (p.iteration) { parts.push('iter ' + p.iteration); }
  if (p.step) { parts.push('step ' + p.step); }
  if (p.phase) { parts.push('phase ' + p.phase); }
  if (p.line) { parts.push('line ' + p.line); } else if (p.index) { parts.push('record ' + (p.index + 1)); }
  return parts.join(' · ');
}
// shownID is the ID a point is known by: its table's id column (the label
// id) when it has one, else its trial ID.
function shownID(p) { return (p.labels && p.labels.id) || p.id; }
// place renders a file with the trial's line or record.
function place(path, line, index) {
  if (!path) { return ''; }
  if (line) { return path + ':' + line; }
  return index ? path + ' (record ' + (index + 1) + ')' : path;
}

// ---- numbers -------------------------------------------------------------
// SI suffixes from a thousand up; smaller values are written as decimals
// (a ratio of 0.85 stays 0.85, never 850m).
var SI = [[1e15, 'P'], [1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k'], [1, '']];
function siScale(a) {
  for (var i = 0; i < SI.length; i++) { if (a >= SI[i][0] * 0.9995) { return SI[i]; } }
  return SI[SI.length - 1];
}
// plain writes v with sig significant digits, never in exponent form.
function plain(v, sig) {
  var r = Number(v.toPrecision(sig)), s = String(r);
  if (/e/i.test(s)) { s = trimZeros(r.toFixed(Math.min(20, Math.max(0, sig - 1 - Math.floor(Math.log10(Math.abs(r))))))); }
  return s;
}
function trimZeros(s) { return s.indexOf('.') < 0 ? s : s.replace(/\.?0+$/, ''); }
function minus(s) { return s.charAt(0) === '-' ? '−' + s.slice(1) : s; }

// fmt renders a measured value for tables, tooltips and details: five
// significant digits, with an SI suffix from a million up (1.235M).
function fmt(v) {
  if (typeof v !== 'number') { return String(v); }
  if (!isFinite(v)) { return isNaN(v) ? 'NaN' : (v > 0 ? '∞' : '−∞'); }
  var a = Math.abs(v);
  if (a === 0) { return '0'; }
  if (a >= 1e6) {
    var sc = siScale(a), m = v / sc[0];
    return minus(trimZeros(m.toPrecision(4))) + sc[1];
  }
  return minus(plain(v, 5));
}

// decimals returns the fewest decimals that write v exactly (up to 12).
function decimals(v) {
  var a = Math.abs(v);
  for (var d = 0; d < 12; d++) {
    var m = a * Math.pow(10, d);
    if (Math.abs(m - Math.round(m)) <= 1e-6 * Math.max(1, m)) { return d; }
  }
  return 12;
}

// tickFormat returns the one formatter of an axis: every label takes its
// SI suffix (200k, 1M, 1.2M) and the decimals the tick spacing needs on
// that scale, trailing zeros dropped; log ticks of several decades are
// written exactly.
function tickFormat(values, perValue) {
  var step = Infinity;
  values.forEach(function (v, i) { if (i > 0) { step = Math.min(step, Math.abs(v - values[i - 1])); } });
  return function (v) {
    if (v === 0) { return '0'; }
    var sc = siScale(Math.abs(v)), m = v / sc[0];
    var dec = perValue || !isFinite(step) ? decimals(m) : decimals(step / sc[0]);
    return minus(trimZeros(m.toFixed(dec))) + sc[1];
  };
}

// ---- ticks -----------------------------------------------------------------
var MIN_TICKS = 4;
// linearTicks returns nice values (1, 2, 2.5 or 5 times a power of ten
// apart) in [lo, hi]: about target of them, and never fewer than
// MIN_TICKS.
function linearTicks(lo, hi, target) {
  var span = hi - lo;
  if (!(span > 0) || !isFinite(span)) { return [lo]; }
  var e0 = Math.floor(Math.log10(span)), chosen = 0;
  function count(step) { return Math.floor(hi / step + 1e-9) - Math.ceil(lo / step - 1e-9) + 1; }
  search:
  for (var e = e0 + 1; e >= e0 - 4; e--) {
    var ms = [5, 2.5, 2, 1];
    for (var k = 0; k < ms.length; k++) {
      var step = ms[k] * Math.pow(10, e), c = count(step);
      if (c >= MIN_TICKS && (!chosen || c <= target)) { chosen = step; }
      if (chosen && c > target) { break search; }
    }
  }
  var out = [];
  for (var i = Math.ceil(lo / chosen - 1e-9); i <= Math.floor(hi / chosen + 1e-9); i++) {
    var v = i * chosen;
    out.push(Math.abs(v) < chosen * 1e-9 ? 0 : Number(v.toPrecision(12)));
  }
  return out;
}
// logTicks returns tick values (not logarithms) for a log axis showing
// log10 values lo..hi: whole decades (every few decades on wide ranges), or
// 1-2-5 or 1..9 per decade, the sparsest set with at least MIN_TICKS ticks
// within target+2; below that, linear ticks of the values.
function logTicks(lo, hi, target) {
  var sets = [], every = Math.max(1, Math.ceil((hi - lo) / Math.max(1, target)));
  for (; every > 1; every = every > 3 ? Math.ceil(every / 2) : every - 1) { sets.push({ every: every, mult: [1] }); }
  sets.push({ every: 1, mult: [1] }, { every: 1, mult: [1, 2, 5] }, { every: 1, mult: [1, 2, 3, 4, 5, 6, 7, 8, 9] });
  var fallback = null;
  for (var s = 0; s < sets.length; s++) {
    var out = [], st = sets[s];
    for (var e = Math.floor(lo); e <= Math.ceil(hi); e++) {
      if (e % st.every !== 0) { continue; }
      st.mult.forEach(function (m) {
        var t = e + Math.log10(m);
        if (t >= lo - 1e-9 && t <= hi + 1e-9) { out.push(Number((m * Math.pow(10, e)).toPrecision(12))); }
      });
    }
    if (out.length >= MIN_TICKS && out.length <= target + 2) { return { values: out, perValue: true }; }
    if (out.length >= MIN_TICKS && (!fallback || out.length < fallback.length)) { fallback = out; }
  }
  if (fallback) { return { values: fallback, perValue: true }; }
  return { values: linearTicks(Math.pow(10, lo), Math.pow(10, hi), target), perValue: false };
}

// ---- colours, shapes -------------------------------------------------------
// color is series i's colour in the page's theme, or in the light one
// (exports) when light is set.
function color(i, light) { return (!light && darkTheme() ? PALETTE_DARK : PALETTE)[i % PALETTE.length]; }
function darkTheme() { return !!(window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches); }
function shape(i) { return SHAPES[i % SHAPES.length]; }
function unitOf(a) { return a.unit ? ' ' + a.unit : ''; }
function axisName(a) { return a.label + (a.unit ? ' (' + a.unit + ')' : ''); }
function axisTitle(a) { return axisName(a) + ' — ' + (a.direction === 'maximize' ? 'higher is better' : 'lower is better'); }
function worse(a, b, dir) { return dir === 'maximize' ? Math.min(a, b) : Math.max(a, b); }

// swatch returns a small inline SVG of a series' marker (or a dominated
// point's hollow marker) for legends.
function swatch(si, hollow) {
  var s = svgEl('svg', { class: 'swatch', width: '14', height: '14', viewBox: '0 0 14 14', 'aria-hidden': 'true', 'data-shape': shape(si) });
  var path = new PathText();
  shapePath(path, shape(si), 7, 7, hollow ? 4.5 : 5.5);
  s.appendChild(svgEl('path', hollow ? { d: path.d(), fill: 'none', stroke: 'currentColor', 'stroke-width': '1.3' } :
    { d: path.d(), fill: color(si), stroke: cssVar('--bg') || '#fff', 'stroke-width': '1' }));
  return s;
}

// download saves text (or a Blob) as the file name.
function download(name, text, type) {
  var a = el('a', { download: name.replace(/[^A-Za-z0-9._-]+/g, '_') });
  a.href = URL.createObjectURL(new Blob([text], { type: type }));
  document.body.appendChild(a);
  a.click();
  setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}
