// pareto.html: the Chart, one plot of the report (part of the report-*.js
// files, see report-core.js). It holds the plot's view state (zoom, log
// axes, hidden series, dominated points shown, the pinned point, the
// simulator's statuses) and builds its section: toolbar, legend, canvas,
// simulator, measurement table and details panel. Every control acts on
// this plot only.

function Chart(plot, index) {
  this.plot = plot;
  this.index = index;
  this.log = { x: !!plot.x.log, y: !!plot.y.log };
  this.hidden = plot.series.map(function () { return false; });
  this.showDominated = false;
  this.mode = 'zoom';
  this.selected = null;
  this.cursor = null;
  this.sim = null; // simulated statuses per series (report-sim.js), null for the engine's
  this.auto = true; // the view follows what is visible until the user zooms
  this.build();
  this.fit();
}

// engineStatus is series si's status as the report computed it.
Chart.prototype.engineStatus = function (si) {
  var s = this.plot.series[si];
  return { s: s.s, by: s.by, t: s.t || null, line: s.line, frontier: s.frontier };
};
// status is what the chart shows for series si: the simulator's statuses
// when it is on, else the engine's.
Chart.prototype.status = function (si) { return this.sim ? this.sim.series[si] : this.engineStatus(si); };
Chart.prototype.tie = function (st, i) { return st.t ? st.t[i] : 0; };

Chart.prototype.build = function () {
  var self = this, plot = this.plot;
  this.root = el('section', { class: 'plot', id: 'plot-' + this.index, 'data-plot': String(this.index), tabindex: '-1', 'aria-label': plot.name });
  this.root.appendChild(el('h2', { text: plot.name }));
  var sub = 'X: ' + axisTitle(plot.x) + ' · Y: ' + axisTitle(plot.y);
  if (plot.slos && plot.slos.length) { sub += ' · SLOs: ' + plot.slos.join(', '); }
  if (plot.x.noise || plot.y.noise || plot.x.min_improve || plot.y.min_improve) {
    sub += ' · noise-aware (σx=' + R.pct(plot.x.noise || 0).replace('+', '') + ', σy=' + R.pct(plot.y.noise || 0).replace('+', '') +
      ', δx=' + R.pct(plot.x.min_improve || 0).replace('+', '') + ', δy=' + R.pct(plot.y.min_improve || 0).replace('+', '') + ')';
  }
  this.root.appendChild(el('p', { class: 'note subtitle', text: sub }));
  this.root.appendChild(this.toolbar());
  this.legend = el('div', { class: 'legend', role: 'group', 'aria-label': 'Frontiers of ' + plot.name });
  this.root.appendChild(this.legend);
  this.notes = el('div', { class: 'notes' });
  plot.series.forEach(function (s) {
    if (s.base && s.base.note) { self.notes.appendChild(el('p', { class: 'note', text: s.name + ': ' + s.base.note })); }
  });
  this.root.appendChild(this.notes);

  var body = el('div', { class: 'plot-body' });
  var mainCol = el('div', { class: 'plot-main' });
  this.canvas = el('canvas', { role: 'img', tabindex: '0', 'aria-label': plot.name + ': ' + axisName(plot.x) + ' against ' + axisName(plot.y) +
    '. Arrow keys move between points, Enter pins the details, Escape unpins, plus and minus zoom, 0 resets.' });
  // The tooltip follows the pointer and is not announced; pins are, in
  // this chart's polite live region (announce).
  this.tip = el('div', { class: 'tooltip', 'aria-hidden': 'true' });
  this.announce = el('p', { class: 'sr-only', 'aria-live': 'polite' });
  this.zoomBox = el('div', { class: 'zoombox' });
  this.hint = el('div', { class: 'hint', text: 'Hold Ctrl (⌘ on a Mac) and scroll to zoom' });
  this.chartBox = el('div', { class: 'chart' }, this.canvas, this.zoomBox, this.tip, this.hint, this.announce);
  mainCol.appendChild(this.chartBox);
  this.axisNote = el('p', { class: 'note axis-note' });
  mainCol.appendChild(this.axisNote);
  this.simRoot = el('div', { class: 'sim-host' });
  mainCol.appendChild(this.simRoot);
  mainCol.appendChild(el('h3', { text: 'Measurements' }));
  mainCol.appendChild(this.finder());
  this.rows = this.measureRows();
  this.table = new Table(this.measureColumns(), this.rows, function (row) { self.select(row.s, row.i, 'table'); });
  var binned = this.binned();
  if (binned) { this.table.extra = ' ' + binned.toLocaleString('en-US') + ' more trial(s) are binned in the density layer (find them by ID).'; this.table.render(); }
  mainCol.appendChild(this.table.root);
  mainCol.appendChild(this.table.foot);
  this.details = el('aside', { class: 'details', 'aria-label': 'Point details of ' + plot.name });
  body.appendChild(mainCol);
  body.appendChild(this.details);
  this.root.appendChild(body);
  renderDetails(this, null);
  this.renderLegend();
  this.bindPointer();
  this.bindKeys();
  this.simulator = new Simulator(this);
};

Chart.prototype.toolbar = function () {
  var self = this, tb = el('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Controls of ' + this.plot.name });
  this.domBox = el('input', { type: 'checkbox', class: 'show-dominated' });
  this.domBox.addEventListener('change', function () { self.setShowDominated(self.domBox.checked); });
  tb.appendChild(el('label', null, this.domBox, ' Show dominated points'));
  ['x', 'y'].forEach(function (ax) {
    var box = el('input', { type: 'checkbox', class: 'log-' + ax });
    box.checked = self.log[ax];
    box.addEventListener('change', function () { self.log[ax] = box.checked; self.auto = true; self.fit(); });
    tb.appendChild(el('label', null, box, ' Log ' + ax.toUpperCase()));
  });
  // Two toggle buttons (aria-pressed), one of them pressed: a group, not
  // a radio group (whose members would be radio buttons).
  var modes = el('span', { class: 'modes', role: 'group', 'aria-label': 'Drag mode' });
  this.modeButtons = {};
  [['zoom', 'Box zoom'], ['pan', 'Pan']].forEach(function (m) {
    var b = el('button', { type: 'button', class: 'mode mode-' + m[0], 'aria-pressed': String(self.mode === m[0]), text: m[1] });
    b.addEventListener('click', function () { self.setMode(m[0]); });
    self.modeButtons[m[0]] = b;
    modes.appendChild(b);
  });
  tb.appendChild(modes);
  var reset = el('button', { type: 'button', class: 'reset', text: 'Reset view' });
  reset.addEventListener('click', function () { self.auto = true; self.fit(); });
  var svg = el('button', { type: 'button', class: 'export-svg', text: 'Export SVG' });
  svg.addEventListener('click', function () { download(self.plot.name + '.svg', self.svg(), 'image/svg+xml'); });
  var png = el('button', { type: 'button', class: 'export-png', text: 'Export PNG' });
  png.addEventListener('click', function () { self.canvas.toBlob(function (b) { if (b) { download(self.plot.name + '.png', b, 'image/png'); } }, 'image/png'); });
  var csv = el('button', { type: 'button', class: 'export-csv', text: 'Export CSV', title: 'the points the chart shows in this view' });
  csv.addEventListener('click', function () { download(self.plot.name + '.csv', self.csv(), 'text/csv'); });
  tb.appendChild(reset);
  tb.appendChild(svg);
  tb.appendChild(png);
  tb.appendChild(csv);
  tb.appendChild(el('span', { class: 'note hints', text: 'Drag: box zoom (on an axis: that axis) · Shift+drag: pan · Ctrl/⌘+wheel: zoom · double-click: reset · click or Enter: pin · Esc: unpin' }));
  return tb;
};

Chart.prototype.setMode = function (m) {
  this.mode = m;
  var self = this;
  Object.keys(this.modeButtons).forEach(function (k) { self.modeButtons[k].setAttribute('aria-pressed', String(k === m)); });
  this.canvas.classList.toggle('panning', m === 'pan');
};

// renderLegend lists the series with their marker, colour and counts; a
// button hides or shows a series.
Chart.prototype.renderLegend = function () {
  var self = this;
  this.legend.textContent = '';
  this.plot.series.forEach(function (s, i) {
    var st = self.status(i);
    var b = el('button', { type: 'button', 'aria-pressed': String(!self.hidden[i]), 'data-series': String(i), title: 'Show or hide ' + s.name },
      swatch(i, false), s.name + ' (' + st.frontier + ' on frontier, ' + s.x.length + ' points' + (s.d && s.d.n ? ' + ' + s.d.n.toLocaleString('en-US') + ' binned' : '') + ')');
    b.addEventListener('click', function () {
      self.hidden[i] = !self.hidden[i];
      b.setAttribute('aria-pressed', String(!self.hidden[i]));
      if (self.auto) { self.fit(); } else { self.draw(); }
    });
    self.legend.appendChild(b);
  });
  if (this.showDominated) {
    this.legend.appendChild(el('span', { class: 'legend-key' }, swatch(0, true), 'dominated (hollow; shape = its frontier)'));
  }
  if (data.baseline) {
    this.legend.appendChild(el('span', { class: 'legend-key' }, el('span', { class: 'base-swatch', text: '◇' }), 'baseline: ' + data.baseline));
  }
};

// shown reports whether point i of series si is drawn.
Chart.prototype.shown = function (st, i) {
  return st.s[i] === 0 || (this.showDominated && (st.s[i] === 1 || st.s[i] === 2));
};

// fit sets the view to what is drawn: the frontier points of the visible
// series (and their dominated points when shown, and the simulator's raw
// frontier), their error bars and baseline points, so that a far-away hidden point never squeezes the
// frontier into a corner.
Chart.prototype.fit = function () {
  var self = this, bx = [Infinity, -Infinity], by = [Infinity, -Infinity];
  function add(b, v) { if (isFinite(v)) { if (v < b[0]) { b[0] = v; } if (v > b[1]) { b[1] = v; } } }
  this.plot.series.forEach(function (s, si) {
    if (self.hidden[si]) { return; }
    var st = self.status(si), n = s.x.length, all = self.showDominated;
    if (all) {
      for (var i = 0; i < n; i++) {
        if (st.s[i] <= 2) { add(bx, self.tx(s.x[i], 'x')); add(by, self.tx(s.y[i], 'y')); }
      }
    } else {
      st.line.forEach(function (j) { add(bx, self.tx(s.x[j], 'x')); add(by, self.tx(s.y[j], 'y')); });
    }
    if (self.sim && self.sim.showRaw && self.sim.raw[si]) { // the raw frontier drawn beside the simulated one
      self.sim.raw[si].line.forEach(function (j) { add(bx, self.tx(s.x[j], 'x')); add(by, self.tx(s.y[j], 'y')); });
    }
    Object.keys(s.r || {}).forEach(function (k) {
      if (!self.shown(st, Number(k))) { return; }
      var r = s.r[k];
      add(bx, self.tx(r.x.min, 'x')); add(bx, self.tx(r.x.max, 'x'));
      add(by, self.tx(r.y.min, 'y')); add(by, self.tx(r.y.max, 'y'));
    });
    ((s.base && s.base.bases) || []).forEach(function (bv) {
      if (bv.row >= 0) { add(bx, self.tx(s.x[bv.row], 'x')); add(by, self.tx(s.y[bv.row], 'y')); }
    });
  });
  function pad(b, log) {
    if (!isFinite(b[0])) { return [0, 1]; }
    var d = b[1] - b[0];
    if (!(d > 0)) { d = log ? 0.2 : (Math.abs(b[0]) * 0.1 || 1); }
    return [b[0] - d * 0.06, b[1] + d * 0.06];
  }
  this.view = { x: pad(bx, this.log.x), y: pad(by, this.log.y) };
  this.draw();
};

Chart.prototype.tx = function (v, ax) {
  if (!this.log[ax]) { return v; }
  return v > 0 ? Math.log10(v) : NaN;
};
// untx maps a view coordinate back to a value.
Chart.prototype.untx = function (t, ax) { return this.log[ax] ? Math.pow(10, t) : t; };

// layout sizes the canvas to its box and places the plot area: the left
// margin is measured from the widest Y tick label, so that labels never
// run under the axis title.
Chart.prototype.layout = function () {
  // The width is read once and again after a resize (main.js clears it):
  // reading it after every change to the page would lay the page out anew
  // on each redraw.
  if (!this.cssWidth) { this.cssWidth = this.canvas.clientWidth; }
  var w = Math.max(260, this.cssWidth || 800);
  var h = Math.max(280, Math.min(520, Math.round(w * 0.55)));
  var dpr = window.devicePixelRatio || 1;
  if (this.canvas.width !== Math.round(w * dpr) || this.canvas.height !== Math.round(h * dpr)) {
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    this.canvas.style.height = h + 'px';
  }
  this.box = this.frame(w, h);
  this.box.dpr = dpr;
};

// frame computes the plot area and ticks of a w×h drawing. Axis titles
// too long for their side wrap onto a second line.
Chart.prototype.frame = function (w, h) {
  var font = '12px system-ui, sans-serif', t = 12;
  var xTitle = wrap(axisTitle(this.plot.x) + (this.log.x ? ' · log scale' : ''), w - 100, font);
  var yTitle = wrap(axisTitle(this.plot.y) + (this.log.y ? ' · log scale' : ''), h - 80, font);
  var b = h - 34 - 16 * xTitle.length;
  var yt = this.ticks('y', b - t);
  var lw = 0;
  yt.labels.forEach(function (l) { lw = Math.max(lw, measureText(l, font)); });
  var l = Math.ceil(10 + 16 * yTitle.length + lw + 8);
  var xt0 = this.ticks('x', w - l - 16);
  var last = xt0.labels.length ? measureText(xt0.labels[xt0.labels.length - 1], font) : 0;
  var r = w - Math.max(16, Math.ceil(last / 2) + 4);
  var xt = this.ticks('x', r - l);
  return { l: l, t: t, r: r, b: b, w: w, h: h, xt: xt, yt: yt, font: font, xTitle: xTitle, yTitle: yTitle };
};

// ticks returns the ticks of axis ax over a plot length of len pixels:
// values, their positions in view coordinates and their labels, in one
// format.
Chart.prototype.ticks = function (ax, len) {
  var d = this.view[ax], target = Math.max(MIN_TICKS, Math.floor(len / (ax === 'x' ? 90 : 45)));
  var vals, perValue = false;
  if (this.log[ax]) {
    var lt = logTicks(d[0], d[1], target);
    vals = lt.values; perValue = lt.perValue;
  } else {
    vals = linearTicks(d[0], d[1], target);
  }
  var f = tickFormat(vals, perValue), self = this;
  return { values: vals, pos: vals.map(function (v) { return self.tx(v, ax); }), labels: vals.map(f) };
};

Chart.prototype.px = function (v, ax) { return this.pxOf(this.tx(v, ax), ax, this.box); };
Chart.prototype.pxOf = function (t, ax, b) {
  var d = this.view[ax], f = (t - d[0]) / (d[1] - d[0]);
  return ax === 'x' ? b.l + f * (b.r - b.l) : b.b - f * (b.b - b.t);
};
// fromPx maps a pixel to a view coordinate.
Chart.prototype.fromPx = function (p, ax) {
  var b = this.box, d = this.view[ax];
  var f = ax === 'x' ? (p - b.l) / (b.r - b.l) : (b.b - p) / (b.b - b.t);
  return d[0] + f * (d[1] - d[0]);
};

Chart.prototype.redraw = function () {
  var self = this;
  if (this.pending) { return; }
  this.pending = true;
  requestAnimationFrame(function () { self.pending = false; self.draw(); });
};

// select pins point i of series si: the details panel shows it and the
// table marks its row. Nothing scrolls the page.
Chart.prototype.select = function (si, i, from) {
  this.selected = { s: si, i: i };
  this.cursor = { s: si, i: i };
  var st = this.status(si);
  if (st.s[i] !== 0 && !this.showDominated && st.s[i] !== 3) { this.setShowDominated(true, true); }
  this.draw();
  renderDetails(this, { s: si, i: i });
  this.table.highlight(this.rows.index(si, i));
  this.chartBox.setAttribute('data-pinned', si + ':' + i);
  this.front();
  api.lastPin = { plot: this.index, s: si, i: i, from: from || 'chart' };
  this.announce.textContent = 'Pinned ' + pointName(pt(this.plot.series[si].p[i])) + ' in ' + this.plot.series[si].name + ': ' + STATUS[st.s[i]] + '.';
};

// front makes this chart's details the sheet a narrow window shows.
Chart.prototype.front = function () {
  var self = this;
  charts.forEach(function (c) { c.details.classList.toggle('behind', c !== self); });
  document.body.classList.add('sheet');
  placeSheet();
};

// placeSheet puts a narrow window's details sheet at the bottom or the top
// of the window, whichever leaves more of the pinned chart in view, and no
// taller than the room beside the chart there (nor than 40 % of the
// window): so that the chart's legend, its top and its X axis stay in view
// while a point is pinned. Only a window too short for a sheet beside the
// chart (less than SHEET_MIN px on either side) has it cover some. It
// records the scroll position it placed the sheet for (api.sheetY).
// Wide windows show the details beside the chart and are left alone.
var SHEET_MIN = 96;
function placeSheet() {
  var front = charts.filter(function (c) { return c.selected && !c.details.classList.contains('behind'); }).pop();
  charts.forEach(function (c) {
    if (c !== front) { c.details.classList.remove('sheet-top'); c.details.style.maxHeight = ''; }
  });
  api.sheetY = window.scrollY;
  if (!front || window.innerWidth >= 1100) {
    if (front) { front.details.classList.remove('sheet-top'); front.details.style.maxHeight = ''; }
    return;
  }
  var h = window.innerHeight, gap = 8, r = front.chartBox.getBoundingClientRect();
  var head = Math.min(r.top, front.legend.getBoundingClientRect().top); // the legend sits above the chart
  var clamp = function (v) { return Math.max(0, Math.min(v, h)); };
  var above = clamp(head) - 2 * gap, below = h - clamp(r.bottom) - 2 * gap;
  var top = above > below;
  front.details.classList.toggle('sheet-top', top);
  front.details.style.maxHeight = Math.round(Math.max(SHEET_MIN, Math.min(0.4 * h, top ? above : below))) + 'px';
}

Chart.prototype.unpin = function () {
  if (!this.selected) { return; }
  this.selected = null;
  this.chartBox.removeAttribute('data-pinned');
  renderDetails(this, null);
  var other = charts.filter(function (c) { return c.selected; }).pop();
  if (other) { other.front(); } else { document.body.classList.remove('sheet'); placeSheet(); }
  this.table.highlight(-1);
  this.announce.textContent = 'Unpinned.';
  this.draw();
};

// setShowDominated shows or hides this plot's dominated and infeasible
// points; the view follows unless the user zoomed (or keep says so).
Chart.prototype.setShowDominated = function (on, keep) {
  this.showDominated = on;
  this.domBox.checked = on;
  this.renderLegend();
  if (this.auto && !keep) { this.fit(); } else { this.draw(); }
};
