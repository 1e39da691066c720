// pareto.html: the density layer (part of the report-*.js files, see
// report-core.js). A series of a plot with more dominated points than the
// report draws one by one carries s.d, a grid of counts computed by pareto
// (report/density.go): paintDensity paints its cells under the points, the
// darker the more points a cell holds (on a log scale of the count), and
// densityNote says how many points the layer stands for.

// paintDensity paints the density layer of series s in box b through the
// painter p; px maps a value to a pixel on an axis.
Chart.prototype.paintDensity = function (p, b, s, si, px, th) {
  var d = s.d;
  if (!d || !d.c.length) { return 0; }
  var edge = function (v0, v1, n, k, log) { var t = v0 + (v1 - v0) * k / n; return log ? Math.pow(10, t) : t; };
  var most = 1;
  for (var k = 2; k < d.c.length; k += 3) { most = Math.max(most, d.c[k]); }
  var scale = Math.log(1 + most), cells = 0;
  for (var k = 0; k < d.c.length; k += 3) {
    var cx = d.c[k], cy = d.c[k + 1], n = d.c[k + 2];
    var xa = px(edge(d.x0, d.x1, d.nx, cx, d.logx), 'x'), xb = px(edge(d.x0, d.x1, d.nx, cx + 1, d.logx), 'x');
    var ya = px(edge(d.y0, d.y1, d.ny, cy, d.logy), 'y'), yb = px(edge(d.y0, d.y1, d.ny, cy + 1, d.logy), 'y');
    if (!isFinite(xa) || !isFinite(xb) || !isFinite(ya) || !isFinite(yb)) { continue; }
    var x = Math.min(xa, xb), y = Math.min(ya, yb), w = Math.max(Math.abs(xb - xa), 0.5), h = Math.max(Math.abs(yb - ya), 0.5);
    if (x > b.r || x + w < b.l || y > b.b || y + h < b.t) { continue; }
    p.rect(x, y, w, h, { fill: th.dom, alpha: 0.12 + 0.6 * Math.log(1 + n) / scale, cls: 'density series-' + si });
    cells++;
  }
  return cells;
};

// densityNote says how many dominated points the plot's density layers
// stand for, or '' when it has none.
function densityNote(plot) {
  var n = 0, m = Infinity;
  plot.series.forEach(function (s) { if (s.d) { n += s.d.n; m = Math.min(m, s.d.margin); } });
  if (!n) { return ''; }
  return n.toLocaleString('en-US') + ' dominated point(s) more than ' + pc(m) + ' worse than a kept point on both axes are drawn as a density layer (shaded cells, darker where more points fall), not one by one; ' +
    'the frontier and every point within that margin are exact. Find a binned trial by ID above the measurements.';
}
