// pareto.html: painters (part of the report-*.js files, see report-core.js).
// A Chart draws through a painter, so that the canvas and the SVG export
// draw the same picture from the same code: CanvasPainter draws on a
// canvas, SvgPainter writes SVG elements (every string through esc).
// Marker shapes are defined once, in shapePath.

function esc(s) {
  return String(s).replace(/[&<>"']/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]; });
}
function num(x) { return String(Math.round(x * 100) / 100); }

// PathText collects path commands as an SVG path's d attribute.
function PathText() { this.parts = []; }
PathText.prototype.moveTo = function (x, y) { this.parts.push('M' + num(x) + ',' + num(y)); };
PathText.prototype.lineTo = function (x, y) { this.parts.push('L' + num(x) + ',' + num(y)); };
PathText.prototype.closePath = function () { this.parts.push('Z'); };
// circle adds a full circle.
PathText.prototype.circle = function (x, y, r) {
  this.parts.push('M' + num(x - r) + ',' + num(y) + 'a' + num(r) + ',' + num(r) + ' 0 1,0 ' + num(2 * r) + ',0a' + num(r) + ',' + num(r) + ' 0 1,0 ' + num(-2 * r) + ',0Z');
};
PathText.prototype.d = function () { return this.parts.join(''); };

// shapePath adds marker shape at (x, y) with radius r to the path p (a
// canvas context or a PathText): every shape is a closed outline, so that
// it can be filled (frontier) or stroked hollow (dominated).
function shapePath(p, name, x, y, r) {
  function poly(pts) {
    p.moveTo(x + pts[0][0] * r, y + pts[0][1] * r);
    for (var i = 1; i < pts.length; i++) { p.lineTo(x + pts[i][0] * r, y + pts[i][1] * r); }
    p.closePath();
  }
  var a = 0.34;
  switch (name) {
    case 'square': poly([[-0.85, -0.85], [0.85, -0.85], [0.85, 0.85], [-0.85, 0.85]]); break;
    case 'triangle': poly([[0, -1.1], [1, 0.75], [-1, 0.75]]); break;
    case 'triangle-down': poly([[0, 1.1], [1, -0.75], [-1, -0.75]]); break;
    case 'diamond': poly([[0, -1.15], [1, 0], [0, 1.15], [-1, 0]]); break;
    case 'plus': poly([[-a, -1], [a, -1], [a, -a], [1, -a], [1, a], [a, a], [a, 1], [-a, 1], [-a, a], [-1, a], [-1, -a], [-a, -a]]); break;
    case 'cross':
      var c = 0.26, o = 0.92;
      poly([[-o + c, -o], [0, -c * 1.41], [o - c, -o], [o, -o + c], [c * 1.41, 0], [o, o - c], [o - c, o], [0, c * 1.41], [-o + c, o], [-o, o - c], [-c * 1.41, 0], [-o, -o + c]]);
      break;
    case 'star':
      var pts = [];
      for (var k = 0; k < 10; k++) {
        var ang = -Math.PI / 2 + k * Math.PI / 5, rr = k % 2 ? 0.5 : 1.15;
        pts.push([Math.cos(ang) * rr, Math.sin(ang) * rr]);
      }
      poly(pts);
      break;
    default:
      if (p.circle) { p.circle(x, y, r); } else { p.moveTo(x + r, y); p.arc(x, y, r, 0, 2 * Math.PI); p.closePath(); }
  }
}

// ---- canvas ---------------------------------------------------------------
function CanvasPainter(ctx) { this.ctx = ctx; }
CanvasPainter.prototype.style = function (st) {
  var c = this.ctx;
  c.globalAlpha = st.alpha == null ? 1 : st.alpha;
  if (st.fill) { c.fillStyle = st.fill; }
  if (st.stroke) { c.strokeStyle = st.stroke; c.lineWidth = st.width || 1; }
  c.setLineDash(st.dash || []);
};
CanvasPainter.prototype.done = function () { this.ctx.globalAlpha = 1; this.ctx.setLineDash([]); };
CanvasPainter.prototype.rect = function (x, y, w, h, st) {
  this.style(st);
  if (st.fill) { this.ctx.fillRect(x, y, w, h); }
  if (st.stroke) { this.ctx.strokeRect(x, y, w, h); }
  this.done();
};
// lines draws segments [x1, y1, x2, y2, ...] in one stroke.
CanvasPainter.prototype.lines = function (segs, st) {
  var c = this.ctx;
  this.style(st);
  c.beginPath();
  for (var i = 0; i < segs.length; i += 4) { c.moveTo(segs[i], segs[i + 1]); c.lineTo(segs[i + 2], segs[i + 3]); }
  c.stroke();
  this.done();
};
// polyline draws the points [x, y, ...] joined.
CanvasPainter.prototype.polyline = function (pts, st) {
  if (pts.length < 4) { return; }
  var c = this.ctx;
  this.style(st);
  c.beginPath();
  c.moveTo(pts[0], pts[1]);
  for (var i = 2; i < pts.length; i += 2) { c.lineTo(pts[i], pts[i + 1]); }
  c.stroke();
  this.done();
};
CanvasPainter.prototype.text = function (s, x, y, st) {
  var c = this.ctx;
  c.save();
  c.font = st.font || '12px system-ui, sans-serif';
  c.fillStyle = st.fill;
  c.textAlign = st.align || 'left';
  c.textBaseline = st.baseline || 'alphabetic';
  c.translate(x, y);
  if (st.rotate) { c.rotate(st.rotate * Math.PI / 180); }
  c.fillText(s, 0, 0);
  c.restore();
};
// markers draws one shape at every (xs[i], ys[i]): filled and outlined
// (st.fill, st.stroke) or hollow (st.stroke only). Many markers are
// stamped from a sprite drawn once, which keeps 100,000 of them fast.
CanvasPainter.prototype.markers = function (name, xs, ys, r, st) {
  if (!xs.length) { return; }
  var c = this.ctx;
  if (xs.length > 32 && !st.dash) {
    var scale = c.getTransform().a || 1, sp = sprite(name, r, st, scale), h = sp.size / 2;
    c.globalAlpha = st.alpha == null ? 1 : st.alpha;
    if (xs.length > 1000) {
      c.drawImage(stamp(sp, xs, ys, c.canvas.width, c.canvas.height, scale), 0, 0, c.canvas.width / scale, c.canvas.height / scale);
    } else {
      for (var k = 0; k < xs.length; k++) { c.drawImage(sp.canvas, xs[k] - h, ys[k] - h, sp.size, sp.size); }
    }
    c.globalAlpha = 1;
    return;
  }
  this.style(st);
  c.beginPath();
  for (var i = 0; i < xs.length; i++) { shapePath(c, name, xs[i], ys[i], r); }
  if (st.fill) { c.fill(); }
  if (st.stroke) { c.stroke(); }
  this.done();
};

// sprite returns a marker drawn once on a small canvas at the device
// pixel ratio, cached by its look.
var sprites = new Map();
function sprite(name, r, st, scale) {
  var key = [name, r, st.fill, st.stroke, st.width, scale].join('|'), sp = sprites.get(key);
  if (sp) { return sp; }
  var size = Math.ceil(2 * r * 1.25 + 2 * (st.width || 1) + 2), cv = document.createElement('canvas');
  cv.width = cv.height = Math.ceil(size * scale);
  var c = cv.getContext('2d');
  c.setTransform(scale, 0, 0, scale, 0, 0);
  c.beginPath();
  shapePath(c, name, size / 2, size / 2, r);
  if (st.fill) { c.fillStyle = st.fill; c.fill(); }
  if (st.stroke) { c.strokeStyle = st.stroke; c.lineWidth = st.width || 1; c.stroke(); }
  sp = { canvas: cv, size: size, px: cv.width, pixels: c.getImageData(0, 0, cv.width, cv.height).data };
  sprites.set(key, sp);
  return sp;
}

// stamp copies the sprite to every (xs[k], ys[k]) on a transparent layer
// of w×h device pixels, pixel by pixel (one colour, so overlaps keep the
// higher alpha), and returns the layer: one drawImage instead of one per
// marker.
var layer = null;
function stamp(sp, xs, ys, w, h, scale) {
  if (!layer || layer.width !== w || layer.height !== h) {
    layer = document.createElement('canvas');
    layer.width = w; layer.height = h;
  }
  var lc = layer.getContext('2d'), img = lc.createImageData(w, h), d = img.data, s = sp.pixels, m = sp.px, half = m / 2;
  for (var k = 0; k < xs.length; k++) {
    var x0 = Math.round(xs[k] * scale - half), y0 = Math.round(ys[k] * scale - half);
    for (var sy = 0; sy < m; sy++) {
      var y = y0 + sy;
      if (y < 0 || y >= h) { continue; }
      for (var sx = 0; sx < m; sx++) {
        var x = x0 + sx, si = (sy * m + sx) * 4, a = s[si + 3];
        if (!a || x < 0 || x >= w) { continue; }
        var di = (y * w + x) * 4;
        if (a > d[di + 3]) { d[di] = s[si]; d[di + 1] = s[si + 1]; d[di + 2] = s[si + 2]; d[di + 3] = a; }
      }
    }
  }
  lc.putImageData(img, 0, 0);
  return layer;
}
CanvasPainter.prototype.clip = function (x, y, w, h) { this.ctx.save(); this.ctx.beginPath(); this.ctx.rect(x, y, w, h); this.ctx.clip(); };
CanvasPainter.prototype.unclip = function () { this.ctx.restore(); };

// ---- SVG --------------------------------------------------------------------
function SvgPainter() { this.out = []; this.clips = 0; }
function svgStyle(st) {
  var a = ' fill="' + (st.fill ? esc(st.fill) : 'none') + '"';
  if (st.stroke) { a += ' stroke="' + esc(st.stroke) + '" stroke-width="' + num(st.width || 1) + '"'; }
  if (st.alpha != null && st.alpha !== 1) { a += ' opacity="' + num(st.alpha) + '"'; }
  if (st.dash && st.dash.length) { a += ' stroke-dasharray="' + st.dash.join(' ') + '"'; }
  return a;
}
function svgClass(st) { return st.cls ? ' class="' + esc(st.cls) + '"' : ''; }
SvgPainter.prototype.rect = function (x, y, w, h, st) {
  this.out.push('<rect' + svgClass(st) + ' x="' + num(x) + '" y="' + num(y) + '" width="' + num(w) + '" height="' + num(h) + '"' + svgStyle(st) + '/>');
};
SvgPainter.prototype.lines = function (segs, st) {
  if (!segs.length) { return; }
  var p = new PathText();
  for (var i = 0; i < segs.length; i += 4) { p.moveTo(segs[i], segs[i + 1]); p.lineTo(segs[i + 2], segs[i + 3]); }
  this.out.push('<path' + svgClass(st) + ' d="' + p.d() + '"' + svgStyle(st) + '/>');
};
SvgPainter.prototype.polyline = function (pts, st) {
  if (pts.length < 4) { return; }
  var p = new PathText();
  p.moveTo(pts[0], pts[1]);
  for (var i = 2; i < pts.length; i += 2) { p.lineTo(pts[i], pts[i + 1]); }
  this.out.push('<path' + svgClass(st) + ' d="' + p.d() + '"' + svgStyle(st) + '/>');
};
SvgPainter.prototype.text = function (s, x, y, st) {
  var anchor = { left: 'start', center: 'middle', right: 'end' }[st.align || 'left'];
  var base = st.baseline === 'middle' ? ' dominant-baseline="central"' : st.baseline === 'top' ? ' dominant-baseline="hanging"' : '';
  var size = /(\d+(?:\.\d+)?)px/.exec(st.font || '12px');
  var weight = /bold|600/.test(st.font || '') ? ' font-weight="bold"' : '';
  var tr = st.rotate ? ' transform="translate(' + num(x) + ',' + num(y) + ') rotate(' + st.rotate + ')"' : ' x="' + num(x) + '" y="' + num(y) + '"';
  this.out.push('<text' + svgClass(st) + tr + ' text-anchor="' + anchor + '"' + base + ' font-size="' + (size ? size[1] : 12) + '"' + weight + ' fill="' + esc(st.fill) + '">' + esc(s) + '</text>');
};
// markers writes one element per marker (class and data-shape say what it
// is), so that an exported chart can be restyled and checked.
SvgPainter.prototype.markers = function (name, xs, ys, r, st) {
  var attrs = svgClass(st) + ' data-shape="' + esc(name) + '"' + svgStyle(st);
  for (var i = 0; i < xs.length; i++) {
    var p = new PathText();
    shapePath(p, name, xs[i], ys[i], r);
    this.out.push('<path' + attrs + ' d="' + p.d() + '"/>');
  }
};
SvgPainter.prototype.clip = function (x, y, w, h) {
  var id = 'clip' + (this.clips++);
  this.out.push('<defs><clipPath id="' + id + '"><rect x="' + num(x) + '" y="' + num(y) + '" width="' + num(w) + '" height="' + num(h) + '"/></clipPath></defs><g clip-path="url(#' + id + ')">');
};
SvgPainter.prototype.unclip = function () { this.out.push('</g>'); };

// measureText measures a label in the chart font.
var measureCtx = null;
function measureText(s, font) {
  if (!measureCtx) { measureCtx = document.createElement('canvas').getContext('2d'); }
  measureCtx.font = font || '12px system-ui, sans-serif';
  return measureCtx.measureText(s).width;
}
