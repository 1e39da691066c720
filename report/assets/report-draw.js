// pareto.html: drawing a Chart on its canvas (part of the report-*.js files,
// see report-core.js): axes and ticks, dominated points, frontier lines and
// markers, error bars, baseline markers, the selection ring, and the hover
// grid that finds the point under the mouse.

Chart.prototype.draw = function () {
  var t = performance.now();
  this.layout();
  var ctx = this.canvas.getContext('2d'), b = this.box;
  ctx.setTransform(b.dpr, 0, 0, b.dpr, 0, 0);
  ctx.clearRect(0, 0, b.w, b.h);
  this.drawAxes(ctx);
  ctx.save();
  ctx.beginPath();
  ctx.rect(b.l, b.t, b.r - b.l, b.b - b.t);
  ctx.clip();
  this.grid = new Grid(b.w, b.h);
  var drawn = {}, drawnDom = {}, bars = 0, bases = 0;
  for (var si = 0; si < this.plot.series.length; si++) {
    var s = this.plot.series[si];
    drawn[s.name] = 0;
    drawnDom[s.name] = 0;
    if (this.hidden[si]) { continue; }
    if (state.showDominated) { drawnDom[s.name] = this.drawDominated(ctx, s, si); }
    this.drawLine(ctx, s, si);
    bars += this.drawBars(ctx, s, si);
    drawn[s.name] = this.drawFrontier(ctx, s, si);
    bases += this.drawBases(ctx, s, si);
  }
  this.drawSelection(ctx);
  ctx.restore();
  api.drawn[this.plot.name] = drawn;
  api.drawnDominated[this.plot.name] = drawnDom;
  api.errorBars[this.plot.name] = bars;
  api.baselineDrawn[this.plot.name] = bases;
  api.redrawMs = performance.now() - t;
};

Chart.prototype.drawAxes = function (ctx) {
  var self = this, b = this.box;
  ctx.strokeStyle = cssVar('--grid');
  ctx.fillStyle = cssVar('--muted');
  ctx.lineWidth = 1;
  ctx.font = '12px system-ui, sans-serif';
  ['x', 'y'].forEach(function (ax) {
    var d = self.view[ax];
    var ticks = self.log[ax] ? logTicks(d[0], d[1]) : niceTicks(d[0], d[1], ax === 'x' ? 7 : 6);
    ticks.forEach(function (tv) {
      var f = (tv - d[0]) / (d[1] - d[0]);
      var label = fmt(self.log[ax] ? Math.pow(10, tv) : tv);
      ctx.beginPath();
      if (ax === 'x') {
        var x = b.l + f * (b.r - b.l);
        ctx.moveTo(x, b.t); ctx.lineTo(x, b.b); ctx.stroke();
        ctx.textAlign = 'center'; ctx.fillText(label, x, b.b + 16);
      } else {
        var y = b.b - f * (b.b - b.t);
        ctx.moveTo(b.l, y); ctx.lineTo(b.r, y); ctx.stroke();
        ctx.textAlign = 'right'; ctx.fillText(label, b.l - 6, y + 4);
      }
    });
  });
  ctx.strokeStyle = cssVar('--axis');
  ctx.strokeRect(b.l, b.t, b.r - b.l, b.b - b.t);
  ctx.fillStyle = cssVar('--fg');
  ctx.textAlign = 'center';
  ctx.fillText(this.plot.x.label + (this.plot.x.unit ? ' (' + this.plot.x.unit + ')' : '') + (this.log.x ? ' · log' : ''), (b.l + b.r) / 2, b.h - 8);
  ctx.save();
  ctx.translate(14, (b.t + b.b) / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.fillText(this.plot.y.label + (this.plot.y.unit ? ' (' + this.plot.y.unit + ')' : '') + (this.log.y ? ' · log' : ''), 0, 0);
  ctx.restore();
};

// drawDominated draws dominated and infeasible points faded, with one
// fillRect per point: fast enough for 1e5 points.
Chart.prototype.drawDominated = function (ctx, s, si) {
  var n = 0, b = this.box;
  ctx.globalAlpha = 0.28;
  ctx.fillStyle = color(si);
  for (var i = 0; i < s.x.length; i++) {
    if (s.s[i] === 0) { continue; }
    var x = this.px(s.x[i], 'x'), y = this.px(s.y[i], 'y');
    if (!(x >= b.l - 4 && x <= b.r + 4 && y >= b.t - 4 && y <= b.b + 4)) { continue; }
    ctx.fillRect(x - 2.5, y - 2.5, 5, 5);
    this.grid.add(x, y, si, i);
    n++;
  }
  ctx.globalAlpha = 1;
  return n;
};

// drawLine joins frontier points in x order with a step: the corner
// between two points is their worse x and worse y, so lines run through
// measured points only and never past the first or last.
Chart.prototype.drawLine = function (ctx, s, si) {
  var line = s.line.filter(function (i) { return true && i >= 0; });
  if (line.length < 2) { return; }
  var dx = this.plot.x.direction, dy = this.plot.y.direction;
  ctx.strokeStyle = color(si);
  ctx.lineWidth = 1.8;
  ctx.beginPath();
  for (var k = 0; k < line.length; k++) {
    var i = line[k], x = this.px(s.x[i], 'x'), y = this.px(s.y[i], 'y');
    if (!isFinite(x) || !isFinite(y)) { continue; }
    if (k === 0) { ctx.moveTo(x, y); continue; }
    var p = line[k - 1];
    ctx.lineTo(this.px(worse(s.x[p], s.x[i], dx), 'x'), this.px(worse(s.y[p], s.y[i], dy), 'y'));
    ctx.lineTo(x, y);
  }
  ctx.stroke();
};

Chart.prototype.drawFrontier = function (ctx, s, si) {
  var n = 0;
  ctx.fillStyle = color(si);
  ctx.strokeStyle = cssVar('--bg');
  ctx.lineWidth = 1;
  for (var k = 0; k < s.line.length; k++) {
    var i = s.line[k], x = this.px(s.x[i], 'x'), y = this.px(s.y[i], 'y');
    if (!isFinite(x) || !isFinite(y)) { continue; }
    marker(ctx, SHAPES[si % SHAPES.length], x, y, s.t[i] ? 6 : 5);
    this.grid.add(x, y, si, i);
    n++;
  }
  return n;
};

// drawBars draws the error bars of the visible points with repeats and
// returns how many it drew.
Chart.prototype.drawBars = function (ctx, s, si) {
  if (!s.r) { return 0; }
  var self = this, n = 0, px = function (v, ax) { return self.px(v, ax); };
  Object.keys(s.r).forEach(function (k) {
    var i = Number(k);
    if (s.s[i] !== 0 && !state.showDominated) { return; }
    var x = self.px(s.x[i], 'x'), y = self.px(s.y[i], 'y');
    if (!isFinite(x) || !isFinite(y)) { return; }
    R.drawBars(ctx, s.r[k], x, y, px, color(si));
    n++;
  });
  return n;
};

// drawBases outlines the baseline points of a series (drawn even when
// dominated points are hidden) and returns how many it drew.
Chart.prototype.drawBases = function (ctx, s, si) {
  if (!s.base || !s.base.bases) { return 0; }
  var self = this, n = 0;
  s.base.bases.forEach(function (bv) {
    var i = bv.row;
    if (i < 0) { return; }
    var x = self.px(s.x[i], 'x'), y = self.px(s.y[i], 'y');
    if (!isFinite(x) || !isFinite(y)) { return; }
    if (s.s[i] !== 0 && !state.showDominated) {
      ctx.fillStyle = color(si);
      ctx.fillRect(x - 2.5, y - 2.5, 5, 5);
      self.grid.add(x, y, si, i);
    }
    R.drawBaseMarker(ctx, x, y, cssVar('--fg'), cssVar('--muted'));
    n++;
  });
  return n;
};

function marker(ctx, shape, x, y, r) {
  ctx.beginPath();
  if (shape === 'square') { ctx.rect(x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7); } else if (shape === 'triangle') {
    ctx.moveTo(x, y - r); ctx.lineTo(x + r, y + r * 0.8); ctx.lineTo(x - r, y + r * 0.8); ctx.closePath();
  } else if (shape === 'diamond') {
    ctx.moveTo(x, y - r); ctx.lineTo(x + r, y); ctx.lineTo(x, y + r); ctx.lineTo(x - r, y); ctx.closePath();
  } else { ctx.arc(x, y, r, 0, 2 * Math.PI); }
  ctx.fill();
  ctx.stroke();
}

Chart.prototype.drawSelection = function (ctx) {
  var sel = this.selected;
  if (!sel || this.hidden[sel.s]) { return; }
  var s = this.plot.series[sel.s];
  var x = this.px(s.x[sel.i], 'x'), y = this.px(s.y[sel.i], 'y');
  ctx.strokeStyle = cssVar('--fg');
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.arc(x, y, 10, 0, 2 * Math.PI);
  ctx.stroke();
};

// ---- hover grid -----------------------------------------------------------
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
Grid.prototype.nearest = function (x, y, r) {
  var best = null, bd = r * r;
  var cx = Math.floor(x / this.size), cy = Math.floor(y / this.size);
  for (var gy = cy - 1; gy <= cy + 1; gy++) {
    for (var gx = cx - 1; gx <= cx + 1; gx++) {
      var c = this.cells.get(gy * this.cols + gx);
      if (!c) { continue; }
      for (var j = 0; j < c.length; j += 4) {
        var d = (c[j] - x) * (c[j] - x) + (c[j + 1] - y) * (c[j + 1] - y);
        if (d <= bd) { bd = d; best = { s: c[j + 2], i: c[j + 3] }; }
      }
    }
  }
  return best;
};
