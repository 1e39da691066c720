// pareto.html: tables (part of the report-*.js files, see report-core.js):
// the measurement rows of a Chart, the sortable Table that renders them,
// and the exclusions table.

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
