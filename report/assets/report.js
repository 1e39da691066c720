// pareto.html: interactive Pareto frontier report. Written for this project,
// no third-party code. All data comes from the JSON block #pareto-data and is
// only ever inserted with textContent, never as HTML.
(function () {
  'use strict';
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

  // ---- chart ---------------------------------------------------------------
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

  function pointName(pt) {
    var parts = [pt.case];
    if (pt.iteration) { parts.push('iter ' + pt.iteration); }
    if (pt.step) { parts.push('step ' + pt.step); }
    if (pt.phase) { parts.push('phase ' + pt.phase); }
    return parts.join(' · ');
  }

  function setShowDominated(on) {
    state.showDominated = on;
    charts.forEach(function (c) { c.domBox.checked = on; c.draw(); });
  }

  // ---- tables ---------------------------------------------------------------
  Chart.prototype.measureColumns = function () {
    var p = this.plot;
    return [
      { key: 'series', title: 'Frontier' }, { key: 'case', title: 'Case' }, { key: 'iteration', title: 'Iter' },
      { key: 'step', title: 'Step' }, { key: 'phase', title: 'Phase' },
      { key: 'x', title: p.x.label, num: true }, { key: 'y', title: p.y.label, num: true }, { key: 'n', title: 'n', num: true }
    ].concat(data.baseline ? [{ key: 'dx', title: 'Δ ' + p.x.label, num: true, format: R.pct }, { key: 'dy', title: 'Δ ' + p.y.label, num: true, format: R.pct }] : [],
      [{ key: 'status', title: 'Status' }, { key: 'tie', title: 'Tie' }]);
  };

  Chart.prototype.measureRows = function () {
    var rows = [];
    this.plot.series.forEach(function (s, si) {
      for (var i = 0; i < s.x.length; i++) {
        var pt = data.points[s.p[i]], rep = R.reps(s, i), b = R.base(s, i);
        var iters = rep ? rep.m.map(function (k) { return data.points[k].iteration || ''; }).filter(function (v, k, a) { return v && a.indexOf(v) === k; }).join(',') : pt.iteration || '';
        rows.push({ s: si, i: i, series: s.name, case: pt.case, iteration: iters, step: pt.step || '',
          phase: pt.phase || '', x: s.x[i], y: s.y[i], n: R.count(s, i),
          dx: b && !b.why && b.dx !== null ? b.dx : '', dy: b && !b.why && b.dy !== null ? b.dy : '',
          status: (s.s[i] === 0 ? '★ ' : '') + STATUS[s.s[i]] + (R.isBase(s, i) ? ' · baseline' : ''),
          tie: (s.t[i] & 1 ? 'tie ' : '') + (s.t[i] & 2 ? 'noise-tie' : '') });
      }
    });
    return rows;
  };

  // Table is a sortable table that renders at most limit rows.
  function Table(columns, rows, onClick) {
    var self = this;
    this.columns = columns;
    this.rows = rows;
    this.limit = 500;
    this.onClick = onClick;
    this.isSelected = function () { return false; };
    this.root = el('div', { class: 'table-wrap' });
    this.note = el('p', { class: 'note' });
    var head = el('tr');
    columns.forEach(function (c) {
      var th = el('th', { text: c.title, 'data-key': c.key, 'aria-sort': 'none', scope: 'col' });
      th.addEventListener('click', function () { self.sort(c.key, th); });
      head.appendChild(th);
    });
    this.body = el('tbody');
    this.root.appendChild(el('table', null, el('thead', null, head), this.body));
    this.root.appendChild(this.note);
    this.render();
  }
  Table.prototype.sort = function (key, th) {
    var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
    this.root.querySelectorAll('th').forEach(function (h) { h.setAttribute('aria-sort', 'none'); });
    th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
    this.rows.sort(function (a, b) {
      var x = a[key], y = b[key];
      if (typeof x === 'number' && typeof y === 'number') { return (x - y) * dir; }
      if (typeof x === 'number' && y === '') { return -1; }
      if (x === '' && typeof y === 'number') { return 1; }
      return String(x).localeCompare(String(y), undefined, { numeric: true }) * dir;
    });
    this.render();
  };
  Table.prototype.render = function () {
    var self = this, frag = document.createDocumentFragment();
    var n = Math.min(this.rows.length, this.limit);
    for (var r = 0; r < n; r++) {
      var row = this.rows[r], tr = el('tr');
      if (this.isSelected(row)) { tr.className = 'selected'; }
      this.columns.forEach(function (c) {
        var v = row[c.key];
        var text = c.format ? c.format(v) : c.num ? (v === '' ? '' : fmt(v)) : (Array.isArray(v) ? v.join(', ') : String(v == null ? '' : v));
        tr.appendChild(el('td', { class: (c.num ? 'num ' : '') + c.key, text: text }));
      });
      if (this.onClick) { tr.addEventListener('click', this.onClick.bind(null, row)); }
      frag.appendChild(tr);
    }
    this.body.textContent = '';
    this.body.appendChild(frag);
    this.note.textContent = this.rows.length > n ? 'Showing ' + n + ' of ' + this.rows.length + ' rows; sort to see others.' : this.rows.length + ' rows.';
  };
  Table.prototype.highlight = function (pred) {
    var idx = this.rows.findIndex(pred);
    if (idx >= this.limit) { var row = this.rows.splice(idx, 1)[0]; this.rows.unshift(row); }
    this.isSelected = pred;
    this.render();
    var tr = this.body.querySelector('tr.selected');
    if (tr && tr.scrollIntoView) { tr.scrollIntoView({ block: 'nearest' }); }
  };

  // ---- details ----------------------------------------------------------------
  function renderDetails(chart, si, i) {
    var plot = chart.plot, s = plot.series[si], pt = data.points[s.p[i]];
    var d = chart.details, dl = el('dl');
    function row(k, v) { if (v !== undefined && v !== null && v !== '') { dl.appendChild(el('dt', { text: k })); dl.appendChild(el('dd', { text: String(v) })); } }
    d.textContent = '';
    d.hidden = false;
    d.appendChild(el('h3', { text: 'Point details' }));
    row('Case', pt.case);
    row('Iteration', pt.iteration);
    row('Step', pt.step);
    row('Phase', pt.phase);
    row('Benchmark', pt.benchmark);
    row('Frontier', s.name);
    var status = STATUS[s.s[i]];
    if (s.s[i] === 1 && s.by[i] >= 0) { status += ' — beaten by ' + pointName(data.points[s.p[s.by[i]]]); }
    if (s.notes && s.notes[i]) { status += ' — ' + s.notes[i]; }
    if (s.t[i] & 1) { status += ' (tie: identical values to another frontier point)'; }
    if (s.t[i] & 2) { status += ' (noise-tie: within noise of another frontier point)'; }
    if (R.isBase(s, i)) { status += ' (baseline)'; }
    row('Status', status);
    row('X', plot.sels[s.xs[i]] + ' = ' + fmt(s.x[i]) + (plot.x.unit ? ' ' + plot.x.unit : ''));
    row('Y', plot.sels[s.ys[i]] + ' = ' + fmt(s.y[i]) + (plot.y.unit ? ' ' + plot.y.unit : ''));
    repeatRows(plot, s, i, row);
    workloadRows(pt.workload || {}, row);
    if (pt.layout >= 0) { layoutRows(data.layouts[pt.layout], row); }
    Object.keys(pt.labels || {}).sort().forEach(function (k) { row(k, pt.labels[k]); });
    row('Source', pt.source);
    row('Trial id', pt.id);
    d.appendChild(dl);
    if (pt.config >= 0) {
      var cfg = data.configs[pt.config];
      var status2 = el('span', { class: 'note copy-status' });
      var btn = el('button', { type: 'button', class: 'copy', text: 'Copy TOML' });
      btn.addEventListener('click', function () { copyText(cfg.toml, status2); });
      d.appendChild(el('h3', null, 'Executed configuration ', el('span', { class: 'note', text: cfg.path })));
      d.appendChild(el('div', null, btn, ' ', status2));
      d.appendChild(el('pre', { class: 'toml', text: cfg.toml }));
    }
  }

  // repeatRows adds n, the spread and the runs of a point, and its deltas
  // to the baseline.
  function repeatRows(plot, s, i, row) {
    var rep = R.reps(s, i);
    row('Repeats', rep ? 'n=' + rep.m.length + ', ' + data.aggregate + ' of the repeats' : 'n=1 (single run)');
    if (rep) {
      row('X spread', R.spreadText(rep, 'x', s.x[i], data.aggregate, fmt));
      row('Y spread', R.spreadText(rep, 'y', s.y[i], data.aggregate, fmt));
      row('Repeat runs', rep.m.map(function (k) { return pointName(data.points[k]) + ' (' + data.points[k].id + ')'; }).join('; '));
    }
    var b = R.base(s, i);
    if (!b) { return; }
    if (b.why) { row('Δ vs baseline', b.why); return; }
    row('Δ X vs baseline', R.deltaLine(b, 'x', plot.x, fmt));
    row('Δ Y vs baseline', R.deltaLine(b, 'y', plot.y, fmt));
    row('Baseline', data.baseline + ': ' + b.value.ids.join(', ') + ' · ' + b.value.scope + ' · ' + b.value.workload);
  }

  function workloadRows(w, row) {
    row('Concurrency', w.concurrency);
    row('Achieved concurrency', w.achieved_concurrency ? fmt(w.achieved_concurrency) : '');
    row('Request rate', w.request_rate === 'inf' ? 'unlimited' : w.request_rate);
    row('Input length', lengths(w.input_tokens, w.mean_input_tokens));
    row('Output length', lengths(w.output_tokens, w.mean_output_tokens));
    row('Requests', w.requests);
  }
  function lengths(cfg, mean) {
    var out = [];
    if (cfg) { out.push(fmt(cfg) + ' configured'); }
    if (mean) { out.push(fmt(mean) + ' mean measured'); }
    return out.join(', ');
  }
  function layoutRows(l, row) {
    if (!l) { return; }
    row('Layout', (l.disaggregated ? 'disaggregated' : 'aggregated') + ', ' + l.nodes + ' node(s)' + (l.engine ? ', ' + l.engine : '') + (l.workload === 'ai_dynamo' ? ' via Dynamo' : ''));
    (l.roles || []).forEach(function (r) {
      var name = r.name ? r.name.charAt(0).toUpperCase() + r.name.slice(1) : 'Serving';
      row(name, r.instances + ' instance(s) × ' + r.nodes_per_instance + ' node(s) per instance; TP=' + r.tp + ' PP=' + r.pp + ' DP=' + r.dp +
        (r.cp > 1 ? ' CP=' + r.cp : '') + (r.dp_attention ? ' (DP attention)' : '') + '; ' + r.gpus_per_instance + ' GPU(s) per instance');
    });
    if (l.disaggregated) { row('Prefill/decode share nodes', l.shared_nodes ? 'yes' : 'no'); }
  }

  function copyText(text, status) {
    api.lastCopied = null;
    function done(ok) { status.textContent = ok ? 'Copied' : 'Copy failed: select the text below'; if (ok) { api.lastCopied = text; } }
    function fallback() {
      var ta = el('textarea');
      ta.value = text;
      ta.setAttribute('readonly', '');
      ta.style.position = 'fixed'; ta.style.opacity = '0';
      document.body.appendChild(ta);
      ta.select();
      var ok = false;
      try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
      document.body.removeChild(ta);
      done(ok);
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
    } else { fallback(); }
  }

  function download(name, text, type) {
    var a = el('a', { download: name.replace(/[^A-Za-z0-9._-]+/g, '_') });
    a.href = URL.createObjectURL(new Blob([text], { type: type }));
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }

  // ---- SVG export (built from the data, not from the canvas) ---------------
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]; });
  }
  Chart.prototype.svg = function () {
    var self = this, W = 800, H = 500, b = { l: 80, t: 40, r: W - 180, b: H - 50 };
    var v = this.view;
    function sx(x) { return b.l + (self.tx(x, 'x') - v.x[0]) / (v.x[1] - v.x[0]) * (b.r - b.l); }
    function sy(y) { return b.b - (self.tx(y, 'y') - v.y[0]) / (v.y[1] - v.y[0]) * (b.b - b.t); }
    function n(x) { return Math.round(x * 100) / 100; }
    var out = ['<svg xmlns="http://www.w3.org/2000/svg" width="' + W + '" height="' + H + '" viewBox="0 0 ' + W + ' ' + H + '" font-family="sans-serif" font-size="12">',
      '<rect width="100%" height="100%" fill="#fff"/>', '<text x="' + W / 2 + '" y="22" text-anchor="middle" font-size="15">' + esc(this.plot.name) + '</text>',
      '<defs><clipPath id="c"><rect x="' + b.l + '" y="' + b.t + '" width="' + (b.r - b.l) + '" height="' + (b.b - b.t) + '"/></clipPath></defs>',
      '<rect x="' + b.l + '" y="' + b.t + '" width="' + (b.r - b.l) + '" height="' + (b.b - b.t) + '" fill="none" stroke="#888"/>'];
    ['x', 'y'].forEach(function (ax) {
      var d = v[ax], ticks = self.log[ax] ? logTicks(d[0], d[1]) : niceTicks(d[0], d[1], 6);
      ticks.forEach(function (t) {
        var f = (t - d[0]) / (d[1] - d[0]), lab = esc(fmt(self.log[ax] ? Math.pow(10, t) : t));
        if (ax === 'x') { var x = n(b.l + f * (b.r - b.l)); out.push('<line x1="' + x + '" x2="' + x + '" y1="' + b.t + '" y2="' + b.b + '" stroke="#e5e5e5"/><text x="' + x + '" y="' + (b.b + 16) + '" text-anchor="middle">' + lab + '</text>'); } else { var y = n(b.b - f * (b.b - b.t)); out.push('<line x1="' + b.l + '" x2="' + b.r + '" y1="' + y + '" y2="' + y + '" stroke="#e5e5e5"/><text x="' + (b.l - 6) + '" y="' + (y + 4) + '" text-anchor="end">' + lab + '</text>'); }
      });
    });
    out.push('<text x="' + (b.l + b.r) / 2 + '" y="' + (H - 12) + '" text-anchor="middle">' + esc(axisTitle(this.plot.x)) + '</text>');
    out.push('<text transform="translate(18,' + (b.t + b.b) / 2 + ') rotate(-90)" text-anchor="middle">' + esc(axisTitle(this.plot.y)) + '</text>');
    out.push('<g clip-path="url(#c)">');
    this.plot.series.forEach(function (s, si) {
      if (self.hidden[si]) { return; }
      var c = color(si), pts = [];
      if (state.showDominated) {
        for (var i = 0; i < s.x.length; i++) { if (s.s[i] !== 0) { pts.push('<circle cx="' + n(sx(s.x[i])) + '" cy="' + n(sy(s.y[i])) + '" r="2.5" fill="' + c + '" fill-opacity="0.3"/>'); } }
      }
      var path = [];
      s.line.forEach(function (i, k) {
        if (k > 0) { var p = s.line[k - 1]; path.push('L' + n(sx(worse(s.x[p], s.x[i], self.plot.x.direction))) + ',' + n(sy(worse(s.y[p], s.y[i], self.plot.y.direction)))); }
        path.push((k ? 'L' : 'M') + n(sx(s.x[i])) + ',' + n(sy(s.y[i])));
        pts.push('<circle class="frontier" cx="' + n(sx(s.x[i])) + '" cy="' + n(sy(s.y[i])) + '" r="4.5" fill="' + c + '" stroke="#fff"/>');
      });
      if (path.length > 1) { out.push('<path d="' + path.join(' ') + '" fill="none" stroke="' + c + '" stroke-width="1.8"/>'); }
      Object.keys(s.r || {}).forEach(function (k) {
        var i = Number(k);
        if (s.s[i] === 0 || state.showDominated) { out.push(R.svgBars(s.r[k], sx(s.x[i]), sy(s.y[i]), sx, sy, c, n)); }
      });
      out.push(pts.join(''));
      ((s.base && s.base.bases) || []).forEach(function (bv) {
        if (bv.row >= 0) { out.push(R.svgBaseMarker(sx(s.x[bv.row]), sy(s.y[bv.row]), n)); }
      });
    });
    out.push('</g>');
    this.plot.series.forEach(function (s, si) {
      var y = b.t + 10 + si * 18;
      out.push('<rect x="' + (b.r + 14) + '" y="' + (y - 9) + '" width="10" height="10" fill="' + color(si) + '"/><text x="' + (b.r + 30) + '" y="' + y + '">' + esc(s.name) + '</text>');
    });
    if (data.baseline) {
      var ly = b.t + 10 + this.plot.series.length * 18;
      out.push('<text x="' + (b.r + 14) + '" y="' + ly + '">' + esc('◇ baseline: ' + data.baseline) + '</text>');
    }
    out.push('</svg>');
    return out.join('\n');
  };

  // ---- exclusions ---------------------------------------------------------------
  function renderExclusions() {
    var sec = document.getElementById('exclusions');
    var ex = data.exclusions || [];
    sec.appendChild(el('h2', { text: 'Exclusions (' + ex.length + ')' }));
    sec.appendChild(el('p', { class: 'note', text: 'Runs, files and points that give no point in a plot, with the reason. Candidates are the measurements a selector could have meant.' }));
    var rows = ex.map(function (e) {
      return { plot: e.plot || 'all plots', case: e.case || '', iteration: e.iteration || '', step: e.step || '', phase: e.phase || '',
        code: e.code, reason: e.reason + (e.axis ? ' [' + e.axis + ']' : ''), candidates: (e.candidates || []).join(', '), path: e.path || '' };
    });
    var cols = [{ key: 'plot', title: 'Plot' }, { key: 'case', title: 'Case' }, { key: 'iteration', title: 'Iter' }, { key: 'step', title: 'Step' },
      { key: 'phase', title: 'Phase' }, { key: 'code', title: 'Code' }, { key: 'reason', title: 'Reason' }, { key: 'candidates', title: 'Candidates' }, { key: 'path', title: 'Path' }];
    var t = new Table(cols, rows, null);
    t.root.classList.add('excl');
    sec.appendChild(t.root);
  }

  // ---- start ------------------------------------------------------------------
  var meta = document.getElementById('aggregation');
  if (meta) {
    meta.textContent = (data.aggregate === 'none' ? 'Repeats are not aggregated: every run is a point.' :
      'Repeats of a configuration (same parameters, workload and environment) are one point: their ' + data.aggregate +
      ', with error bars (min–max whiskers, interquartile range thicker) and n in the details.') +
      (data.baseline ? ' Baseline ' + data.baseline + ' (◇): every point shows its relative delta Δ to it.' : '');
    (data.warnings || []).forEach(function (w) { meta.parentNode.insertBefore(el('p', { class: 'meta warning', text: 'Warning: ' + w }), meta.nextSibling); });
  }
  var main = document.getElementById('plots');
  if (!data.plots.length) { main.appendChild(el('p', { text: 'No plots configured.' })); }
  data.plots.forEach(function (p, i) {
    var c = new Chart(p, i);
    main.appendChild(c.root);
    charts.push(c);
  });
  charts.forEach(function (c) { c.draw(); });
  renderExclusions();
  window.addEventListener('resize', function () { charts.forEach(function (c) { c.redraw(); }); });
  api.charts = charts;
  api.data = data;
  api.svg = function (i) { return charts[i].svg(); };
  api.setShowDominated = setShowDominated;
  api.renderMs = performance.now() - t0;
  api.ready = true;
}());
