// pareto.html: the frontier simulator of a Chart (part of the report-*.js
// files, see report-core.js): the essay's "move the noise band, see the
// frontier change". While its panel is open, sliders set each axis's noise
// band σ and minimum improvement δ and the SLO bounds (the plot's own and a
// bound on each axis), and the chart shows the frontier recomputed in the
// page by ParetoFrontier (the engine's relation): the noise-aware frontier,
// noise-tied groups linked, the raw (strict Pareto) frontier dashed beside
// it, the cycle warning, what became infeasible or invalid, and how each
// frontier point compares with the baseline at these thresholds. Closing
// the panel shows the report's frontier again.

function Simulator(chart) {
  var plot = chart.plot;
  this.chart = chart;
  this.initial = { sx: plot.x.noise || 0, dx: plot.x.min_improve || 0, sy: plot.y.noise || 0, dy: plot.y.min_improve || 0 };
  this.p = Object.assign({}, this.initial);
  this.bounds = (plot.bounds || []).map(function (b) { return { on: true, op: b.op, bound: b.bound, label: b.label, unit: b.unit, initial: b.bound }; });
  var self = this;
  this.axisBounds = ['x', 'y'].map(function (ax) {
    var a = plot[ax], r = self.range(function (s) { return s[ax]; });
    var worst = a.direction === 'maximize' ? r[0] : r[1];
    return { ax: ax, on: false, op: a.direction === 'maximize' ? '>=' : '<=', bound: worst, label: a.label, unit: a.unit, range: r };
  });
  this.showRaw = true;
  this.caps = this.limits();
  this.build();
}

// limits returns, on a plot with a density layer, the largest σ and δ per
// axis the kept points answer exactly (report/density.go: the log
// thresholds within ln(1+m) for the layer's margin m), each at least the
// report's own; null when every point is on the page.
Simulator.prototype.limits = function () {
  var plot = this.chart.plot, m = Infinity, self = this;
  plot.series.forEach(function (s) { if (s.d && s.d.n) { m = Math.min(m, s.d.margin); } });
  if (!isFinite(m)) { return null; }
  var out = { margin: m };
  ['x', 'y'].forEach(function (ax) {
    var max = plot[ax].direction === 'maximize', near = m / (1 + m);
    out['s' + ax] = Math.max(max ? near : m, self.initial['s' + ax]);
    out['d' + ax] = Math.max(max ? m : near, self.initial['d' + ax]);
  });
  return out;
};

// range returns the smallest and largest finite value of a column over
// the plot's series.
Simulator.prototype.range = function (col) {
  var lo = Infinity, hi = -Infinity;
  this.chart.plot.series.forEach(function (s) {
    var c = col(s) || [];
    for (var i = 0; i < c.length; i++) { var v = c[i]; if (isFinite(v)) { if (v < lo) { lo = v; } if (v > hi) { hi = v; } } }
  });
  return isFinite(lo) ? [lo, hi] : [0, 1];
};

Simulator.prototype.build = function () {
  var self = this, plot = this.chart.plot;
  this.root = el('details', { class: 'sim' });
  this.root.appendChild(el('summary', null, el('strong', { text: 'Frontier simulator' }),
    ' — move the noise band σ, the minimum improvement δ and the SLO bounds; the chart shows the frontier recomputed live'));
  var body = el('div', { class: 'sim-body' });
  body.appendChild(el('p', { class: 'note', text: 'a beats b when a is no worse than b beyond b\'s noise band on both axes and better by more than the minimum improvement on one. ' +
    'The noise-aware frontier keeps every point nothing beats, and every member of a cycle of points that beat each other (noise-tied). σ = δ = 0 is the raw Pareto frontier.' }));
  var grid = el('div', { class: 'sim-grid' });
  var caps = this.caps;
  [['sx', 'σ X', 'noise band of ' + plot.x.label], ['dx', 'δ X', 'minimum improvement on ' + plot.x.label],
    ['sy', 'σ Y', 'noise band of ' + plot.y.label], ['dy', 'δ Y', 'minimum improvement on ' + plot.y.label]].forEach(function (f) {
    var top = caps ? Math.floor(caps[f[0]] * 1e4) / 100 : 30;
    grid.appendChild(self.slider(f[0], f[1], f[2], 0, top, caps ? 0.01 : 0.1, self.p[f[0]] * 100, function (v) { self.p[f[0]] = v / 100; }, '%'));
  });
  body.appendChild(grid);
  if (caps) {
    body.appendChild(el('p', { class: 'note sim-range', text: 'This page bins the dominated points more than ' + pc(caps.margin) + ' worse than a kept point on both axes (the density layer). ' +
      'The simulator answers exactly up to σ X ' + pc(Math.floor(caps.sx * 1e4) / 1e4) + ', δ X ' + pc(Math.floor(caps.dx * 1e4) / 1e4) + ', σ Y ' + pc(Math.floor(caps.sy * 1e4) / 1e4) + ', δ Y ' + pc(Math.floor(caps.dy * 1e4) / 1e4) +
      ' at the report\'s bounds; past that range, or where moved bounds or cycles let binned points matter, it says so (pareto front computes any setting).' }));
  }
  var bl = el('div', { class: 'sim-grid sim-bounds' });
  this.bounds.forEach(function (b, k) {
    var r = self.range(function (s) { return s.slo && s.slo[k]; });
    bl.appendChild(self.boundControl(b, 'slo-' + k, 'SLO ' + b.label + ' ' + b.op, r));
  });
  this.axisBounds.forEach(function (b) { bl.appendChild(self.boundControl(b, 'axis-' + b.ax, 'Bound ' + b.label + ' ' + b.op, b.range)); });
  body.appendChild(bl);
  var raw = el('input', { type: 'checkbox', class: 'sim-raw' });
  raw.checked = this.showRaw;
  raw.addEventListener('change', function () { self.showRaw = raw.checked; self.update(); });
  var reset = el('button', { type: 'button', class: 'sim-reset', text: 'Reset to the report\'s parameters' });
  reset.addEventListener('click', function () { self.reset(); });
  body.appendChild(el('div', { class: 'toolbar' }, el('label', null, raw, ' Show the raw (strict Pareto) frontier dashed'), reset));
  this.out = el('div', { class: 'sim-out', 'aria-live': 'polite' });
  body.appendChild(this.out);
  this.root.appendChild(body);
  this.root.addEventListener('toggle', function () { self.update(); });
  this.chart.simRoot.appendChild(this.root);
};

// slider builds a range input with a number box bound to it.
Simulator.prototype.slider = function (key, name, title, min, max, step, value, set, unit) {
  var self = this;
  var range = el('input', { type: 'range', min: String(min), max: String(max), step: String(step), value: String(value), class: 'sim-' + key, 'aria-label': name + ' (' + title + ')' });
  var top = this.caps ? max : (key.charAt(0) === 'd' ? 99.9 : 1000);
  var box = el('input', { type: 'number', min: String(min), max: String(top), step: 'any', value: String(value), class: 'sim-' + key + '-value', 'aria-label': name });
  function from(input, other) {
    var v = Number(input.value);
    if (!isFinite(v) || v < 0) { return; }
    if (v > top) { v = top; }
    other.value = String(v);
    set(v);
    self.schedule();
  }
  range.addEventListener('input', function () { from(range, box); });
  box.addEventListener('input', function () { from(box, range); });
  this.inputs = this.inputs || {};
  this.inputs[key] = [range, box];
  return el('label', { class: 'sim-field', title: title }, el('span', { class: 'sim-name', text: name }), range, box, el('span', { text: unit }));
};

// boundControl builds an SLO or axis bound: a switch, a slider over the
// column's range and a number box.
Simulator.prototype.boundControl = function (b, key, name, r) {
  var self = this, span = r[1] - r[0] || Math.abs(r[0]) || 1;
  var on = el('input', { type: 'checkbox', class: 'sim-' + key + '-on', 'aria-label': 'apply ' + name });
  on.checked = b.on;
  on.addEventListener('change', function () { b.on = on.checked; self.schedule(); });
  var lo = r[0] - span * 0.05, hi = r[1] + span * 0.05;
  var range = el('input', { type: 'range', min: String(Math.min(lo, b.bound)), max: String(Math.max(hi, b.bound)), step: String(span / 400), value: String(b.bound), class: 'sim-' + key, 'aria-label': name });
  var box = el('input', { type: 'number', step: 'any', value: String(b.bound), class: 'sim-' + key + '-value', 'aria-label': name + ' value' });
  range.addEventListener('input', function () { b.bound = Number(range.value); box.value = String(Number(b.bound.toPrecision(6))); self.schedule(); });
  box.addEventListener('input', function () { var v = Number(box.value); if (isFinite(v) && box.value !== '') { b.bound = v; range.value = String(v); self.schedule(); } });
  b.inputs = [on, range, box];
  return el('label', { class: 'sim-field' }, on, el('span', { class: 'sim-name', text: name }), range, box, el('span', { text: b.unit || '' }));
};

Simulator.prototype.reset = function () {
  var self = this;
  this.p = Object.assign({}, this.initial);
  Object.keys(this.inputs).forEach(function (k) { self.inputs[k].forEach(function (i) { i.value = String(self.p[k] * 100); }); });
  this.bounds.forEach(function (b) { b.on = true; b.bound = b.initial; b.inputs[0].checked = true; b.inputs[1].value = b.inputs[2].value = String(b.bound); });
  this.axisBounds.forEach(function (b) { b.on = false; b.inputs[0].checked = false; });
  this.update();
};

Simulator.prototype.schedule = function () {
  var self = this;
  if (this.pending) { return; }
  this.pending = true;
  requestAnimationFrame(function () { self.pending = false; self.update(); });
};

// objectives returns the frontier objectives of the current parameters
// (zero bands for the raw frontier).
Simulator.prototype.objectives = function (raw) {
  var plot = this.chart.plot, p = this.p;
  return [{ dir: plot.x.direction, noise: raw ? 0 : p.sx, improve: raw ? 0 : p.dx },
    { dir: plot.y.direction, noise: raw ? 0 : p.sy, improve: raw ? 0 : p.dy }];
};

// slos returns the bounds in force for series s.
Simulator.prototype.slos = function (s) {
  var out = [];
  this.bounds.forEach(function (b, k) { if (b.on && s.slo) { out.push({ label: b.label, op: b.op, bound: b.bound, values: s.slo[k], unit: b.unit }); } });
  this.axisBounds.forEach(function (b) { if (b.on) { out.push({ label: b.label, op: b.op, bound: b.bound, values: s[b.ax], unit: b.unit }); } });
  return out;
};

// SIM_LIMIT bounds the time (ms) a series may take to search its cycles:
// past it the series is left as the report computed it, and the simulator
// says why.
var SIM_LIMIT = 400;

// compute recomputes every series and returns what the chart shows. The
// raw frontier depends only on the bounds, so it is kept while only σ and
// δ move.
Simulator.prototype.compute = function () {
  var self = this, chart = this.chart, plot = chart.plot, objs = this.objectives(false), raw = this.objectives(true);
  var out = { series: [], raw: [], showRaw: this.showRaw, objs: objs, slos: [], skipped: {}, inexact: {} };
  var boundsKey = this.activeBounds();
  if (this.rawKey !== boundsKey) { this.rawCache = []; this.rawKey = boundsKey; }
  plot.series.forEach(function (s, si) {
    var slos = self.slos(s);
    out.slos[si] = slos;
    if (!self.rawCache[si]) {
      var q = F.analyze({ x: s.x, y: s.y, objs: raw, slos: slos });
      self.rawCache[si] = { line: q.line, s: q.status };
    }
    out.raw.push(self.rawCache[si]);
    var r;
    try {
      r = F.analyze({ x: s.x, y: s.y, objs: objs, slos: slos, timeLimit: SIM_LIMIT });
    } catch (e) {
      if (!(e instanceof F.BudgetError)) { throw e; }
      out.skipped[si] = e.points;
      var eng = chart.engineStatus(si);
      out.series.push({ s: eng.s, by: eng.by, t: eng.t, line: eng.line, frontier: eng.frontier, tied: [], res: null });
      return;
    }
    out.series.push({ s: r.status, by: r.by, t: r.tie, line: r.line, frontier: r.line.length, tied: r.tied, res: r });
    if (s.d && s.d.n) {
      var cov = F.covers({ x: s.x, y: s.y, objs: objs }, r, s.d.ix, s.d.iy);
      if (cov.unbeaten || cov.beating) { out.inexact[si] = cov; }
    }
  });
  out.cyclic = F.cycleSum(objs) > 1 && objs.some(function (o) { return o.noise || o.improve; });
  out.cycleSum = F.cycleSum(objs);
  out.acyclicDelta = out.cyclic ? F.acyclicMinImprove(objs) : 0;
  out.violations = function (si, i) {
    var res = out.series[si].res;
    if (!res) { return (plot.series[si].notes && plot.series[si].notes[i]) || 'violates an SLO'; }
    return 'violates ' + (res.violated[i] || []).map(function (k) {
      var b = out.slos[si][k];
      return b.label + '=' + fmt(b.values[i]) + (b.unit ? ' ' + b.unit : '') + ' (want ' + b.op + ' ' + fmt(b.bound) + ')';
    }).join(', ');
  };
  out.reason = function (si, i) { var res = out.series[si].res; return 'invalid: ' + ((res && res.reason[i]) || ''); };
  return out;
};

// update applies the simulator to the chart while its panel is open.
Simulator.prototype.update = function () {
  var c = this.chart;
  // The view follows the frontier shown unless the user zoomed.
  var redraw = function () { if (c.auto) { c.fit(); } else { c.draw(); } };
  if (!this.root.open) {
    if (c.sim) { c.sim = null; c.renderLegend(); c.table.render(); redraw(); }
    this.out.textContent = '';
    return;
  }
  var t = performance.now();
  c.sim = this.compute();
  var t1 = performance.now();
  c.renderLegend();
  c.table.render(); // its status column follows the simulator
  if (c.selected) { renderDetails(c, c.selected); }
  redraw();
  var t2 = performance.now();
  this.describe(c.sim);
  api.simMs = performance.now() - t;
  api.simParts = { compute: t1 - t, draw: t2 - t1, describe: performance.now() - t2 };
};

// describe writes what the simulation found: the cycle warning, per series
// the frontier against the raw one and the report's, the noise-tied
// groups, the infeasible and invalid points, and each frontier point
// against the baseline.
Simulator.prototype.describe = function (sim) {
  var self = this, plot = this.chart.plot, out = this.out, p = this.p;
  out.textContent = '';
  out.appendChild(el('p', { class: 'sim-params', text: 'Simulated: σx=' + pc(p.sx) + ', δx=' + pc(p.dx) + ', σy=' + pc(p.sy) + ', δy=' + pc(p.dy) +
    (this.activeBounds() ? ' · bounds: ' + this.activeBounds() : '') }));
  if (sim.cyclic) {
    out.appendChild(el('p', { class: 'warning sim-cycle', text: '⚠ These bands allow dominance cycles (Σ s/(s+d) = ' + sim.cycleSum.toFixed(3) + ' > 1): points that beat each other around a cycle are all kept and marked noise-tied; a minimum improvement of at least ' +
      (Math.ceil(sim.acyclicDelta * 1e4) / 100) + '% on both axes rules cycles out.' }));
  }
  plot.series.forEach(function (s, si) {
    var st = sim.series[si], res = st.res, raw = sim.raw[si], eng = self.chart.engineStatus(si);
    if (!res) {
      out.appendChild(el('div', { class: 'sim-series', 'data-series': String(si) }, el('p', { class: 'warning' }, swatch(si, false), el('strong', { text: s.name }),
        ': not simulated — at these bands ' + sim.skipped[si] + ' points beat each other around cycles, too many to sort out in the page in time (pareto front --noise … --min-improve … computes it). The chart shows the report\'s frontier for this series.')));
      return;
    }
    var counts = [0, 0, 0, 0];
    for (var i = 0; i < s.x.length; i++) { counts[st.s[i]]++; }
    var box = el('div', { class: 'sim-series', 'data-series': String(si) });
    box.appendChild(el('p', null, swatch(si, false), el('strong', { text: s.name }), ': ' + st.frontier + ' on the noise-aware frontier (raw Pareto ' + raw.line.length + ', the report ' + eng.frontier + ') · ' +
      counts[1] + ' dominated' + (s.d && s.d.n ? ' (+ ' + s.d.n.toLocaleString('en-US') + ' binned)' : '') + ' · ' + counts[2] + ' infeasible · ' + counts[3] + ' invalid' + (st.tied.length ? ' · ' + st.tied.length + ' noise-tied group(s)' : '')));
    var inx = sim.inexact[si];
    if (inx) {
      box.appendChild(el('p', { class: 'warning sim-inexact', text: '⚠ Not exact at these settings: ' + (inx.unbeaten ? inx.unbeaten + ' density cell(s) have no kept point beating them' : '') +
        (inx.unbeaten && inx.beating ? ' and ' : '') + (inx.beating ? inx.beating + ' density cell(s) could beat a frontier point' : '') +
        ', so binned points may belong on the frontier. pareto front --noise … --min-improve … computes it on every point.' }));
    }
    var kept = [], dropped = [];
    for (i = 0; i < s.x.length; i++) {
      if (st.s[i] === 0 && raw.s[i] !== 0) { kept.push(i); }
      if (st.s[i] !== 0 && raw.s[i] === 0) { dropped.push(i); }
    }
    if (kept.length) { box.appendChild(el('p', { class: 'note', text: 'Kept although raw-dominated (the margin is within δ): ' + names(s, kept) })); }
    if (dropped.length) { box.appendChild(el('p', { class: 'note', text: 'Dropped although raw-optimal (beaten by more than δ, within σ elsewhere): ' + names(s, dropped) })); }
    st.tied.forEach(function (g) { box.appendChild(el('p', { class: 'note', text: 'Noise-tied: ' + names(s, g) + ' — each beats another around a cycle' })); });
    var inf = [], inv = [];
    for (i = 0; i < s.x.length; i++) { if (st.s[i] === 2) { inf.push(i); } else if (st.s[i] === 3) { inv.push(i); } }
    if (inf.length) { box.appendChild(el('p', { class: 'note', text: 'Infeasible: ' + inf.slice(0, 12).map(function (k) { return pointName(pt(s.p[k])) + ' (' + sim.violations(si, k) + ')'; }).join('; ') + (inf.length > 12 ? '; …' : '') })); }
    if (inv.length) { box.appendChild(el('p', { class: 'note', text: 'Invalid: ' + inv.slice(0, 12).map(function (k) { return pointName(pt(s.p[k])) + ' (' + res.reason[k] + ')'; }).join('; ') + (inv.length > 12 ? '; …' : '') })); }
    self.baselineTable(box, s, st, sim.objs);
    out.appendChild(box);
  });
};

function pc(v) { return String(Number((v * 100).toFixed(2))) + '%'; }
function names(s, rows) {
  var list = rows.slice(0, 12).map(function (k) { return pointName(pt(s.p[k])); });
  return list.join(', ') + (rows.length > 12 ? ', … (' + rows.length + ')' : '');
}

Simulator.prototype.activeBounds = function () {
  var parts = [];
  this.bounds.concat(this.axisBounds).forEach(function (b) { if (b.on) { parts.push(b.label + b.op + fmt(b.bound)); } });
  return parts.join(', ');
};

// baselineTable compares each frontier point with its baseline at the
// current thresholds: the deltas, and whether the point beats the
// baseline, the baseline beats it, or neither (within noise).
Simulator.prototype.baselineTable = function (box, s, st, objs) {
  if (!s.base || s.base.note) { return; }
  var rows = [];
  st.line.forEach(function (i) {
    var b = R.base(s, i);
    if (!b || b.why || b.value.x === null || b.value.y === null) { return; }
    var bx = b.value.x, by = b.value.y, v;
    if (R.isBase(s, i)) { v = 'the baseline'; } else if (F.beats(s.x[i], s.y[i], bx, by, objs)) { v = 'beats the baseline'; } else if (F.beats(bx, by, s.x[i], s.y[i], objs)) {
      v = 'beaten by the baseline';
    } else { v = 'neither beats the other (a trade-off, or within noise)'; }
    rows.push([pointName(pt(s.p[i])), R.pct(b.dx) || '±0%', R.pct(b.dy) || '±0%', v]);
  });
  if (!rows.length) { return; }
  var tb = el('tbody');
  rows.forEach(function (r) { tb.appendChild(el('tr', null, el('td', { text: r[0] }), el('td', { class: 'num', text: r[1] }), el('td', { class: 'num', text: r[2] }), el('td', { text: r[3] }))); });
  box.appendChild(el('div', { class: 'table-wrap sim-baseline' }, el('table', null,
    el('thead', null, el('tr', null, el('th', { text: 'Frontier point' }), el('th', { text: 'Δ X' }), el('th', { text: 'Δ Y' }), el('th', { text: 'vs baseline at these thresholds' }))), tb)));
};
