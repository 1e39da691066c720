// pareto.html: mouse, touch and keyboard on a Chart (part of the report-*.js
// files, see report-core.js), as people know them from Plotly and uPlot:
// drag draws a box to zoom into (on an axis, that axis only), Shift+drag or
// the Pan mode pans, the wheel zooms only with Ctrl or ⌘ held (otherwise
// the page scrolls as usual), double-click resets, a click pins the
// nearest point, Escape unpins. With the keyboard focus on the chart, the
// arrow keys move between the drawn points, Enter pins, + and − zoom and 0
// resets.

Chart.prototype.bindPointer = function () {
  var self = this, c = this.canvas, drag = null;
  function pos(ev) { var r = c.getBoundingClientRect(); return { x: ev.clientX - r.left, y: ev.clientY - r.top }; }
  // region says where a press lands: the plot area, an axis, or neither.
  function region(p) {
    var b = self.box;
    if (p.x >= b.l && p.x <= b.r && p.y >= b.t && p.y <= b.b) { return 'plot'; }
    if (p.x < b.l && p.y >= b.t && p.y <= b.b) { return 'y'; }
    if (p.y > b.b && p.x >= b.l && p.x <= b.r) { return 'x'; }
    return '';
  }
  c.addEventListener('pointerdown', function (ev) {
    if (ev.button !== 0) { return; }
    var p = pos(ev), where = region(p);
    if (!where) { return; }
    var pan = where === 'plot' && (ev.shiftKey || self.mode === 'pan');
    drag = { p: p, where: where, pan: pan, view: { x: self.view.x.slice(), y: self.view.y.slice() }, moved: false, id: ev.pointerId };
    try { c.setPointerCapture(ev.pointerId); } catch (e) { /* synthetic events have no capture */ }
  });
  c.addEventListener('pointermove', function (ev) {
    var p = pos(ev);
    if (!drag) { self.showTip(p); return; }
    var dx = p.x - drag.p.x, dy = p.y - drag.p.y;
    if (Math.abs(dx) + Math.abs(dy) > 4) { drag.moved = true; }
    if (!drag.moved) { return; }
    self.tip.style.display = 'none';
    if (drag.pan) { self.pan(drag.view, dx, dy); return; }
    self.showBox(drag, p);
  });
  function end(ev) {
    if (!drag) { return; }
    var d = drag, p = pos(ev);
    drag = null;
    self.zoomBox.style.display = 'none';
    if (d.pan) { return; }
    if (!d.moved) {
      if (d.where === 'plot') {
        var hit = self.grid && self.grid.nearest(p.x, p.y, 9);
        if (hit) { self.select(hit.s, hit.i, 'chart'); }
      }
      return;
    }
    self.zoomTo(d, p);
  }
  c.addEventListener('pointerup', end);
  c.addEventListener('pointercancel', function () { drag = null; self.zoomBox.style.display = 'none'; });
  c.addEventListener('pointerleave', function () { if (!drag) { self.tip.style.display = 'none'; } });
  c.addEventListener('dblclick', function (ev) { ev.preventDefault(); self.auto = true; self.fit(); });
  c.addEventListener('wheel', function (ev) {
    if (!(ev.ctrlKey || ev.metaKey)) { self.wheelHint(); return; }
    ev.preventDefault();
    var p = pos(ev);
    self.zoomAt(p.x, p.y, ev.deltaY < 0 ? 1 / 1.2 : 1.2, region(p));
  }, { passive: false });
};

// showBox draws the rubber band of a box zoom; on an axis, or when the
// drag is nearly flat, it spans the other axis whole.
Chart.prototype.showBox = function (d, p) {
  var b = this.box, z = this.zoomBox.style, axes = this.boxAxes(d, p);
  var x0 = axes.x ? Math.max(b.l, Math.min(d.p.x, p.x)) : b.l, x1 = axes.x ? Math.min(b.r, Math.max(d.p.x, p.x)) : b.r;
  var y0 = axes.y ? Math.max(b.t, Math.min(d.p.y, p.y)) : b.t, y1 = axes.y ? Math.min(b.b, Math.max(d.p.y, p.y)) : b.b;
  z.display = 'block';
  z.left = x0 + 'px'; z.top = y0 + 'px'; z.width = (x1 - x0) + 'px'; z.height = (y1 - y0) + 'px';
};
Chart.prototype.boxAxes = function (d, p) {
  if (d.where === 'x') { return { x: true, y: false }; }
  if (d.where === 'y') { return { x: false, y: true }; }
  var dx = Math.abs(p.x - d.p.x), dy = Math.abs(p.y - d.p.y);
  return { x: dx >= 8 || dy < 8, y: dy >= 8 || dx < 8 };
};
Chart.prototype.zoomTo = function (d, p) {
  var axes = this.boxAxes(d, p), v = { x: this.view.x.slice(), y: this.view.y.slice() }, self = this;
  ['x', 'y'].forEach(function (ax) {
    if (!axes[ax]) { return; }
    var a = self.fromPx(d.p[ax], ax), b = self.fromPx(p[ax], ax);
    if (Math.abs(d.p[ax] - p[ax]) >= 3) { v[ax] = [Math.min(a, b), Math.max(a, b)]; }
  });
  this.setView(v);
};
Chart.prototype.setView = function (v) {
  this.view = v;
  this.auto = false;
  this.redraw();
};

// zoomAt zooms by k around pixel (x, y): both axes in the plot, one on an
// axis.
Chart.prototype.zoomAt = function (x, y, k, where) {
  var v = this.view, self = this, out = { x: v.x.slice(), y: v.y.slice() };
  ['x', 'y'].forEach(function (ax) {
    if (where === (ax === 'x' ? 'y' : 'x')) { return; }
    var c = self.fromPx(ax === 'x' ? x : y, ax), d = v[ax];
    out[ax] = [c - (c - d[0]) * k, c + (d[1] - c) * k];
  });
  this.setView(out);
};

Chart.prototype.pan = function (from, dx, dy) {
  var b = this.box;
  var sx = (from.x[1] - from.x[0]) / (b.r - b.l), sy = (from.y[1] - from.y[0]) / (b.b - b.t);
  this.setView({ x: [from.x[0] - dx * sx, from.x[1] - dx * sx], y: [from.y[0] + dy * sy, from.y[1] + dy * sy] });
};

// wheelHint tells a user scrolling over the chart how to zoom, without
// taking the scroll away from the page.
Chart.prototype.wheelHint = function () {
  var h = this.hint;
  h.classList.add('show');
  clearTimeout(this.hintTimer);
  this.hintTimer = setTimeout(function () { h.classList.remove('show'); }, 1200);
};

// tipLines describes point i of series si, naming every other series
// drawn at the same place.
Chart.prototype.tipLines = function (si, i, others) {
  var plot = this.plot, s = plot.series[si], p = pt(s.p[i]), st = this.status(si);
  var lines = [s.name + (others.length ? '  (also in: ' + others.join(', ') + ')' : ''), pointName(p),
    plot.sels[s.xs ? s.xs[i] : 0] + ' = ' + fmt(s.x[i]) + unitOf(plot.x), plot.sels[s.ys ? s.ys[i] : 0] + ' = ' + fmt(s.y[i]) + unitOf(plot.y)];
  var status = STATUS[st.s[i]] + (R.isBase(s, i) ? ' · baseline' : '');
  if (this.tie(st, i) & 1) { status += ' · tie (identical values)'; }
  if (this.tie(st, i) & 2) { status += ' · noise-tied'; }
  lines.push(status);
  if (st.s[i] === 1 && st.by[i] >= 0) { lines.push('beaten by ' + pointName(pt(s.p[st.by[i]])) + ': ' + this.versus(s, st.by[i], i)); }
  if (st.s[i] === 2) { lines.push(this.sim ? this.sim.violations(si, i) : (s.notes && s.notes[i]) || 'violates an SLO'); }
  if (st.s[i] === 3) { lines.push(this.sim ? this.sim.reason(si, i) : (s.notes && s.notes[i]) || 'invalid'); }
  var n = R.count(s, i);
  lines.push(n > 1 ? 'n=' + n + ' (' + data.aggregate + ' of repeats)' : 'n=1');
  var b = R.base(s, i);
  if (b && b.why) { lines.push('Δ vs baseline: ' + b.why); } else if (b) {
    lines.push('Δ vs baseline: X ' + (R.pct(b.dx) || 'n/a') + ', Y ' + (R.pct(b.dy) || 'n/a'));
  }
  return lines;
};

// versus says by how much point a differs from point b on each axis, as
// "X −12% (better), Y +3% (better)".
Chart.prototype.versus = function (s, a, b) {
  var plot = this.plot;
  function one(ax, va, vb, axis) {
    var d = (va - vb) / Math.abs(vb);
    if (!isFinite(d)) { return ax + ' ' + fmt(va) + ' vs ' + fmt(vb); }
    var word = d === 0 ? 'equal' : ((d > 0) === (axis.direction === 'maximize') ? 'better' : 'worse');
    return ax + ' ' + (R.pct(d) || '±0%') + ' (' + word + ')';
  }
  return one('X', s.x[a], s.x[b], plot.x) + ', ' + one('Y', s.y[a], s.y[b], plot.y);
};

Chart.prototype.showTip = function (p) {
  var hits = this.grid ? this.grid.near(p.x, p.y, 9) : [];
  if (!hits.length) { this.tip.style.display = 'none'; return; }
  this.tipAt(hits[0], hits);
};

// tipAt shows the tooltip of hit, naming the other series that have a
// point at the same place.
Chart.prototype.tipAt = function (hit, hits) {
  var self = this, others = [];
  (hits || this.grid.near(hit.x, hit.y, 1)).forEach(function (h) {
    var name = self.plot.series[h.s].name;
    if (h.s !== hit.s && Math.abs(h.x - hit.x) < 1 && Math.abs(h.y - hit.y) < 1 && others.indexOf(name) < 0) { others.push(name); }
  });
  this.tip.textContent = this.tipLines(hit.s, hit.i, others).join('\n');
  this.tip.style.display = 'block';
  var left = Math.min(hit.x + 14, this.box.w - this.tip.offsetWidth - 4);
  this.tip.style.left = Math.max(0, left) + 'px';
  var top = hit.y + 14;
  if (top + this.tip.offsetHeight > this.box.h) { top = Math.max(0, hit.y - 14 - this.tip.offsetHeight); }
  this.tip.style.top = top + 'px';
};

// ---- keyboard ------------------------------------------------------------------
Chart.prototype.bindKeys = function () {
  var self = this, c = this.canvas;
  // A click focuses the chart too; only keyboard focus (:focus-visible)
  // shows the cursor, so that a click's tooltip stays where the mouse is.
  c.addEventListener('focus', function () {
    if (!c.matches(':focus-visible')) { return; }
    self.focused = true;
    if (!self.cursor) { self.moveCursor('first'); } else { self.draw(); self.cursorTip(); }
  });
  c.addEventListener('blur', function () { self.focused = false; self.tip.style.display = 'none'; self.draw(); });
  c.addEventListener('keydown', function (ev) {
    var k = ev.key, handled = true, b = self.box;
    self.focused = true;
    switch (k) {
      case 'ArrowRight': self.moveCursor('right'); break;
      case 'ArrowLeft': self.moveCursor('left'); break;
      case 'ArrowUp': self.moveCursor('up'); break;
      case 'ArrowDown': self.moveCursor('down'); break;
      case 'Home': self.moveCursor('first'); break;
      case 'End': self.moveCursor('last'); break;
      case 'Enter': case ' ': if (self.cursor) { self.select(self.cursor.s, self.cursor.i, 'keyboard'); } break;
      case '+': case '=': self.zoomAt((b.l + b.r) / 2, (b.t + b.b) / 2, 1 / 1.5, 'plot'); break;
      case '-': case '_': self.zoomAt((b.l + b.r) / 2, (b.t + b.b) / 2, 1.5, 'plot'); break;
      case '0': self.auto = true; self.fit(); break;
      default: handled = false;
    }
    if (handled) { ev.preventDefault(); }
  });
};

// moveCursor moves the keyboard cursor to the nearest drawn point in a
// direction (by x for left and right, by y for up and down).
Chart.prototype.moveCursor = function (dir) {
  var pts = this.grid ? this.grid.all() : [];
  if (!pts.length) { this.cursor = null; return; }
  var cur = null, self = this;
  if (this.cursor) {
    pts.forEach(function (q) { if (q.s === self.cursor.s && q.i === self.cursor.i) { cur = q; } });
  }
  var ax = dir === 'up' || dir === 'down' ? 'y' : 'x', other = ax === 'x' ? 'y' : 'x';
  // screen y grows downwards: "up" is a smaller pixel y
  var sign = dir === 'right' || dir === 'down' ? 1 : -1;
  pts.sort(function (a, b) { return a[ax] - b[ax] || a[other] - b[other] || a.s - b.s || a.i - b.i; });
  var next;
  if (dir === 'first' || (!cur && sign > 0)) { next = pts[0]; } else if (dir === 'last' || !cur) { next = pts[pts.length - 1]; } else {
    var k = pts.findIndex(function (q) { return q.s === cur.s && q.i === cur.i; });
    next = pts[Math.max(0, Math.min(pts.length - 1, k + sign))];
  }
  this.cursor = { s: next.s, i: next.i };
  this.draw();
  this.cursorTip();
};
Chart.prototype.cursorTip = function () {
  if (!this.cursor || !this.grid) { return; }
  var self = this, hit = null;
  this.grid.all().forEach(function (q) { if (q.s === self.cursor.s && q.i === self.cursor.i) { hit = q; } });
  if (hit) { this.tipAt(hit); this.canvas.setAttribute('aria-description', this.tip.textContent); }
};

// Escape unpins the point of the chart that has the focus, or of every
// chart when none has.
document.addEventListener('keydown', function (ev) {
  if (ev.key !== 'Escape') { return; }
  var inChart = charts.filter(function (c) { return c.root.contains(document.activeElement); });
  (inChart.length ? inChart : charts).forEach(function (c) { c.unpin(); });
});
