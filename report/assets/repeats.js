// pareto.html: repeats (n, spreads) and deltas to the baseline. Written for
// this project, no third-party code. It is placed before report-*.js in the
// page's one script element; it returns text and never builds HTML. The
// error bars and baseline markers are drawn by report-draw.js.
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

  return { reps: reps, count: count, pct: pct, base: base, isBase: isBase, deltaLine: deltaLine, spreadText: spreadText };
}());
