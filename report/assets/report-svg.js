// pareto.html: the SVG export of a Chart (part of the report-*.js files, see
// report-core.js). It paints the chart as it is on the page — the same
// view, axes, ticks, markers and lines, through the same paint code — in
// the light theme, with the plot's name above and a legend of the visible
// series below (names wrapped, never cut). Every string goes through esc.

Chart.prototype.svg = function () {
  var self = this, b0 = this.box, W = b0.w, H = b0.h, font = '12px system-ui, sans-serif';
  var titles = wrap(this.plot.name, W - 32, 'bold 15px system-ui, sans-serif'), head = 14 + 18 * titles.length;
  var th = theme(true), p = new SvgPainter();
  var b = this.frame(W, H);
  // legend rows: marker, name and counts of every visible series
  var items = [];
  this.plot.series.forEach(function (s, si) {
    if (self.hidden[si]) { return; }
    items.push({ si: si, text: s.name + ' (' + self.status(si).frontier + ' on frontier, ' + s.x.length + ' points)' });
  });
  if (this.showDominated) { items.push({ si: 0, hollow: true, text: 'dominated (hollow; shape = its frontier)' }); }
  if (data.baseline) { items.push({ base: true, text: '◇ baseline: ' + data.baseline }); }
  var rows = [], x = 0, row = [];
  items.forEach(function (it) {
    var words = wrap(it.text, W - 40, font);
    var w = 22 + Math.max.apply(null, words.map(function (l) { return measureText(l, font); })) + 18;
    if (x + w > W - 16 && row.length) { rows.push(row); row = []; x = 0; }
    it.lines = words;
    it.x = 16 + x;
    row.push(it);
    x += w;
    if (words.length > 1) { rows.push(row); row = []; x = 0; }
  });
  if (row.length) { rows.push(row); }
  var legendH = 10;
  rows.forEach(function (r) { r.y = H + head + legendH; legendH += 18 * Math.max.apply(null, r.map(function (it) { return it.lines.length; })) + 4; });
  var total = H + head + legendH + 6;
  var out = ['<svg xmlns="http://www.w3.org/2000/svg" width="' + W + '" height="' + num(total) + '" viewBox="0 0 ' + W + ' ' + num(total) + '" font-family="system-ui, sans-serif" font-size="12">',
    '<rect width="100%" height="100%" fill="#fff"/>'];
  titles.forEach(function (l, k) {
    out.push('<text x="' + W / 2 + '" y="' + (20 + k * 18) + '" text-anchor="middle" font-size="15" font-weight="bold">' + esc(l) + '</text>');
  });
  out.push('<g transform="translate(0,' + head + ')">');
  this.paint(p, b, null, true);
  out.push(p.out.join('\n'));
  out.push('</g>');
  rows.forEach(function (r) {
    r.forEach(function (it) {
      var y = r.y + 12;
      if (it.base) {
        out.push('<text x="' + num(it.x) + '" y="' + num(y) + '" fill="' + th.fg + '">' + esc(it.lines[0]) + '</text>');
        return;
      }
      var path = new PathText();
      shapePath(path, shape(it.si), it.x + 7, y - 4, it.hollow ? 4 : 5);
      out.push('<path class="legend-marker" data-shape="' + esc(shape(it.si)) + '" d="' + path.d() + '" ' +
        (it.hollow ? 'fill="none" stroke="' + th.dom + '"' : 'fill="' + color(it.si) + '" stroke="#fff"') + '/>');
      it.lines.forEach(function (l, k) {
        out.push('<text class="legend-text" x="' + num(it.x + 18) + '" y="' + num(y + k * 16) + '" fill="' + th.fg + '">' + esc(l) + '</text>');
      });
    });
  });
  out.push('</svg>');
  return out.join('\n');
};

// wrap breaks text into lines no wider than w pixels (at spaces when it
// can, anywhere when a word alone is wider).
function wrap(text, w, font) {
  // An axis title too long for its side breaks before " — higher/lower is
  // better" first, never inside it.
  var dash = String(text).indexOf(' — ');
  if (dash > 0 && measureText(text, font) > w) {
    return wrap(String(text).slice(0, dash), w, font).concat([String(text).slice(dash + 1)]);
  }
  var words = String(text).split(' '), lines = [], cur = '';
  words.forEach(function (word) {
    var next = cur ? cur + ' ' + word : word;
    if (measureText(next, font) <= w || !cur) { cur = next; } else { lines.push(cur); cur = word; }
    while (measureText(cur, font) > w && cur.length > 1) {
      var k = cur.length;
      while (k > 1 && measureText(cur.slice(0, k), font) > w) { k--; }
      lines.push(cur.slice(0, k));
      cur = cur.slice(k);
    }
  });
  if (cur) { lines.push(cur); }
  return lines;
}
