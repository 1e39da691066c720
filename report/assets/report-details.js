// pareto.html: the details panel of a selected point (part of the
// report-*.js files, see report-core.js): status, values, repeats, deltas to
// the baseline, workload, layout, labels and the executed configuration,
// with its Copy TOML button.

function renderDetails(chart, si, i) {
  var plot = chart.plot, s = plot.series[si], pt = data.points[s.p[i]];
  var d = chart.details, dl = el('dl');
  function row(k, v) { if (v !== undefined && v !== null && v !== '') { dl.appendChild(el('dt', { text: k })); dl.appendChild(el('dd', { text: String(v) })); } }
  d.textContent = '';
  d.hidden = false;
  d.appendChild(el('h3', { text: 'Point details' }));
  row('Case', pt.case);
  row('Iteration', pt.iteration);
  row('Step', pt.step);
  row('Phase', pt.phase);
  row('Benchmark', pt.benchmark);
  row('Frontier', s.name);
  var status = STATUS[s.s[i]];
  if (s.s[i] === 1 && s.by[i] >= 0) { status += ' — beaten by ' + pointName(data.points[s.p[s.by[i]]]); }
  if (s.notes && s.notes[i]) { status += ' — ' + s.notes[i]; }
  if (s.t[i] & 1) { status += ' (tie: identical values to another frontier point)'; }
  if (s.t[i] & 2) { status += ' (noise-tie: within noise of another frontier point)'; }
  if (R.isBase(s, i)) { status += ' (baseline)'; }
  row('Status', status);
  row('X', plot.sels[s.xs[i]] + ' = ' + fmt(s.x[i]) + (plot.x.unit ? ' ' + plot.x.unit : ''));
  row('Y', plot.sels[s.ys[i]] + ' = ' + fmt(s.y[i]) + (plot.y.unit ? ' ' + plot.y.unit : ''));
  repeatRows(plot, s, i, row);
  workloadRows(pt.workload || {}, row);
  if (pt.layout >= 0) { layoutRows(data.layouts[pt.layout], row); }
  Object.keys(pt.labels || {}).sort().forEach(function (k) { row(k, pt.labels[k]); });
  row('Source', pt.source);
  row('Trial id', pt.id);
  d.appendChild(dl);
  if (pt.config >= 0) {
    var cfg = data.configs[pt.config];
    var status2 = el('span', { class: 'note copy-status' });
    var btn = el('button', { type: 'button', class: 'copy', text: 'Copy TOML' });
    btn.addEventListener('click', function () { copyText(cfg.toml, status2); });
    d.appendChild(el('h3', null, 'Executed configuration ', el('span', { class: 'note', text: cfg.path })));
    d.appendChild(el('div', null, btn, ' ', status2));
    d.appendChild(el('pre', { class: 'toml', text: cfg.toml }));
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
    row('Repeat runs', rep.m.map(function (k) { return pointName(data.points[k]) + ' (' + data.points[k].id + ')'; }).join('; '));
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
  row('Layout', (l.disaggregated ? 'disaggregated' : 'aggregated') + ', ' + l.nodes + ' node(s)' + (l.engine ? ', ' + l.engine : '') + (l.workload === 'ai_dynamo' ? ' via Dynamo' : ''));
  (l.roles || []).forEach(function (r) {
    var name = r.name ? r.name.charAt(0).toUpperCase() + r.name.slice(1) : 'Serving';
    row(name, r.instances + ' instance(s) × ' + r.nodes_per_instance + ' node(s) per instance; TP=' + r.tp + ' PP=' + r.pp + ' DP=' + r.dp +
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
    ta.style.position = 'fixed'; ta.style.opacity = '0';
    document.body.appendChild(ta);
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
