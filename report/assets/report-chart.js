// pareto.html: the Chart, one plot of the report (part of the report-*.js
// files, see report-core.js). It holds the plot's view state (zoom, log
// axes, hidden series, selection), builds its section (toolbar, legend,
// canvas, details, measurement table) and wires the mouse: zoom, pan,
// tooltip and point selection.

function Chart(plot, index) {
  this.plot = plot;
  this.index = index;
  this.log = { x: !!plot.x.log, y: !!plot.y.log };
  this.hidden = plot.series.map(function () { return false; });
  this.selected = null;
  this.hover = null;
  this.build();
  this.reset();
}

Chart.prototype.build = function () {
  var self = this, plot = this.plot;
  this.root = el('section', { class: 'plot', id: 'plot-' + this.index, 'data-plot': String(this.index) });
  this.root.appendChild(el('h2', { text: plot.name }));
  var sub = 'X: ' + axisTitle(plot.x) + ' · Y: ' + axisTitle(plot.y);
  if (plot.slos && plot.slos.length) { sub += ' · SLOs: ' + plot.slos.join(', '); }
  if (plot.x.noise || plot.y.noise || plot.x.min_improve || plot.y.min_improve) {
    sub += ' · noise-aware (σx=' + fmt(plot.x.noise || 0) + ', σy=' + fmt(plot.y.noise || 0) + ', δx=' + fmt(plot.x.min_improve || 0) + ', δy=' + fmt(plot.y.min_improve || 0) + ')';
  }
  this.root.appendChild(el('p', { class: 'note', text: sub }));
  var tb = el('div', { class: 'toolbar' });
  this.domBox = el('input', { type: 'checkbox', class: 'show-dominated' });
  this.domBox.addEventListener('change', function () { setShowDominated(self.domBox.checked); });
  tb.appendChild(el('label', null, this.domBox, ' Show dominated points'));
  ['x', 'y'].forEach(function (ax) {
    var box = el('input', { type: 'checkbox', class: 'log-' + ax });
    box.checked = self.log[ax];
    box.addEventListener('change', function () { self.log[ax] = box.checked; self.reset(); });
    tb.appendChild(el('label', null, box, ' Log ' + ax.toUpperCase()));
  });
  var reset = el('button', { type: 'button', class: 'reset', text: 'Reset zoom' });
  reset.addEventListener('click', function () { self.reset(); });
  var svg = el('button', { type: 'button', class: 'export-svg', text: 'Export SVG' });
  svg.addEventListener('click', function () { download(plot.name + '.svg', self.svg(), 'image/svg+xml'); });
  tb.appendChild(reset);
  tb.appendChild(svg);
  tb.appendChild(el('span', { class: 'note', text: 'Wheel: zoom · drag: pan · click: pin details' }));
  this.root.appendChild(tb);
  this.legend = el('div', { class: 'legend' });
  plot.series.forEach(function (s, i) {
    var b = el('button', { type: 'button', 'aria-pressed': 'true', 'data-series': String(i) },
      el('span', { class: 'swatch', style: 'background:' + color(i) }), s.name + ' (' + s.frontier + ' on frontier, ' + s.x.length + ' points)');
    b.addEventListener('click', function () {
      self.hidden[i] = !self.hidden[i];
      b.setAttribute('aria-pressed', String(!self.hidden[i]));
      self.draw();
    });
    self.legend.appendChild(b);
  });
  if (data.baseline) {
    this.legend.appendChild(el('span', { class: 'legend-baseline' }, el('span', { class: 'base-swatch', text: '◇' }), 'baseline: ' + data.baseline));
  }
  this.root.appendChild(this.legend);
  plot.series.forEach(function (s) {
    if (s.base && s.base.note) { self.root.appendChild(el('p', { class: 'note', text: s.name + ': ' + s.base.note })); }
  });
  this.canvas = el('canvas', { role: 'img', 'aria-label': plot.name });
  this.tip = el('div', { class: 'tooltip' });
  this.root.appendChild(el('div', { class: 'chart' }, this.canvas, this.tip));
  this.details = el('div', { class: 'details', hidden: '' });
  this.root.appendChild(this.details);
  this.root.appendChild(el('h3', { text: 'Measurements' }));
  this.table = new Table(this.measureColumns(), this.measureRows(), function (row) { self.select(row.s, row.i); });
  this.root.appendChild(this.table.root);
  this.bindMouse();
};

// reset fits the view to every point (dominated ones too, so toggling
// them does not move the frontier) and its error bars.
Chart.prototype.reset = function () {
  var self = this, bx = [Infinity, -Infinity], by = [Infinity, -Infinity];
  function fit(b, v) { if (isFinite(v)) { b[0] = Math.min(b[0], v); b[1] = Math.max(b[1], v); } }
  this.plot.series.forEach(function (s) {
    for (var i = 0; i < s.x.length; i++) {
      fit(bx, self.tx(s.x[i], 'x'));
      fit(by, self.tx(s.y[i], 'y'));
    }
    Object.keys(s.r || {}).forEach(function (k) {
      var r = s.r[k];
      fit(bx, self.tx(r.x.min, 'x')); fit(bx, self.tx(r.x.max, 'x'));
      fit(by, self.tx(r.y.min, 'y')); fit(by, self.tx(r.y.max, 'y'));
    });
  });
  function pad(b) {
    if (!isFinite(b[0])) { return [0, 1]; }
    var d = (b[1] - b[0]) || Math.abs(b[0]) || 1;
    return [b[0] - d * 0.06, b[1] + d * 0.06];
  }
  this.view = { x: pad(bx), y: pad(by) };
  this.draw();
};

Chart.prototype.tx = function (v, ax) {
  if (!this.log[ax]) { return v; }
  return v > 0 ? Math.log10(v) : NaN;
};

Chart.prototype.layout = function () {
  var w = this.canvas.clientWidth || 800;
  var h = Math.max(280, Math.min(520, Math.round(w * 0.55)));
  var dpr = window.devicePixelRatio || 1;
  if (this.canvas.width !== Math.round(w * dpr) || this.canvas.height !== Math.round(h * dpr)) {
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    this.canvas.style.height = h + 'px';
  }
  this.box = { l: 72, t: 12, r: w - 16, b: h - 48, w: w, h: h, dpr: dpr };
};

Chart.prototype.px = function (v, ax) {
  var b = this.box, d = this.view[ax];
  var f = (this.tx(v, ax) - d[0]) / (d[1] - d[0]);
  return ax === 'x' ? b.l + f * (b.r - b.l) : b.b - f * (b.b - b.t);
};

// ---- interaction --------------------------------------------------------
Chart.prototype.bindMouse = function () {
  var self = this, drag = null;
  function pos(ev) { var r = self.canvas.getBoundingClientRect(); return { x: ev.clientX - r.left, y: ev.clientY - r.top }; }
  this.canvas.addEventListener('wheel', function (ev) {
    ev.preventDefault();
    var p = pos(ev), k = ev.deltaY < 0 ? 1 / 1.2 : 1.2;
    self.zoom(p.x, p.y, k);
  }, { passive: false });
  this.canvas.addEventListener('mousedown', function (ev) { drag = { p: pos(ev), view: JSON.parse(JSON.stringify(self.view)), moved: false }; });
  window.addEventListener('mouseup', function () { setTimeout(function () { drag = null; }, 0); });
  this.canvas.addEventListener('mousemove', function (ev) {
    var p = pos(ev);
    if (drag && (ev.buttons & 1)) {
      var dx = p.x - drag.p.x, dy = p.y - drag.p.y;
      if (Math.abs(dx) + Math.abs(dy) > 3) { drag.moved = true; }
      self.pan(drag.view, dx, dy);
      return;
    }
    self.showTip(p);
  });
  this.canvas.addEventListener('mouseleave', function () { self.tip.style.display = 'none'; });
  this.canvas.addEventListener('click', function (ev) {
    if (drag && drag.moved) { return; }
    var p = pos(ev), hit = self.grid && self.grid.nearest(p.x, p.y, 9);
    if (hit) { self.select(hit.s, hit.i); }
  });
};

Chart.prototype.zoom = function (x, y, k) {
  var b = this.box, v = this.view;
  var fx = (x - b.l) / (b.r - b.l), fy = (b.b - y) / (b.b - b.t);
  var cx = v.x[0] + fx * (v.x[1] - v.x[0]), cy = v.y[0] + fy * (v.y[1] - v.y[0]);
  this.view = { x: [cx - (cx - v.x[0]) * k, cx + (v.x[1] - cx) * k], y: [cy - (cy - v.y[0]) * k, cy + (v.y[1] - cy) * k] };
  this.redraw();
};

Chart.prototype.pan = function (from, dx, dy) {
  var b = this.box;
  var sx = (from.x[1] - from.x[0]) / (b.r - b.l), sy = (from.y[1] - from.y[0]) / (b.b - b.t);
  this.view = { x: [from.x[0] - dx * sx, from.x[1] - dx * sx], y: [from.y[0] + dy * sy, from.y[1] + dy * sy] };
  this.redraw();
};

Chart.prototype.redraw = function () {
  var self = this;
  if (this.pending) { return; }
  this.pending = true;
  requestAnimationFrame(function () { self.pending = false; self.draw(); });
};

Chart.prototype.showTip = function (p) {
  var hit = this.grid && this.grid.nearest(p.x, p.y, 9);
  if (!hit) { this.tip.style.display = 'none'; return; }
  var s = this.plot.series[hit.s], pt = data.points[s.p[hit.i]];
  var lines = [s.name, pointName(pt), this.plot.sels[s.xs[hit.i]] + ' = ' + fmt(s.x[hit.i]), this.plot.sels[s.ys[hit.i]] + ' = ' + fmt(s.y[hit.i]),
    STATUS[s.s[hit.i]] + (R.isBase(s, hit.i) ? ' · baseline' : '')];
  var n = R.count(s, hit.i);
  lines.push(n > 1 ? 'n=' + n + ' (' + data.aggregate + ' of repeats)' : 'n=1');
  var b = R.base(s, hit.i);
  if (b && b.why) { lines.push('Δ vs baseline: ' + b.why); } else if (b) {
    lines.push('Δ vs baseline: X ' + (R.pct(b.dx) || 'n/a') + ', Y ' + (R.pct(b.dy) || 'n/a'));
  }
  this.tip.textContent = lines.join('\n');
  this.tip.style.display = 'block';
  var left = Math.min(p.x + 14, this.box.w - this.tip.offsetWidth - 4);
  this.tip.style.left = Math.max(0, left) + 'px';
  this.tip.style.top = (p.y + 14) + 'px';
};

Chart.prototype.select = function (si, i) {
  this.selected = { s: si, i: i };
  var s = this.plot.series[si];
  if (s.s[i] !== 0 && !state.showDominated) { setShowDominated(true); }
  this.draw();
  renderDetails(this, si, i);
  this.table.highlight(function (row) { return row.s === si && row.i === i; });
};

function setShowDominated(on) {
  state.showDominated = on;
  charts.forEach(function (c) { c.domBox.checked = on; c.draw(); });
}
