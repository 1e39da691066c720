// pareto.html: repeats (error bars, n) and deltas to the baseline. Written
// for this project, no third-party code. It is placed before report-*.js in
// the page's one script element; it returns text and draws, and never
// builds HTML from data (the SVG helpers escape through the caller's esc).
var ParetoRepeats = (function () {
  'use strict';

  // reps returns the repeats of point i of series s, or undefined for a
  // single run.
  function reps(s, i) { return s.r ? s.r[i] : undefined; }
  function count(s, i) { var r = reps(s, i); return r ? r.m.length : 1; }

  // pct renders a relative delta as "+35%", "−15.2%" or "±0%".
  function pct(d) {
    if (typeof d !== 'number' || !isFinite(d)) { return ''; }
    var v = d * 100, a = Math.abs(v);
    var digits = a >= 100 ? 0 : a >= 10 ? 1 : 2;
    var txt = String(Number(a.toFixed(digits)));
    if (txt === '0') { return '±0%'; }
    return (v > 0 ? '+' : '−') + txt + '%';
  }

  // base returns the baseline of point i: {value, dx, dy} or {why}.
  function base(s, i) {
    var b = s.base;
    if (!b) { return null; }
    if (b.note) { return { why: b.note }; }
    if (b.b[i] < 0) { return { why: (b.why && b.why[i]) || 'no baseline' }; }
    return { value: b.bases[b.b[i]], dx: b.dx[i], dy: b.dy[i] };
  }

  // isBase reports whether point i of s is a baseline point.
  function isBase(s, i) {
    if (!s.base || !s.base.bases) { return false; }
    for (var k = 0; k < s.base.bases.length; k++) { if (s.base.bases[k].row === i) { return true; } }
    return false;
  }

  // deltaLine describes the delta of one axis ('x' or 'y').
  function deltaLine(b, ax, axis, fmt) {
    var d = ax === 'x' ? b.dx : b.dy, v = b.value[ax], note = b.value['note_' + ax];
    var unit = axis.unit ? ' ' + axis.unit : '';
    if (v === null || v === undefined) { return 'no delta: ' + (note || 'the baseline has no value'); }
    if (d === null || d === undefined) { return 'undefined (baseline ' + fmt(v) + unit + ')'; }
    var better = d === 0 ? '' : ((d > 0) === (axis.direction === 'maximize') ? ', better' : ', worse');
    return pct(d) + better + ' (baseline ' + fmt(v) + unit + ', n=' + b.value['n' + ax] + ')';
  }

  // spreadText renders "median 110 · min–max 100–150 · IQR 105–130".
  function spreadText(r, ax, value, agg, fmt) {
    var sp = r[ax];
    return agg + ' ' + fmt(value) + ' · min–max ' + fmt(sp.min) + '–' + fmt(sp.max) + ' · IQR ' + fmt(sp.q1) + '–' + fmt(sp.q3);
  }

  // drawBars draws the error bars of one point on a canvas: min–max
  // whiskers with end caps, and a thick translucent segment over the
  // interquartile range, on each axis. px maps a value to pixels.
  function drawBars(ctx, r, x, y, px, colour) {
    ctx.strokeStyle = colour;
    function seg(a, b, along, w, alpha) {
      if (!isFinite(a) || !isFinite(b)) { return; }
      ctx.globalAlpha = alpha;
      ctx.lineWidth = w;
      ctx.beginPath();
      if (along === 'x') { ctx.moveTo(a, y); ctx.lineTo(b, y); } else { ctx.moveTo(x, a); ctx.lineTo(x, b); }
      ctx.stroke();
    }
    ['x', 'y'].forEach(function (ax) {
      var sp = r[ax], lo = px(sp.min, ax), hi = px(sp.max, ax), q1 = px(sp.q1, ax), q3 = px(sp.q3, ax);
      seg(lo, hi, ax, 1.2, 0.8);
      seg(q1, q3, ax, 5, 0.35);
      ctx.globalAlpha = 0.8;
      ctx.lineWidth = 1.2;
      [lo, hi].forEach(function (e) {
        if (!isFinite(e)) { return; }
        ctx.beginPath();
        if (ax === 'x') { ctx.moveTo(e, y - 4); ctx.lineTo(e, y + 4); } else { ctx.moveTo(x - 4, e); ctx.lineTo(x + 4, e); }
        ctx.stroke();
      });
    });
    ctx.globalAlpha = 1;
  }

  // svgBars returns the same error bars as SVG elements (numbers only).
  function svgBars(r, x, y, sx, sy, colour, n) {
    var out = [];
    function line(x1, y1, x2, y2, w, op) {
      if (![x1, y1, x2, y2].every(isFinite)) { return; }
      out.push('<line class="error-bar" x1="' + n(x1) + '" y1="' + n(y1) + '" x2="' + n(x2) + '" y2="' + n(y2) + '" stroke="' + colour + '" stroke-width="' + w + '" stroke-opacity="' + op + '"/>');
    }
    var lx = sx(r.x.min), hx = sx(r.x.max), ly = sy(r.y.min), hy = sy(r.y.max);
    line(lx, y, hx, y, 1.2, 0.8);
    line(sx(r.x.q1), y, sx(r.x.q3), y, 5, 0.35);
    line(lx, y - 4, lx, y + 4, 1.2, 0.8);
    line(hx, y - 4, hx, y + 4, 1.2, 0.8);
    line(x, ly, x, hy, 1.2, 0.8);
    line(x, sy(r.y.q1), x, sy(r.y.q3), 5, 0.35);
    line(x - 4, ly, x + 4, ly, 1.2, 0.8);
    line(x - 4, hy, x + 4, hy, 1.2, 0.8);
    return out.join('');
  }

  // drawBaseMarker outlines a baseline point with a diamond and a label.
  function drawBaseMarker(ctx, x, y, colour, textColour) {
    ctx.strokeStyle = colour;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(x, y - 12); ctx.lineTo(x + 12, y); ctx.lineTo(x, y + 12); ctx.lineTo(x - 12, y); ctx.closePath();
    ctx.stroke();
    ctx.fillStyle = textColour;
    ctx.font = '11px system-ui, sans-serif';
    ctx.textAlign = 'left';
    ctx.fillText('baseline', x + 14, y - 8);
  }

  function svgBaseMarker(x, y, n) {
    return '<path class="baseline-marker" d="M' + n(x) + ',' + n(y - 12) + ' L' + n(x + 12) + ',' + n(y) + ' L' + n(x) + ',' + n(y + 12) + ' L' + n(x - 12) + ',' + n(y) + ' Z" fill="none" stroke="#1b1f24" stroke-width="2"/>' +
      '<text x="' + n(x + 14) + '" y="' + n(y - 8) + '" font-size="11">baseline</text>';
  }

  return { reps: reps, count: count, pct: pct, base: base, isBase: isBase, deltaLine: deltaLine, spreadText: spreadText,
    drawBars: drawBars, svgBars: svgBars, drawBaseMarker: drawBaseMarker, svgBaseMarker: svgBaseMarker };
}());
