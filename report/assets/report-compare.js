// pareto.html: comparisons (part of the report-*.js files, see
// report-core.js). For every entry of data.comparisons (a plot with
// compare = [...], or pareto compare --html) a section after its plot, or
// on its own, holds per pair the verdict, the hypervolume change with its
// interval, both frontiers as the comparison reads them (steps or lines),
// the uplift curve of B against A with its interval band and the noise
// band, and the bucket values as a table. Its names start with cmp and it
// keeps its own state: the charts' code does not know about it.

var cmpViews = [];

// renderComparisons builds every comparison section into main, each after
// the chart of its plot, and draws them.
function renderComparisons(main) {
  api.compare = [];
  (data.comparisons || []).forEach(function (c, i) {
    var v = cmpSection(c, i), after = null;
    charts.forEach(function (ch) { if (c.plot && ch.plot.name === c.plot) { after = ch.root; } });
    if (after) { main.insertBefore(v.root, after.nextSibling); } else { main.appendChild(v.root); }
    cmpViews.push(v);
    api.compare.push({ name: c.name, pairs: [] });
  });
  cmpDrawAll();
  window.addEventListener('resize', cmpDrawAll);
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', cmpDrawAll);
  return cmpViews.length;
}

function cmpDrawAll() { cmpViews.forEach(function (v, i) { cmpDraw(v, i); }); }

function cmpPct(v) {
  if (v == null || !isFinite(v)) { return 'n/a'; }
  if (v === 0) { return '0%'; }
  var s = (100 * v).toFixed(1);
  return (v >= 0 ? '+' : '') + minus(s) + '%';
}
function cmpCI(iv) { return iv && iv[0] != null ? cmpPct(iv[0]) + ' to ' + cmpPct(iv[1]) : '–'; }
function cmpVal(v) { return v == null ? '–' : fmt(v); }
function cmpStatus(s) {
  return s === 'regression' ? 'regression' : s === 'inconclusive' ? 'a regression is not ruled out' : 'no regression';
}
function cmpReading(r) {
  if (r.outside) { return 'outside (' + r.outside + ' span)'; }
  return fmt(r.value) + (r.interpolated ? ' (interpolated)' : '');
}

// cmpSection builds comparison c's section: per pair a header, the
// reasons, two canvases and the bucket table.
function cmpSection(c, ci) {
  var rep = c.report, conf = Math.round(rep.confidence * 100);
  var root = el('section', { class: 'plot compare', id: 'compare-' + ci });
  root.appendChild(el('h2', { text: 'Comparison: ' + c.name }));
  root.appendChild(el('p', { class: 'note', text: rep.sides[0].name + ' (A) against ' + rep.sides.slice(1).map(function (s) { return s.name; }).join(', ') +
    ' (B). Hypervolume against the common reference point (' + rep.reference.map(cmpVal).join(', ') + '); every interval is the ' + conf +
    ' % percentile interval of ' + rep.resamples + ' bootstrap resamples of the repeats (seed ' + rep.seed + '). Frontiers are read by ' +
    (rep.interpolation === 'linear' ? 'linear interpolation between their points.' : 'steps: the best ' + c.y.label + ' of a point reaching each ' + c.x.label + '.') }));
  var v = { c: c, root: root, pairs: [] };
  rep.pairs.forEach(function (p, j) {
    var box = el('div', { class: 'cmp-pair' });
    var h = p.hypervolume;
    box.appendChild(el('h3', { class: 'cmp-verdict cmp-' + p.status, text: p.a + ' vs ' + p.b + ': ' + p.verdict.replace('_', ' ') + ' — ' + cmpStatus(p.status) }));
    box.appendChild(el('p', { text: 'Hypervolume ' + cmpVal(h.a) + ' → ' + cmpVal(h.b) + ': ' + cmpPct(h.change) + ' (' + conf + ' % CI ' + cmpCI(h.interval) + ')' }));
    var ul = el('ul', { class: 'cmp-reasons' });
    p.reasons.forEach(function (r) { ul.appendChild(el('li', { text: r })); });
    box.appendChild(ul);
    var legend = el('div', { class: 'legend' });
    [0, j + 1].forEach(function (si, k) {
      var sw = el('span', { class: 'legend-key' });
      sw.appendChild(swatch(k));
      sw.appendChild(document.createTextNode((k ? 'B ' : 'A ') + rep.sides[si].name));
      legend.appendChild(sw);
    });
    box.appendChild(legend);
    var front = el('canvas', { class: 'cmp-front', role: 'img', 'aria-label': 'frontiers of ' + p.a + ' and ' + p.b });
    var up = el('canvas', { class: 'cmp-uplift', role: 'img', 'aria-label': 'uplift of ' + p.b + ' against ' + p.a });
    box.appendChild(el('div', { class: 'chart' }, front));
    if (p.uplift) {
      box.appendChild(el('p', { class: 'note', text: 'Uplift: ' + p.b + '’s ' + c.y.label + ' relative to ' + p.a + '’s at each ' + c.x.label +
        ', with its interval (band) and the noise band ±' + cmpPct(c.y.noise || 0).replace('+', '') + ' (dashed); ◆ buckets.' }));
      box.appendChild(el('div', { class: 'chart' }, up));
      if (p.uplift.buckets.length) { box.appendChild(cmpTable(p, c, conf)); }
    }
    root.appendChild(box);
    v.pairs.push({ p: p, front: front, up: p.uplift ? up : null, b: j + 1 });
  });
  (rep.warnings || []).forEach(function (w) { root.appendChild(el('p', { class: 'meta warning', text: 'Warning: ' + w })); });
  return v;
}

// cmpTable is the bucket table of pair p.
function cmpTable(p, c, conf) {
  var t = el('table', { class: 'cmp-buckets' });
  var head = el('tr');
  [c.x.label, p.a, p.b, 'change', conf + ' % CI', 'status'].forEach(function (s) { head.appendChild(el('th', { text: s })); });
  t.appendChild(el('thead', null, head));
  var body = el('tbody');
  p.uplift.buckets.forEach(function (k) {
    var tr = el('tr', { class: 'cmp-' + k.status });
    [fmt(k.x), cmpReading(k.a), cmpReading(k.b), cmpPct(k.change), cmpCI(k.interval), k.status].forEach(function (s) { tr.appendChild(el('td', { text: s })); });
    body.appendChild(tr);
  });
  t.appendChild(body);
  return t;
}

// cmpCanvas sizes canvas to its box at the device pixel ratio and returns
// its painter and size.
function cmpCanvas(canvas, h) {
  var w = canvas.parentNode.clientWidth || 800, dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  canvas.style.height = h + 'px';
  var ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  return { ctx: ctx, paint: new CanvasPainter(ctx), w: w, h: h };
}

// cmpRange returns [lo, hi] of vals with a margin, never empty.
function cmpRange(vals, pad) {
  var lo = Infinity, hi = -Infinity;
  vals.forEach(function (x) { if (x != null && isFinite(x)) { lo = Math.min(lo, x); hi = Math.max(hi, x); } });
  if (!isFinite(lo)) { return [0, 1]; }
  if (hi === lo) { var d = Math.abs(lo) * 0.1 || 1; return [lo - d, hi + d]; }
  var m = (hi - lo) * pad;
  return [lo - m, hi + m];
}

// cmpFrame draws the axes of a chart of x range xr and y range yr in box
// b, and returns the mapping of values to pixels.
function cmpFrame(g, b, xr, yr, xLabel, yLabel, yFmt) {
  var px = function (x) { return b.l + (x - xr[0]) / (xr[1] - xr[0]) * (b.r - b.l); };
  var py = function (y) { return b.b - (y - yr[0]) / (yr[1] - yr[0]) * (b.b - b.t); };
  var grid = cssVar('--grid') || '#e6e9ed', axis = cssVar('--axis') || '#8a929b', fg = cssVar('--fg') || '#1b1f24';
  var xt = linearTicks(xr[0], xr[1], 8), yt = linearTicks(yr[0], yr[1], 6), xf = tickFormat(xt), yf = yFmt || tickFormat(yt);
  var segs = [];
  xt.forEach(function (x) { segs.push(px(x), b.t, px(x), b.b); });
  yt.forEach(function (y) { segs.push(b.l, py(y), b.r, py(y)); });
  g.paint.lines(segs, { stroke: grid, width: 1 });
  g.paint.rect(b.l, b.t, b.r - b.l, b.b - b.t, { stroke: axis, width: 1 });
  xt.forEach(function (x) { g.paint.text(xf(x), px(x), b.b + 14, { fill: fg, align: 'center' }); });
  yt.forEach(function (y) { g.paint.text(yf(y), b.l - 6, py(y) + 4, { fill: fg, align: 'right' }); });
  g.paint.text(xLabel, (b.l + b.r) / 2, b.b + 32, { fill: fg, align: 'center' });
  g.paint.text(yLabel, 12, (b.t + b.b) / 2, { fill: fg, align: 'center', rotate: -90 });
  return { px: px, py: py };
}

// cmpPath returns the drawing of frontier pts (ascending x) as the
// comparison reads it: steps that keep a point's y up to the next point
// in the direction X is worse, or straight lines.
function cmpPath(pts, xMax, linear, m) {
  var out = [];
  pts.forEach(function (q, i) {
    if (i > 0 && !linear) {
      var prev = pts[i - 1];
      if (xMax) { out.push(m.px(prev[0]), m.py(q[1])); } else { out.push(m.px(q[0]), m.py(prev[1])); }
    }
    out.push(m.px(q[0]), m.py(q[1]));
  });
  return out;
}

// cmpDraw draws comparison view v (index ci).
function cmpDraw(v, ci) {
  var c = v.c, rep = c.report, linear = rep.interpolation === 'linear', xMax = c.x.direction === 'maximize';
  var fg = cssVar('--fg') || '#1b1f24', muted = cssVar('--muted') || '#5b636d';
  var hook = api.compare[ci];
  hook.pairs = [];
  v.pairs.forEach(function (pv) {
    var p = pv.p, sides = [rep.sides[0], rep.sides[pv.b]];
    var fronts = sides.map(function (s) { return s.frontier.map(function (f) { return f.values; }); });
    var xs = [], ys = [];
    fronts.forEach(function (f) { f.forEach(function (q) { xs.push(q[0]); ys.push(q[1]); }); });
    var buckets = p.uplift ? p.uplift.buckets : [];
    buckets.forEach(function (k) { xs.push(k.x); });
    var xr = cmpRange(xs, 0.05), yr = cmpRange(ys, 0.08);
    var g = cmpCanvas(pv.front, 300), b = { l: 76, r: g.w - 16, t: 12, b: 300 - 44 };
    var m = cmpFrame(g, b, xr, yr, axisTitle(c.x), axisName(c.y));
    g.paint.clip(b.l, b.t, b.r - b.l, b.b - b.t);
    buckets.forEach(function (k) { g.paint.lines([m.px(k.x), b.t, m.px(k.x), b.b], { stroke: muted, width: 1, dash: [3, 4] }); });
    fronts.forEach(function (f, k) {
      var col = color(k);
      g.paint.polyline(cmpPath(f, xMax, linear, m), { stroke: col, width: 2 });
      g.paint.markers(shape(k), f.map(function (q) { return m.px(q[0]); }), f.map(function (q) { return m.py(q[1]); }), 4, { fill: col, stroke: col });
    });
    g.paint.unclip();
    var drawn = { frontA: fronts[0].length, frontB: fronts[1].length, curve: 0, buckets: 0, verdict: p.verdict };
    if (pv.up) { cmpUplift(pv, c, xr, drawn); }
    hook.pairs.push(drawn);
    void fg;
  });
}

// cmpUplift draws pair pv's uplift chart on the frontier chart's x range.
function cmpUplift(pv, c, xr, drawn) {
  var u = pv.p.uplift, muted = cssVar('--muted') || '#5b636d', col = color(1), noise = c.y.noise || 0;
  var pts = u.curve.filter(function (q) { return q.change != null; });
  var bks = u.buckets.filter(function (k) { return k.change != null; });
  var vals = [0, noise, -noise];
  pts.forEach(function (q) { vals.push(q.change, q.interval[0], q.interval[1]); });
  bks.forEach(function (k) { vals.push(k.change, k.interval[0], k.interval[1]); });
  var yr = cmpRange(vals, 0.1);
  var g = cmpCanvas(pv.up, 220), b = { l: 76, r: g.w - 16, t: 12, b: 220 - 44 };
  var m = cmpFrame(g, b, xr, yr, axisTitle(c.x), 'change of ' + c.y.label, function (y) { return cmpPct(y); });
  g.paint.clip(b.l, b.t, b.r - b.l, b.b - b.t);
  g.paint.lines([b.l, m.py(0), b.r, m.py(0)], { stroke: muted, width: 1.5 });
  if (noise > 0) {
    g.paint.lines([b.l, m.py(noise), b.r, m.py(noise), b.l, m.py(-noise), b.r, m.py(-noise)], { stroke: muted, width: 1, dash: [5, 4] });
  }
  if (pts.length) {
    // The band and the line are read as the frontiers are: steps or lines.
    var linear = c.report.interpolation === 'linear', xMax = c.x.direction === 'maximize';
    var hi = cmpPath(pts.map(function (q) { return [q.x, q.interval[1]]; }), xMax, linear, m);
    var lo = cmpPath(pts.map(function (q) { return [q.x, q.interval[0]]; }), xMax, linear, m);
    var ctx = g.ctx;
    ctx.save();
    ctx.globalAlpha = 0.18;
    ctx.fillStyle = col;
    ctx.beginPath();
    ctx.moveTo(hi[0], hi[1]);
    for (var i = 2; i < hi.length; i += 2) { ctx.lineTo(hi[i], hi[i + 1]); }
    for (var j = lo.length - 2; j >= 0; j -= 2) { ctx.lineTo(lo[j], lo[j + 1]); }
    ctx.closePath();
    ctx.fill();
    ctx.restore();
    g.paint.polyline(cmpPath(pts.map(function (q) { return [q.x, q.change]; }), xMax, linear, m), { stroke: col, width: 2 });
    g.paint.markers('circle', pts.map(function (q) { return m.px(q.x); }), pts.map(function (q) { return m.py(q.change); }), 3, { fill: col, stroke: col });
  }
  var bars = [];
  bks.forEach(function (k) { bars.push(m.px(k.x), m.py(k.interval[0]), m.px(k.x), m.py(k.interval[1])); });
  g.paint.lines(bars, { stroke: color(2), width: 2 });
  g.paint.markers('diamond', bks.map(function (k) { return m.px(k.x); }), bks.map(function (k) { return m.py(k.change); }), 5, { fill: color(2), stroke: color(2) });
  u.crossings.forEach(function (x) {
    g.paint.lines([m.px(x.at), b.t, m.px(x.at), b.b], { stroke: cssVar('--bad') || '#b42318', width: 1.5, dash: [2, 3] });
  });
  g.paint.unclip();
  drawn.curve = pts.length;
  drawn.buckets = bks.length;
  drawn.crossings = u.crossings.length;
}
