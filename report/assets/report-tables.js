// pareto.html: tables (part of the report-*.js files, see report-core.js):
// the measurement rows of a Chart, the sortable Table that renders them,
// and the exclusions table. A Table holds its rows as a source (a count and
// a function giving row k), sorts an index, and renders at most limit rows,
// so that 100,000 points cost no 100,000 row objects (and the page lays
// out 200 rows at first; a button shows more). Headers sort with a
// click or Enter; rows pin with a click or Enter; nothing scrolls the page.

Chart.prototype.measureColumns = function () {
  var p = this.plot;
  return [
    { key: 'series', title: 'Frontier' }, { key: 'id', title: 'ID', wrap: true }, { key: 'case', title: 'Case', wrap: true }, { key: 'iteration', title: 'Iter' },
    { key: 'step', title: 'Step' }, { key: 'phase', title: 'Phase' },
    { key: 'x', title: p.x.label + (p.x.unit ? ' (' + p.x.unit + ')' : ''), num: true },
    { key: 'y', title: p.y.label + (p.y.unit ? ' (' + p.y.unit + ')' : ''), num: true }, { key: 'n', title: 'n', num: true }
  ].concat(data.baseline ? [{ key: 'dx', title: 'Δ X', num: true, format: R.pct }, { key: 'dy', title: 'Δ Y', num: true, format: R.pct }] : [],
    [{ key: 'status', title: 'Status' }, { key: 'tie', title: 'Tie' }]);
};

// measureRows is the table's source: row k is point i of series s, series
// after series.
Chart.prototype.measureRows = function () {
  var chart = this, series = this.plot.series, start = [], n = 0;
  series.forEach(function (s) { start.push(n); n += s.x.length; });
  function locate(k) {
    var lo = 0, hi = start.length - 1;
    while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (start[mid] <= k) { lo = mid; } else { hi = mid - 1; } }
    return [lo, k - start[lo]];
  }
  function value(k, key) {
    var at = locate(k), si = at[0], i = at[1], s = series[si];
    switch (key) {
      case 'series': return s.name;
      case 'x': return s.x[i];
      case 'y': return s.y[i];
      case 'n': return R.count(s, i);
      case 'dx': case 'dy': var b = R.base(s, i); return b && !b.why && b[key] !== null && b[key] !== undefined ? b[key] : '';
      // The statuses shown: the simulator's while its panel is open.
      case 'status': var st = chart.status(si); return (st.s[i] === 0 ? '★ ' : '') + STATUS[st.s[i]] + (R.isBase(s, i) ? ' · baseline' : '');
      case 'tie': var t = chart.tie(chart.status(si), i); return (t & 1 ? 'tie ' : '') + (t & 2 ? 'noise-tie' : '');
      case 'id': var rp = R.reps(s, i); return shownID(pt(s.p[i])) + (rp && rp.m.length > 1 ? ' +' + (rp.m.length - 1) : '');
      case 'iteration':
        var rep = R.reps(s, i);
        if (rep) { return rep.m.map(function (m) { return pt(m).iteration || ''; }).filter(function (v, j, a) { return v && a.indexOf(v) === j; }).join(','); }
        return pt(s.p[i]).iteration || '';
      default: return pt(s.p[i])[key] || '';
    }
  }
  return { n: n, value: value, locate: locate, index: function (si, i) { return start[si] + i; },
    row: function (k) { var at = locate(k); return { s: at[0], i: at[1] }; } };
};

// breakable sets e's text with a line-break opportunity (<wbr>) after every
// '.', '_', '/' and ',' so that case names, metric names and paths wrap at
// their parts; the text itself is unchanged.
function breakable(e, text) {
  e.textContent = '';
  var parts = String(text).split(/(?<=[._/,])/);
  parts.forEach(function (part, k) {
    if (k > 0) { e.appendChild(document.createElement('wbr')); }
    e.appendChild(document.createTextNode(part));
  });
}

// Table is a sortable table over a source {n, value(k, key), row(k)}.
function Table(columns, source, onClick) {
  var self = this;
  this.columns = columns;
  this.source = source;
  this.order = new Int32Array(source.n);
  for (var k = 0; k < source.n; k++) { this.order[k] = k; }
  this.limit = 200;
  this.onClick = onClick;
  this.selected = -1;
  this.root = el('div', { class: 'table-wrap', tabindex: '-1' });
  var head = el('tr');
  columns.forEach(function (c) {
    var th = el('th', { 'data-key': c.key, 'aria-sort': 'none', scope: 'col', tabindex: '-1', class: c.num ? 'num' : '' });
    breakable(th, c.title);
    th.addEventListener('click', function () { self.sort(c.key, th); });
    th.addEventListener('keydown', function (ev) {
      var ths = self.table.tHead.rows[0].cells, j = Array.prototype.indexOf.call(ths, th);
      switch (ev.key) {
        case 'Enter': case ' ': ev.preventDefault(); self.sort(c.key, th); return;
        case 'ArrowLeft': if (j > 0) { self.focus(ths[j - 1]); } break;
        case 'ArrowRight': if (j < ths.length - 1) { self.focus(ths[j + 1]); } break;
        case 'Home': self.focus(ths[0]); break;
        case 'End': self.focus(ths[ths.length - 1]); break;
        case 'ArrowDown': if (self.onClick && self.body.rows.length) { self.focus(self.body.rows[0]); } break;
        default: return;
      }
      ev.preventDefault();
    });
    head.appendChild(th);
  });
  this.body = el('tbody');
  this.table = el('table', null, el('thead', null, head), this.body);
  this.root.appendChild(this.table);
  this.more = el('button', { type: 'button', class: 'more', text: 'Show 500 more rows' });
  this.more.addEventListener('click', function () { self.limit += 500; self.render(); });
  this.note = el('p', { class: 'note table-note' });
  this.foot = el('div', { class: 'table-foot' }, this.note, this.more);
  this.render();
}
// filter shows only the source rows keep accepts (every row for null),
// in source order.
Table.prototype.filter = function (keep) {
  var out = [];
  for (var k = 0; k < this.source.n; k++) { if (!keep || keep(k)) { out.push(k); } }
  this.order = Int32Array.from(out);
  this.root.querySelectorAll('th').forEach(function (h) { h.setAttribute('aria-sort', 'none'); });
  this.render();
};
Table.prototype.sort = function (key, th) {
  var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1, src = this.source;
  this.root.querySelectorAll('th').forEach(function (h) { h.setAttribute('aria-sort', 'none'); });
  th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
  var vals = new Array(src.n);
  for (var k = 0; k < src.n; k++) { vals[k] = src.value(k, key); }
  var idx = Array.prototype.slice.call(this.order);
  idx.sort(function (a, b) {
    var x = vals[a], y = vals[b];
    if (typeof x === 'number' && typeof y === 'number') { return (x - y) * dir || a - b; }
    if (typeof x === 'number' && y === '') { return -1; }
    if (x === '' && typeof y === 'number') { return 1; }
    return String(x).localeCompare(String(y), undefined, { numeric: true }) * dir || a - b;
  });
  this.order = Int32Array.from(idx);
  this.render();
};
// focus moves the table's one Tab stop (tabindex 0) to e, a header cell or
// a row, and focuses it: the table is one stop in the page's tab order,
// and the arrow keys move inside it.
Table.prototype.focus = function (e) {
  this.table.querySelectorAll('[tabindex="0"]').forEach(function (x) { x.setAttribute('tabindex', '-1'); });
  e.setAttribute('tabindex', '0');
  if (e.tagName === 'TR') { this.current = Number(e.getAttribute('data-k')); } else { this.current = -1; }
  e.focus();
};
// rowKeys moves between the rows (arrows, Home, End, Page Up/Down), up to
// the headers from the first row, and pins the row with Enter or Space.
Table.prototype.rowKeys = function (ev, tr, go) {
  var rows = this.body.rows, j = tr.sectionRowIndex, to = -1;
  switch (ev.key) {
    case 'Enter': case ' ': ev.preventDefault(); go(); return;
    case 'ArrowDown': to = Math.min(rows.length - 1, j + 1); break;
    case 'ArrowUp':
      if (j === 0) { ev.preventDefault(); this.focus(this.table.tHead.rows[0].cells[0]); return; }
      to = j - 1; break;
    case 'PageDown': to = Math.min(rows.length - 1, j + 10); break;
    case 'PageUp': to = Math.max(0, j - 10); break;
    case 'Home': to = 0; break;
    case 'End': to = rows.length - 1; break;
    default: return;
  }
  ev.preventDefault();
  this.focus(rows[to]);
};
Table.prototype.render = function () {
  var self = this, frag = document.createDocumentFragment(), src = this.source;
  var n = Math.min(this.order.length, this.limit);
  for (var r = 0; r < n; r++) {
    var k = this.order[r], tr = el('tr', this.onClick ? { tabindex: '-1', 'data-k': String(k) } : null);
    if (k === this.selected) { tr.className = 'selected'; tr.setAttribute('aria-selected', 'true'); }
    this.columns.forEach(function (c) {
      var v = src.value(k, c.key);
      var text = c.format ? c.format(v) : c.num ? (v === '' ? '' : fmt(v)) : String(v == null ? '' : v);
      var td = el('td', { class: (c.num ? 'num ' : '') + (c.wrap ? 'wrap ' : '') + c.key });
      if (c.wrap) { breakable(td, text); } else { td.textContent = text; }
      tr.appendChild(td);
    });
    if (this.onClick) {
      var go = this.onClick.bind(null, src.row(k));
      tr.addEventListener('click', go);
      tr.addEventListener('keydown', (function (f, row) { return function (ev) { self.rowKeys(ev, row, f); }; }(go, tr)));
    }
    frag.appendChild(tr);
  }
  this.body.textContent = '';
  this.body.appendChild(frag);
  // The one Tab stop: the current row (the pinned one, else the one last
  // focused), else the first row, else the first header.
  var hasFocus = this.table.contains(document.activeElement), stop = null;
  this.table.tHead.querySelectorAll('th').forEach(function (h) { h.setAttribute('tabindex', '-1'); });
  if (hasFocus && document.activeElement.tagName === 'TH') {
    stop = document.activeElement;
  } else if (this.onClick && this.body.rows.length) {
    var want = this.selected >= 0 ? this.selected : this.current;
    stop = this.body.querySelector('tr[data-k="' + want + '"]') || this.body.rows[0];
  } else if (!this.onClick || !this.body.rows.length) { stop = this.table.tHead.rows[0].cells[0]; }
  if (stop) { stop.setAttribute('tabindex', '0'); if (hasFocus && stop.tagName === 'TR' && document.activeElement.tagName === 'TR') { stop.focus(); } }
  this.note.textContent = (this.order.length > n ? 'Showing ' + n + ' of ' + this.order.length + ' rows; sort to see others.' : this.order.length + ' rows.') + (this.extra || '');
  this.more.hidden = this.order.length <= n;
};
// highlight marks source row k (-1 for none) and scrolls the table, not
// the page, to it.
Table.prototype.highlight = function (k) {
  this.selected = k;
  if (k >= 0) {
    var pos = this.order.indexOf(k);
    if (pos >= this.limit) {
      var idx = Array.prototype.slice.call(this.order);
      idx.splice(pos, 1);
      idx.unshift(k);
      this.order = Int32Array.from(idx);
    }
  }
  this.render();
  var tr = this.body.querySelector('tr.selected');
  if (!tr) { return; }
  var wrap = this.root, head = this.table.tHead ? this.table.tHead.offsetHeight : 0;
  var top = tr.getBoundingClientRect().top - wrap.getBoundingClientRect().top + wrap.scrollTop;
  if (top - head < wrap.scrollTop) { wrap.scrollTop = top - head; } else if (top + tr.offsetHeight > wrap.scrollTop + wrap.clientHeight) {
    wrap.scrollTop = top + tr.offsetHeight - wrap.clientHeight;
  }
};

// binned returns the number of trials the plot's density layers stand for.
Chart.prototype.binned = function () {
  var n = 0;
  this.plot.series.forEach(function (s) { if (s.d) { n += s.d.n; } });
  return n;
};

// finder builds the search by trial ID of the measurements: the table
// shows the matching points, and the note names the matching trials the
// density layers stand for, with their series and cell.
Chart.prototype.finder = function () {
  var self = this, input = el('input', { type: 'search', class: 'find-id', placeholder: 'Find a trial by ID', 'aria-label': 'Find a trial of ' + this.plot.name + ' by ID' });
  this.found = el('p', { class: 'note find-binned', 'aria-live': 'polite' });
  input.addEventListener('input', function () { self.find(input.value); });
  return el('div', { class: 'finder' }, input, this.found);
};

// find filters the table to the points whose trial ID (or a repeat's)
// contains q, and lists the binned trials whose ID or name does.
Chart.prototype.find = function (q) {
  var self = this, rows = this.rows;
  q = String(q || '').trim().toLowerCase();
  this.found.textContent = '';
  if (!q) { this.table.filter(null); return; }
  this.table.filter(function (k) {
    var at = rows.row(k), s = self.plot.series[at.s], rep = R.reps(s, at.i);
    var ids = [];
    (rep ? rep.m : [s.p[at.i]]).forEach(function (m) { ids.push(pt(m).id, shownID(pt(m))); });
    return ids.some(function (id) { return id.toLowerCase().indexOf(q) >= 0; });
  });
  var hits = [], total = 0;
  this.plot.series.forEach(function (s) {
    var d = s.d;
    if (!d || !d.cell) { return; }
    // A binned trial is found by its ID or its name (a table's id
    // column); a table read column by column names its trials alone.
    var ids = d.ids || [], names = d.names || [];
    for (var k = 0; k < d.cell.length; k++) {
      var id = ids[k] || '', name = names[k] || '';
      if (id.toLowerCase().indexOf(q) < 0 && name.toLowerCase().indexOf(q) < 0) { continue; }
      total++;
      if (hits.length < 20) { hits.push((name && id ? name + ' · ' + id : name || id) + ' (' + s.name + ', ' + self.cellText(d, d.cell[k]) + ')'); }
    }
  });
  if (total) {
    this.found.textContent = total.toLocaleString('en-US') + ' binned trial(s) match, dominated by more than the density layer\'s margin: ' + hits.join('; ') + (total > hits.length ? '; …' : '');
  }
  api.found = { rows: this.table.order.length, binned: total };
};

// cellText renders the value range of cell c of density layer d.
Chart.prototype.cellText = function (d, c) {
  var edge = function (v0, v1, n, k, log) { var t = v0 + (v1 - v0) * k / n; return log ? Math.pow(10, t) : t; };
  var cx = d.c[3 * c], cy = d.c[3 * c + 1], px = this.plot.x, py = this.plot.y;
  return px.label + ' ' + fmt(edge(d.x0, d.x1, d.nx, cx, d.logx)) + '–' + fmt(edge(d.x0, d.x1, d.nx, cx + 1, d.logx)) + unitOf(px) + ', ' +
    py.label + ' ' + fmt(edge(d.y0, d.y1, d.ny, cy, d.logy)) + '–' + fmt(edge(d.y0, d.y1, d.ny, cy + 1, d.logy)) + unitOf(py);
};

// ---- exclusions ------------------------------------------------------------------
function renderExclusions() {
  var sec = document.getElementById('exclusions');
  var ex = data.exclusions || [];
  sec.appendChild(el('h2', { text: 'Exclusions (' + ex.length + ')' }));
  sec.appendChild(el('p', { class: 'note', text: 'Runs, files and points that give no point in a plot, with the reason. Candidates are the measurements a selector could have meant; a file with several records names the line or record.' }));
  var cols = [{ key: 'plot', title: 'Plot', wrap: true }, { key: 'case', title: 'Case', wrap: true }, { key: 'iteration', title: 'Iter' }, { key: 'step', title: 'Step' },
    { key: 'phase', title: 'Phase' }, { key: 'code', title: 'Code', wrap: true }, { key: 'reason', title: 'Reason', wrap: true },
    { key: 'candidates', title: 'Candidates', wrap: true }, { key: 'path', title: 'Path', wrap: true }];
  var src = { n: ex.length, row: function (k) { return { k: k }; }, value: function (k, key) {
    var e = ex[k];
    switch (key) {
      case 'plot': return e.plot || 'all plots';
      case 'reason': return e.reason + (e.axis ? ' [' + e.axis + ']' : '');
      case 'candidates': return (e.candidates || []).join(', ');
      case 'path': return place(e.path, e.line, e.index);
      default: return e[key] || '';
    }
  } };
  var t = new Table(cols, src, null);
  t.root.classList.add('excl');
  sec.appendChild(t.root);
  sec.appendChild(t.foot);
}
