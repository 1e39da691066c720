// pareto.html: drawing a Chart (part of the report-*.js files, see
// report-core.js). paint draws the whole picture through a painter
// (report-paint.js) — axes and ticks, dominated points hollow and neutral,
// frontier lines and markers (one shape per series; a point that several
// series share gets a ring per series), error bars, noise-tied groups,
// baseline markers and the pin — so that the canvas and the SVG export
// show the same thing. draw paints the canvas and rebuilds the hover grid.

var MARK = 5.5, MARK_DOM = 3.2;

Chart.prototype.draw = function () {
  var t = performance.now();
  this.layout();
  var ctx = this.canvas.getContext('2d'), b = this.box;
  ctx.setTransform(b.dpr, 0, 0, b.dpr, 0, 0);
  ctx.clearRect(0, 0, b.w, b.h);
  this.grid = new Grid(b.w, b.h);
  var rec = this.paint(new CanvasPainter(ctx), b, this.grid);
  var name = this.plot.name;
  api.drawn[name] = rec.drawn;
  api.drawnDominated[name] = rec.drawnDom;
  api.errorBars[name] = rec.bars;
  api.baselineDrawn[name] = rec.bases;
  api.markers[name] = rec.markers;
  api.densityCells[name] = rec.densityCells || 0;
  api.logHidden[name] = rec.logHidden;
  api.ticks[name] = { x: b.xt.labels.slice(), y: b.yt.labels.slice() };
  this.axisNote.textContent = rec.note;
  this.axisNote.hidden = !rec.note;
  api.redrawMs = performance.now() - t;
  saveState();
};

// theme returns the colours of the page (the canvas) or of a printable
// light export.
function theme(light) {
  if (light) { return { fg: '#1b1f24', muted: '#5b636d', grid: '#e3e6ea', axis: '#8a929b', bg: '#ffffff', dom: '#6b7480', bad: '#b42318' }; }
  return { fg: cssVar('--fg'), muted: cssVar('--muted'), grid: cssVar('--grid'), axis: cssVar('--axis'), bg: cssVar('--bg'), dom: cssVar('--dom'), bad: cssVar('--bad') };
}

// paint draws the chart in box b; grid, when given, collects the drawn
// points for hovering. It returns what it drew.
Chart.prototype.paint = function (p, b, grid, light) {
  var self = this, th = theme(light);
  this.col = function (i) { return color(i, light); };
  var rec = { drawn: {}, drawnDom: {}, bars: 0, bases: 0, markers: [], logHidden: { x: 0, y: 0 }, note: '' };
  this.paintAxes(p, b, th);
  p.clip(b.l, b.t, b.r - b.l, b.b - b.t);
  var px = function (v, ax) { return self.pxOf(self.tx(v, ax), ax, b); };
  var stack = new Map(), lost = { x: 0, y: 0, frontier: 0 };
  // Dominated points first, under every frontier.
  this.plot.series.forEach(function (s, si) {
    rec.drawn[s.name] = 0;
    rec.drawnDom[s.name] = 0;
    rec.markers[si] = { shape: shape(si), color: color(si, true), frontier: 0, dominated: 0, hidden: !!self.hidden[si] };
    if (self.hidden[si] || !self.showDominated) { return; }
    rec.densityCells = (rec.densityCells || 0) + self.paintDensity(p, b, s, si, px, th);
    var st = self.status(si), xs = [], ys = [], fx = [], fy = [], placed = 0;
    // A marker whose place (to half a pixel) already holds one of the same
    // series and status is not drawn again: 100,000 points stay fast.
    var gw = Math.ceil(b.w * 2) + 2, taken = new Uint8Array(gw * (Math.ceil(b.h * 2) + 2));
    for (var i = 0; i < s.x.length; i++) {
      var status = st.s[i];
      if (status !== 1 && status !== 2) { continue; }
      var x = px(s.x[i], 'x'), y = px(s.y[i], 'y');
      if (!isFinite(x) || !isFinite(y)) { self.countLost(lost, s, i, false); continue; }
      if (x < b.l - 6 || x > b.r + 6 || y < b.t - 6 || y > b.b + 6) { continue; }
      placed++;
      var cell = Math.round(y * 2 + 1) * gw + Math.round(x * 2 + 1);
      if (taken[cell] & status) { continue; }
      taken[cell] |= status;
      if (status === 1) { xs.push(x); ys.push(y); } else { fx.push(x); fy.push(y); }
      if (grid) { grid.add(x, y, si, i); }
    }
    p.markers(shape(si), xs, ys, MARK_DOM, { stroke: th.dom, width: 1, alpha: 0.75, cls: 'marker dominated series-' + si });
    p.markers(shape(si), fx, fy, MARK_DOM, { stroke: th.bad, width: 1, alpha: 0.75, cls: 'marker infeasible series-' + si });
    rec.drawnDom[s.name] = placed;
    rec.markers[si].dominated = xs.length + fx.length;
  });
  this.plot.series.forEach(function (s, si) {
    if (self.hidden[si]) { return; }
    var st = self.status(si);
    self.paintLine(p, s, st.line, px, { stroke: self.col(si), width: 2, cls: 'frontier-line series-' + si });
    if (self.sim && self.sim.showRaw && self.sim.raw[si]) {
      self.paintLine(p, s, self.sim.raw[si].line, px, { stroke: self.col(si), width: 1.2, dash: [5, 4], alpha: 0.8, cls: 'raw-line series-' + si });
    }
    rec.bars += self.paintBars(p, s, si, st, px);
  });
  this.plot.series.forEach(function (s, si) {
    if (self.hidden[si]) { return; }
    var st = self.status(si), n = 0;
    st.line.forEach(function (i) {
      var x = px(s.x[i], 'x'), y = px(s.y[i], 'y');
      if (!isFinite(x) || !isFinite(y)) { self.countLost(lost, s, i, true); return; }
      var key = Math.round(x) + ',' + Math.round(y), depth = stack.get(key) || 0;
      stack.set(key, depth + 1);
      var r = self.tie(st, i) ? MARK + 1 : MARK;
      if (depth === 0) {
        p.markers(shape(si), [x], [y], r, { fill: self.col(si), stroke: th.bg, width: 1, cls: 'marker frontier series-' + si });
      } else {
        // the same point in another series: a ring around the first marker
        p.markers(shape(si), [x], [y], r + 3.5 * depth, { stroke: self.col(si), width: 2, cls: 'marker frontier ring series-' + si });
      }
      if (grid) { grid.add(x, y, si, i); }
      n++;
    });
    if (self.sim) { self.paintTied(p, s, si, px); }
    rec.drawn[s.name] = n;
    rec.markers[si].frontier = n;
    rec.bases += self.paintBases(p, s, si, st, px, th, grid, rec);
  });
  this.paintPin(p, px, th);
  p.unclip();
  if (this.plot.series.every(function (s) { return !s.x.length; })) {
    p.text('No points: every input of this plot is listed under Exclusions, with the reason.', (b.l + b.r) / 2, (b.t + b.b) / 2,
      { fill: th.muted, align: 'center', font: '14px system-ui, sans-serif', cls: 'empty-note' });
  }
  rec.logHidden = { x: lost.x, y: lost.y };
  rec.note = densityNote(this.plot);
  if (lost.x || lost.y) {
    var parts = [];
    if (lost.x) { parts.push(lost.x + ' with ' + this.plot.x.label + ' ≤ 0'); }
    if (lost.y) { parts.push(lost.y + ' with ' + this.plot.y.label + ' ≤ 0'); }
    rec.note = (rec.note ? rec.note + ' ' : '') + 'Not drawn on the log axis: ' + parts.join(', ') + ' point(s)' + (lost.frontier ? ' (' + lost.frontier + ' of them on a frontier)' : '') +
      '; they are in the table. Untick Log to see them.';
  }
  return rec;
};

// countLost counts a point a log axis cannot place.
Chart.prototype.countLost = function (lost, s, i, frontier) {
  if (this.log.x && !(s.x[i] > 0)) { lost.x++; } else if (this.log.y && !(s.y[i] > 0)) { lost.y++; }
  if (frontier) { lost.frontier++; }
};

Chart.prototype.paintAxes = function (p, b, th) {
  var segs = [], self = this;
  p.rect(0, 0, b.w, b.h, { fill: th.bg, cls: 'background' });
  b.xt.pos.forEach(function (t, k) {
    var x = self.pxOf(t, 'x', b);
    if (!isFinite(x)) { return; }
    segs.push(x, b.t, x, b.b);
    p.text(b.xt.labels[k], x, b.b + 16, { fill: th.muted, align: 'center', font: b.font, cls: 'tick tick-x' });
  });
  b.yt.pos.forEach(function (t, k) {
    var y = self.pxOf(t, 'y', b);
    if (!isFinite(y)) { return; }
    segs.push(b.l, y, b.r, y);
    p.text(b.yt.labels[k], b.l - 6, y + 4, { fill: th.muted, align: 'right', font: b.font, cls: 'tick tick-y' });
  });
  p.lines(segs, { stroke: th.grid, width: 1, cls: 'grid' });
  p.rect(b.l, b.t, b.r - b.l, b.b - b.t, { stroke: th.axis, width: 1, cls: 'frame' });
  b.xTitle.forEach(function (line, k) {
    p.text(line, (b.l + b.r) / 2, b.b + 36 + 16 * k, { fill: th.fg, align: 'center', font: b.font, cls: 'axis-title axis-title-x' });
  });
  b.yTitle.forEach(function (line, k) {
    p.text(line, 18 + 16 * k, (b.t + b.b) / 2, { fill: th.fg, align: 'center', font: b.font, rotate: -90, cls: 'axis-title axis-title-y' });
  });
};

// paintLine joins frontier points in x order with a step: the corner
// between two points is their worse x and worse y, so lines run through
// measured points only and never past the first or last.
Chart.prototype.paintLine = function (p, s, line, px, st) {
  if (line.length < 2) { return; }
  var dx = this.plot.x.direction, dy = this.plot.y.direction, pts = [], prev = -1;
  for (var k = 0; k < line.length; k++) {
    var i = line[k], x = px(s.x[i], 'x'), y = px(s.y[i], 'y');
    if (!isFinite(x) || !isFinite(y)) { continue; }
    if (prev >= 0) { pts.push(px(worse(s.x[prev], s.x[i], dx), 'x'), px(worse(s.y[prev], s.y[i], dy), 'y')); }
    pts.push(x, y);
    prev = i;
  }
  p.polyline(pts, st);
};

// paintBars draws the error bars of the drawn points with repeats:
// min–max whiskers with caps and a thick translucent interquartile range.
Chart.prototype.paintBars = function (p, s, si, st, px) {
  if (!s.r) { return 0; }
  var self = this, n = 0, c = self.col(si);
  Object.keys(s.r).forEach(function (k) {
    var i = Number(k), r = s.r[k];
    if (!self.shown(st, i)) { return; }
    var x = px(s.x[i], 'x'), y = px(s.y[i], 'y');
    if (!isFinite(x) || !isFinite(y)) { return; }
    var thin = { stroke: c, width: 1.2, alpha: 0.8, cls: 'error-bar' }, thick = { stroke: c, width: 5, alpha: 0.35, cls: 'error-bar' };
    var lx = px(r.x.min, 'x'), hx = px(r.x.max, 'x'), ly = px(r.y.min, 'y'), hy = px(r.y.max, 'y');
    [[[lx, y, hx, y], thin], [[px(r.x.q1, 'x'), y, px(r.x.q3, 'x'), y], thick], [[lx, y - 4, lx, y + 4], thin], [[hx, y - 4, hx, y + 4], thin],
      [[x, ly, x, hy], thin], [[x, px(r.y.q1, 'y'), x, px(r.y.q3, 'y')], thick], [[x - 4, ly, x + 4, ly], thin], [[x - 4, hy, x + 4, hy], thin]]
      .forEach(function (seg) { if (seg[0].every(isFinite)) { p.lines(seg[0], seg[1]); } });
    n++;
  });
  return n;
};

// paintTied links the members of each noise-tied group (a top cycle of
// the noise-aware relation) with a dotted line.
Chart.prototype.paintTied = function (p, s, si, px) {
  var self = this, st = this.sim.series[si];
  (st.tied || []).forEach(function (g) {
    var pts = [];
    g.forEach(function (i) { pts.push(px(s.x[i], 'x'), px(s.y[i], 'y')); });
    if (pts.every(isFinite)) { p.polyline(pts.concat(pts.slice(0, 2)), { stroke: self.col(si), width: 1.2, dash: [2, 3], cls: 'noise-tied series-' + si }); }
  });
};

// paintBases outlines the baseline points of a series (drawn even when
// dominated points are hidden) and returns how many it drew. A baseline
// several series share (or two close together) gets one "baseline"
// label: rec.baseLabels holds where labels were written.
Chart.prototype.paintBases = function (p, s, si, st, px, th, grid, rec) {
  if (!s.base || !s.base.bases) { return 0; }
  var self = this, n = 0;
  s.base.bases.forEach(function (bv) {
    var i = bv.row;
    if (i < 0) { return; }
    var x = px(s.x[i], 'x'), y = px(s.y[i], 'y');
    if (!isFinite(x) || !isFinite(y)) { return; }
    if (!self.shown(st, i)) {
      p.markers(shape(si), [x], [y], MARK_DOM, { stroke: th.dom, width: 1, cls: 'marker dominated series-' + si });
      if (grid) { grid.add(x, y, si, i); }
    }
    p.polyline([x, y - 12, x + 12, y, x, y + 12, x - 12, y, x, y - 12], { stroke: th.fg, width: 2, cls: 'baseline-marker' });
    var labels = rec ? (rec.baseLabels = rec.baseLabels || []) : [];
    if (!labels.some(function (l) { return Math.abs(l[0] - x) < 60 && Math.abs(l[1] - y) < 14; })) {
      p.text('baseline', x + 14, y - 8, { fill: th.muted, font: '11px system-ui, sans-serif', cls: 'baseline-label' });
      labels.push([x, y]);
    }
    n++;
  });
  return n;
};

// paintPin rings the pinned point and, while the chart has the keyboard
// focus, the point the arrow keys are on.
Chart.prototype.paintPin = function (p, px, th) {
  var self = this;
  function ring(sel, r, st) {
    if (!sel || self.hidden[sel.s]) { return; }
    var s = self.plot.series[sel.s], x = px(s.x[sel.i], 'x'), y = px(s.y[sel.i], 'y');
    if (isFinite(x) && isFinite(y)) { p.markers('circle', [x], [y], r, st); }
  }
  ring(this.selected, 10, { stroke: th.fg, width: 2, cls: 'pin' });
  if (this.focused) { ring(this.cursor, 13, { stroke: th.fg, width: 1.5, dash: [3, 3], cls: 'cursor' }); }
};

// ---- hover grid -------------------------------------------------------------
function Grid(w, h) {
  this.size = 16;
  this.cols = Math.ceil(w / this.size) + 1;
  this.cells = new Map();
}
Grid.prototype.add = function (x, y, s, i) {
  var k = Math.floor(y / this.size) * this.cols + Math.floor(x / this.size);
  var c = this.cells.get(k);
  if (!c) { c = []; this.cells.set(k, c); }
  c.push(x, y, s, i);
};
// near returns the points within r pixels of (x, y), nearest first.
Grid.prototype.near = function (x, y, r) {
  var out = [], cx = Math.floor(x / this.size), cy = Math.floor(y / this.size), reach = Math.ceil(r / this.size);
  for (var gy = cy - reach; gy <= cy + reach; gy++) {
    for (var gx = cx - reach; gx <= cx + reach; gx++) {
      var c = this.cells.get(gy * this.cols + gx);
      if (!c) { continue; }
      for (var j = 0; j < c.length; j += 4) {
        var d = Math.hypot(c[j] - x, c[j + 1] - y);
        if (d <= r) { out.push({ s: c[j + 2], i: c[j + 3], d: d, x: c[j], y: c[j + 1] }); }
      }
    }
  }
  return out.sort(function (a, b) { return a.d - b.d || a.s - b.s; });
};
Grid.prototype.nearest = function (x, y, r) { var n = this.near(x, y, r); return n.length ? n[0] : null; };
// all returns every point, left to right.
Grid.prototype.all = function () {
  var out = [];
  this.cells.forEach(function (c) { for (var j = 0; j < c.length; j += 4) { out.push({ x: c[j], y: c[j + 1], s: c[j + 2], i: c[j + 3] }); } });
  return out;
};
