// pareto.html: the view in the URL and the exports of the current view
// (part of the report-*.js files, see report-core.js). Every change to a
// chart's view — zoom, log axes, hidden series, dominated points shown,
// the pinned point, the simulator's panel and settings — is written to the
// URL fragment (history.replaceState, no reload, no network), so that a
// copied link or a reload opens the same view; restoreState reads it back
// at start-up. The fragment holds numbers and flags only, parsed as such:
// nothing in it reaches the page as markup. PNG and CSV export what the
// chart shows.

// stateOf returns chart c's view as fragment parameters (prefix c<index>.).
function stateOf(c) {
  var out = [], k = 'c' + c.index + '.';
  function num(v) { return String(v); }
  if (!c.auto && c.view) { out.push(k + 'v=' + [c.view.x[0], c.view.x[1], c.view.y[0], c.view.y[1]].map(num).join(',')); }
  var log = (c.log.x ? 'x' : '') + (c.log.y ? 'y' : '');
  if (log !== ((c.plot.x.log ? 'x' : '') + (c.plot.y.log ? 'y' : ''))) { out.push(k + 'log=' + (log || '-')); }
  var hidden = [];
  c.hidden.forEach(function (h, i) { if (h) { hidden.push(i); } });
  if (hidden.length) { out.push(k + 'hide=' + hidden.join(',')); }
  if (c.showDominated) { out.push(k + 'dom=1'); }
  if (c.selected) { out.push(k + 'pin=' + c.selected.s + ',' + c.selected.i); }
  var m = c.simulator;
  if (m && m.root.open) {
    var b = m.bounds.concat(m.axisBounds).map(function (x) { return (x.on ? '' : '!') + num(x.bound); });
    out.push(k + 'sim=' + [m.p.sx, m.p.dx, m.p.sy, m.p.dy].map(num).join(',') + (b.length ? ';' + b.join(',') : ''));
  }
  return out;
}

// saveState writes every chart's view to the fragment, once per frame.
var stateQueued = false, restoring = false;
function saveState() {
  if (stateQueued || restoring || !history.replaceState) { return; }
  stateQueued = true;
  requestAnimationFrame(function () {
    stateQueued = false;
    var parts = [];
    charts.forEach(function (c) { parts = parts.concat(stateOf(c)); });
    var hash = parts.length ? '#' + parts.join('&') : '';
    if (hash !== location.hash) {
      try { history.replaceState(null, '', location.pathname + location.search + hash); } catch (e) { /* a sandboxed frame: no URL to keep */ }
    }
    api.state = hash;
  });
}

// restoreState applies the fragment's views; a value that does not parse
// or points at nothing is ignored.
function restoreState() {
  var h = location.hash.replace(/^#/, '');
  if (!h) { return; }
  restoring = true;
  var params = {};
  h.split('&').forEach(function (kv) {
    var at = kv.indexOf('=');
    if (at > 0) { params[decodeURIComponent(kv.slice(0, at))] = decodeURIComponent(kv.slice(at + 1)); }
  });
  function nums(s) { return String(s).split(',').map(Number); }
  charts.forEach(function (c) {
    var k = 'c' + c.index + '.', v;
    if ((v = params[k + 'log'])) {
      ['x', 'y'].forEach(function (ax) { c.log[ax] = v.indexOf(ax) >= 0; c.root.querySelector('input.log-' + ax).checked = c.log[ax]; });
    }
    if ((v = params[k + 'hide'])) {
      nums(v).forEach(function (i) { if (i >= 0 && i < c.hidden.length) { c.hidden[i] = true; } });
    }
    if (params[k + 'dom'] === '1') { c.showDominated = true; c.domBox.checked = true; }
    if ((v = params[k + 'sim'])) {
      var parts = v.split(';'), p = nums(parts[0]), m = c.simulator;
      if (p.length === 4 && p.every(function (x) { return isFinite(x) && x >= 0; })) {
        ['sx', 'dx', 'sy', 'dy'].forEach(function (key, j) {
          var top = m.caps ? m.caps[key] : (key.charAt(0) === 'd' ? 0.999 : 10);
          m.p[key] = Math.min(p[j], top);
          m.inputs[key].forEach(function (inp) { inp.value = String(Number((m.p[key] * 100).toPrecision(8))); });
        });
      }
      if (parts[1]) {
        var bs = m.bounds.concat(m.axisBounds);
        parts[1].split(',').forEach(function (t, j) {
          var b = bs[j], off = t.charAt(0) === '!', x = Number(off ? t.slice(1) : t);
          if (!b || !isFinite(x)) { return; }
          b.on = !off; b.bound = x;
          b.inputs[0].checked = b.on; b.inputs[1].value = b.inputs[2].value = String(x);
        });
      }
      m.root.open = true;
      m.update();
    }
    c.renderLegend();
    c.fit();
    if ((v = params[k + 'v'])) {
      var q = nums(v);
      if (q.length === 4 && q.every(isFinite) && q[1] > q[0] && q[3] > q[2]) { c.view = { x: [q[0], q[1]], y: [q[2], q[3]] }; c.auto = false; c.draw(); }
    }
    if ((v = params[k + 'pin'])) {
      var si = nums(v)[0], i = nums(v)[1], s = c.plot.series[si];
      if (s && i >= 0 && i < s.x.length && i === Math.floor(i)) { var keepAuto = c.auto, view = c.view; c.select(si, i, 'url'); if (!keepAuto) { c.view = view; c.auto = false; c.draw(); } }
    }
  });
  restoring = false;
  saveState();
}

// png returns chart c's canvas as a PNG data URL.
Chart.prototype.png = function () { return this.canvas.toDataURL('image/png'); };

// csv returns the points chart c shows in its current view, one row each:
// series, trial ID, case, both axes, status (the simulator's when it is
// open). A cell that a spreadsheet would run as a formula starts with '.
Chart.prototype.csv = function () {
  var self = this, plot = this.plot, rows = [['series', 'id', 'case', axisName(plot.x), axisName(plot.y), 'status']];
  function cell(v) {
    var s = String(v);
    if (/^[=+\-@\t\r]/.test(s) && !(typeof v === 'number')) { s = "'" + s; }
    return /[",\n\r]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  }
  function inView(v, ax) { var t = self.tx(v, ax), d = self.view[ax]; return isFinite(t) && t >= d[0] && t <= d[1]; }
  plot.series.forEach(function (s, si) {
    if (self.hidden[si]) { return; }
    var st = self.status(si);
    for (var i = 0; i < s.x.length; i++) {
      if (!self.shown(st, i) || !inView(s.x[i], 'x') || !inView(s.y[i], 'y')) { continue; }
      var p = pt(s.p[i]);
      rows.push([s.name, p.id, p.case, s.x[i], s.y[i], STATUS[st.s[i]]]);
    }
  });
  return rows.map(function (r) { return r.map(cell).join(','); }).join('\r\n') + '\r\n';
};
