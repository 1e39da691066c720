// pareto.html: the details panel of a Chart (part of the report-*.js files,
// see report-core.js): the pinned point's status (what beats it and by how
// much), values with units, repeats, deltas to the baseline, workload,
// layout, labels, source and the executed configuration with its Copy TOML
// button. On wide screens the panel sits beside the chart and stays in
// view while the table scrolls; on narrow ones it is a sheet at the bottom
// of the window. Pinning never scrolls the page.

function renderDetails(chart, sel) {
  var d = chart.details;
  d.textContent = '';
  d.classList.toggle('empty', !sel);
  if (!sel) {
    d.appendChild(el('p', { class: 'note placeholder', text: 'Click a point, or focus the chart (Tab) and press Enter, to pin its details here. Esc unpins.' }));
    return;
  }
  var plot = chart.plot, si = sel.s, i = sel.i, s = plot.series[si], p = pt(s.p[i]), st = chart.status(si);
  var dl = el('dl');
  function row(k, v) { if (v !== undefined && v !== null && v !== '') { dl.appendChild(el('dt', { text: k })); dl.appendChild(el('dd', { text: String(v) })); } }
  var close = el('button', { type: 'button', class: 'close', 'aria-label': 'Unpin', title: 'Unpin (Esc)', text: '×' });
  close.addEventListener('click', function () { chart.unpin(); });
  d.appendChild(el('div', { class: 'details-head' }, el('h3', { text: 'Point details' }), close));
  row('Case', p.case);
  row('Iteration', p.iteration);
  row('Step', p.step);
  row('Phase', p.phase);
  row('Benchmark', p.benchmark);
  row('Frontier', s.name);
  var status = STATUS[st.s[i]];
  if (st.s[i] === 1 && st.by[i] >= 0) { status += ' — beaten by ' + pointName(pt(s.p[st.by[i]])) + ' (' + chart.versus(s, st.by[i], i) + ')'; }
  if (st.s[i] === 2) { status += ' — ' + (chart.sim ? chart.sim.violations(si, i) : (s.notes && s.notes[i]) || 'violates an SLO'); }
  if (st.s[i] === 3) { status += ' — ' + (chart.sim ? chart.sim.reason(si, i) : (s.notes && s.notes[i]) || 'invalid'); }
  if (chart.tie(st, i) & 1) { status += ' (tie: identical values to another frontier point)'; }
  if (chart.tie(st, i) & 2) { status += ' (noise-tie: in a cycle of points that beat each other within the noise band)'; }
  if (R.isBase(s, i)) { status += ' (baseline)'; }
  if (chart.sim) { status += ' [simulated]'; }
  row('Status', status);
  row('X', plot.sels[s.xs ? s.xs[i] : 0] + ' = ' + fmt(s.x[i]) + unitOf(plot.x));
  row('Y', plot.sels[s.ys ? s.ys[i] : 0] + ' = ' + fmt(s.y[i]) + unitOf(plot.y));
  (plot.bounds || []).forEach(function (bd, k) { if (s.slo) { row('SLO ' + bd.label, fmt(s.slo[k][i]) + (bd.unit ? ' ' + bd.unit : '') + ' (bound ' + bd.op + ' ' + fmt(bd.bound) + ')'); } });
  repeatRows(plot, s, i, row);
  workloadRows(p.workload || {}, row);
  if (p.layout >= 0) { layoutRows(data.layouts[p.layout], row); }
  Object.keys(p.labels || {}).sort().forEach(function (k) { row(k, p.labels[k]); });
  row('Source', place(p.source, p.line, p.index));
  row('Trial id', p.id);
  d.appendChild(dl);
  if (p.config >= 0) {
    var cfg = data.configs[p.config];
    var status2 = el('span', { class: 'note copy-status' });
    var btn = el('button', { type: 'button', class: 'copy', text: 'Copy TOML' });
    btn.addEventListener('click', function () { copyText(cfg.toml, status2); });
    d.appendChild(el('h3', null, 'Executed configuration ', el('span', { class: 'note', text: cfg.path })));
    d.appendChild(el('div', null, btn, ' ', status2));
    d.appendChild(el('pre', { class: 'toml', text: cfg.toml, tabindex: '0', 'aria-label': 'Executed configuration' }));
  }
}

// repeatRows adds n, the spread and the runs of a point, and its deltas
// to the baseline.
function repeatRows(plot, s, i, row) {
  var rep = R.reps(s, i);
  row('Repeats', rep ? 'n=' + rep.m.length + ', ' + data.aggregate + ' of the repeats' : 'n=1 (single run)');
  if (rep) {
    row('X spread', R.spreadText(rep, 'x', s.x[i], data.aggregate, fmt));
    row('Y spread', R.spreadText(rep, 'y', s.y[i], data.aggregate, fmt));
    row('Repeat runs', rep.m.map(function (k) { return pointName(pt(k)) + ' (' + pt(k).id + ')'; }).join('; '));
  }
  var b = R.base(s, i);
  if (!b) { return; }
  if (b.why) { row('Δ vs baseline', b.why); return; }
  row('Δ X vs baseline', R.deltaLine(b, 'x', plot.x, fmt));
  row('Δ Y vs baseline', R.deltaLine(b, 'y', plot.y, fmt));
  row('Baseline', data.baseline + ': ' + b.value.ids.join(', ') + ' · ' + b.value.scope + ' · ' + b.value.workload);
}

function workloadRows(w, row) {
  row('Concurrency', w.concurrency);
  row('Achieved concurrency', w.achieved_concurrency ? fmt(w.achieved_concurrency) : '');
  row('Request rate', w.request_rate === 'inf' ? 'unlimited' : w.request_rate);
  row('Input length', lengths(w.input_tokens, w.mean_input_tokens));
  row('Output length', lengths(w.output_tokens, w.mean_output_tokens));
  row('Requests', w.requests);
}
function lengths(cfg, mean) {
  var out = [];
  if (cfg) { out.push(fmt(cfg) + ' configured'); }
  if (mean) { out.push(fmt(mean) + ' mean measured'); }
  return out.join(', ');
}
function layoutRows(l, row) {
  if (!l) { return; }
  // A layout given by hand (--gpus RxG) knows no nodes or parallel sizes (0): they are left out.
  row('Layout', (l.disaggregated ? 'disaggregated' : 'aggregated') + (l.nodes ? ', ' + l.nodes + ' node(s)' : '') + (l.engine ? ', ' + l.engine : '') + (l.workload === 'ai_dynamo' ? ' via Dynamo' : ''));
  (l.roles || []).forEach(function (r) {
    var name = r.name ? r.name.charAt(0).toUpperCase() + r.name.slice(1) : 'Serving';
    row(name, r.instances + ' instance(s)' + (r.nodes_per_instance ? ' × ' + r.nodes_per_instance + ' node(s) per instance' : '') +
      (r.tp ? '; TP=' + r.tp + ' PP=' + r.pp + ' DP=' + r.dp : '') +
      (r.cp > 1 ? ' CP=' + r.cp : '') + (r.dp_attention ? ' (DP attention)' : '') + '; ' + r.gpus_per_instance + ' GPU(s) per instance');
  });
  if (l.disaggregated) { row('Prefill/decode share nodes', l.shared_nodes ? 'yes' : 'no'); }
}

function copyText(text, status) {
  api.lastCopied = null;
  function done(ok) { status.textContent = ok ? 'Copied' : 'Copy failed: select the text below'; if (ok) { api.lastCopied = text; } }
  function fallback() {
    var ta = el('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.style.position = 'fixed'; ta.style.opacity = '0'; ta.style.top = '0';
    document.body.appendChild(ta);
    ta.focus({ preventScroll: true });
    ta.select();
    var ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    document.body.removeChild(ta);
    done(ok);
  }
  if (navigator.clipboard && navigator.clipboard.writeText) {
    navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
  } else { fallback(); }
}
