// pareto.html: start-up (part of the report-*.js files, see report-core.js,
// and the last of them): the aggregation note and warnings, one Chart per
// plot, the exclusions, the resize handler, and the ready flags: the test
// hook's api.ready and data-state="ready" on <html> once every chart is
// drawn.

var meta = document.getElementById('aggregation');
if (meta) {
  meta.textContent = (data.aggregate === 'none' ? 'Repeats are not aggregated: every run is a point.' :
    'Repeats of a configuration (same parameters, workload and environment) are one point: their ' + data.aggregate +
    ', with error bars (min–max whiskers, interquartile range thicker) and n in the details.') +
    (data.baseline ? ' Baseline ' + data.baseline + ' (◇): every point shows its relative delta Δ to it.' : '');
  (data.warnings || []).forEach(function (w) { meta.parentNode.insertBefore(el('p', { class: 'meta warning', text: 'Warning: ' + w }), meta.nextSibling); });
}
var main = document.getElementById('plots');
// Skip links: one per plot and one to the exclusions, first in the tab
// order, shown when focused. They focus their target without touching the
// URL (whose fragment holds the view, report-state.js).
var skip = el('nav', { class: 'skip', 'aria-label': 'Skip links' });
function skipTo(label, id) {
  var a = el('a', { href: '#' + id, text: label });
  a.addEventListener('click', function (ev) { ev.preventDefault(); var t = document.getElementById(id); if (t) { t.focus(); t.scrollIntoView(); } });
  skip.appendChild(a);
}
data.plots.forEach(function (p, i) { skipTo('Skip to ' + p.name, 'plot-' + i); });
skipTo('Skip to exclusions', 'exclusions');
document.body.insertBefore(skip, document.body.firstChild);
var exclSec = document.getElementById('exclusions');
exclSec.setAttribute('tabindex', '-1');
exclSec.setAttribute('aria-label', 'Exclusions');
if (!data.plots.length && !(data.comparisons || []).length) { main.appendChild(el('p', { text: 'No plots configured.' })); }
var tParsed = performance.now();
data.plots.forEach(function (p, i) {
  var c = new Chart(p, i);
  main.appendChild(c.root);
  charts.push(c);
});
var tBuilt = performance.now();
// Each chart drew once while it was built, before it was in the page; draw
// again now that it has its width.
charts.forEach(function (c) { c.cssWidth = 0; c.draw(); });
restoreState();
renderComparisons(main);
var tDrawn = performance.now();
renderExclusions();
var lastWidth = window.innerWidth;
window.addEventListener('resize', function () {
  if (window.innerWidth === lastWidth) { return; }
  lastWidth = window.innerWidth;
  charts.forEach(function (c) { c.cssWidth = 0; c.redraw(); });
});
// A narrow window's details sheet follows the pinned chart as the page
// scrolls (placeSheet), once per frame.
var sheetQueued = false;
function queueSheet() {
  if (sheetQueued) { return; }
  sheetQueued = true;
  requestAnimationFrame(function () { sheetQueued = false; placeSheet(); });
}
window.addEventListener('scroll', queueSheet, { passive: true });
window.addEventListener('resize', queueSheet);
window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', function () { charts.forEach(function (c) { c.redraw(); }); });
api.charts = charts;
api.data = data;
api.point = pt;
api.svg = function (i) { return charts[i].svg(); };
api.restoreState = restoreState;
api.palette = { light: PALETTE, dark: PALETTE_DARK };
api.png = function (i) { return charts[i].png(); };
api.csv = function (i) { return charts[i].csv(); };
api.setShowDominated = function (on) { charts.forEach(function (c) { c.setShowDominated(on); }); };
api.renderMs = performance.now() - t0;
api.timings = { parse: tParsed - t0, build: tBuilt - tParsed, draw: tDrawn - tBuilt, exclusions: performance.now() - tDrawn };
api.readyMs = performance.now();
api.ready = true;
document.documentElement.setAttribute('data-state', 'ready');
