// pareto.html: the SVG export of a Chart (part of the report-*.js files, see
// report-core.js). The SVG is built from the data and the current view, not
// from the canvas, and every string in it goes through esc.

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
