// pareto.html: the frontier engine's relation in the page, for the frontier
// simulator. Written for this project, no third-party code. It answers the
// questions frontier.Analyze answers for two objectives — which points are
// invalid, which violate an SLO, and which are on the noise-aware frontier
// (the Schwartz set of the (σ, δ) relation), with a beater for every other
// point, exact ties and noise-tied groups (top cycles) — on the values the
// page holds. The browser test compares it with frontier.Analyze on random
// cases, cycles included.
//
// The algorithm is the engine's (frontier/noise.go, schwartz.go,
// sccrounds.go): a point that weakly Pareto-dominates a beater is a beater,
// so only the strict frontier is searched for beaters (a staircase in 2D);
// with cyclic parameters the points reachable from unbeaten points are
// removed by repeated queries against the strict frontier of what was
// reached, and the source strongly connected components of the rest are
// found exactly.
var ParetoFrontier = (function () {
  'use strict';

  var EXPLICIT_LIMIT = 2048, MAX_WORST = 512;
  // path records how the last analysis found its frontier (for tests):
  // strict, noise (acyclic), explicit (cycles, graph built), rounds.
  var path = '';
  // deadline, when set (analyze's p.timeLimit), ends a search for cycles
  // that runs past it with a BudgetError: the simulator's way to stay
  // responsive when very many points beat each other around cycles.
  var deadline = Infinity, ticks = 0;
  function BudgetError(points) { this.points = points; this.message = points + ' points in dominance cycles'; }
  function check(points) {
    if (++ticks % 2048 === 0 && deadline !== Infinity && performance.now() > deadline) { throw new BudgetError(points); }
  }

  // objective: {dir: 'minimize'|'maximize', noise: σ, improve: δ}.
  function relative(o) { return o.noise !== 0 || o.improve !== 0; }

  // axisBeats compares value a with value b on objective o: -1 when a is
  // worse beyond the noise band, 1 when it is better beyond the minimum
  // improvement, 0 otherwise.
  function axisBeats(a, b, o) {
    if (o.dir === 'maximize') {
      if (a < b * (1 - o.noise)) { return -1; }
      return a > b * (1 + o.improve) ? 1 : 0;
    }
    if (a > b * (1 + o.noise)) { return -1; }
    return a < b * (1 - o.improve) ? 1 : 0;
  }

  // beats reports whether point a ([x, y]) beats point b under the
  // noise-aware relation of objs (frontier.Beats): worse beyond the band
  // on neither objective, better beyond the minimum improvement on one.
  function beats(a0, a1, b0, b1, objs) {
    var bx = axisBeats(a0, b0, objs[0]);
    if (bx < 0) { return false; }
    var by = axisBeats(a1, b1, objs[1]);
    return by >= 0 && (bx > 0 || by > 0);
  }

  // cycleSum is Σ s/(s+d) with s = ln(1+σ), d = −ln(1−δ): the relation is
  // acyclic exactly when it is at most 1 (frontier.CycleSum).
  function cycleSum(objs) {
    var sum = 0;
    objs.forEach(function (o) {
      var s = Math.log1p(o.noise), d = -Math.log1p(-o.improve);
      if (s + d > 0) { sum += s / (s + d); }
    });
    return sum;
  }

  // acyclicMinImprove is the smallest δ that, on every objective with the
  // given noise bands, rules out cycles (frontier.AcyclicMinImprove).
  function acyclicMinImprove(objs) {
    function f(d) {
      var sum = 0;
      objs.forEach(function (o) { var s = Math.log1p(o.noise); if (s + d > 0) { sum += s / (s + d); } });
      return sum;
    }
    var lo = 0, hi = 1;
    while (f(hi) > 1) { hi *= 2; }
    for (var i = 0; i < 100; i++) {
      var mid = (lo + hi) / 2;
      if (f(mid) > 1) { lo = mid; } else { hi = mid; }
    }
    return -Math.expm1(-hi);
  }

  function badValue(v, rel) {
    if (typeof v !== 'number' || isNaN(v)) { return 'value is NaN'; }
    if (!isFinite(v)) { return 'value is ' + (v > 0 ? '+Inf' : '-Inf'); }
    if (rel && v <= 0) { return 'value ' + v + ' is not positive, so a relative noise band cannot apply'; }
    return '';
  }

  function holds(op, v, bound) {
    switch (op) {
      case '<=': return v <= bound;
      case '<': return v < bound;
      case '>=': return v >= bound;
      default: return v > bound;
    }
  }

  // strictFront returns, parallel to the rows ids (indexes into mx, my,
  // the min-oriented values), -1 for rows on the strict Pareto frontier and
  // a dominating row otherwise. Exact duplicates of a frontier point stay
  // on it.
  function strictFront(mx, my, ids) {
    var n = ids.length, order = new Int32Array(n), out = new Int32Array(n), best = -1;
    for (var k = 0; k < n; k++) { order[k] = k; }
    order.sort(function (a, b) { var i = ids[a], j = ids[b]; return mx[i] - mx[j] || my[i] - my[j]; });
    for (k = 0; k < n; k++) {
      var i = ids[order[k]], v = -1;
      if (best < 0 || my[i] < my[best]) { best = i; } else if (!(my[i] === my[best] && mx[i] === mx[best])) { v = best; }
      out[order[k]] = v;
    }
    return out;
  }

  // Staircase answers orthant queries against the strict frontier rows f:
  // sorted by x (min-oriented), y then decreases.
  function Staircase(mx, my, f) {
    this.mx = mx; this.my = my;
    this.f = Int32Array.from(f).sort(function (a, b) { return mx[a] - mx[b] || my[a] - my[b]; });
  }
  // last returns the position of the last frontier row with x <= cx (x <
  // cx when strict), -1 when none.
  Staircase.prototype.last = function (cx, strict) {
    var lo = 0, hi = this.f.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1, v = this.mx[this.f[mid]];
      if (strict ? v < cx : v <= cx) { lo = mid + 1; } else { hi = mid; }
    }
    return lo - 1;
  };
  // find returns a frontier row in the orthant {x <= lex, y < lty} ∪ {x <
  // ltx, y <= ley}, or -1.
  Staircase.prototype.find = function (lex, ley, ltx, lty) {
    var j = this.last(lex, false);
    if (j >= 0 && this.my[this.f[j]] < lty) { return this.f[j]; }
    j = this.last(ltx, true);
    if (j >= 0 && this.my[this.f[j]] <= ley) { return this.f[j]; }
    return -1;
  };

  // corners computes the orthant corners of a row in min-oriented space
  // into q: le is the edge of the noise band, lt the edge of a meaningful
  // win; bands apply to the original values, negated afterwards.
  var q = { lex: 0, ley: 0, ltx: 0, lty: 0 };
  function corners(x, y, objs) {
    var ox = objs[0], oy = objs[1];
    if (ox.dir === 'maximize') { q.lex = -(x * (1 - ox.noise)); q.ltx = -(x * (1 + ox.improve)); } else { q.lex = x * (1 + ox.noise); q.ltx = x * (1 - ox.improve); }
    if (oy.dir === 'maximize') { q.ley = -(y * (1 - oy.noise)); q.lty = -(y * (1 + oy.improve)); } else { q.ley = y * (1 + oy.noise); q.lty = y * (1 - oy.improve); }
    return q;
  }

  function frontOf(mx, my, rows) {
    var by = strictFront(mx, my, rows), out = [];
    for (var k = 0; k < rows.length; k++) { if (by[k] < 0) { out.push(rows[k]); } }
    return out;
  }

  function query(st, x, y, i, objs) {
    var c = corners(x[i], y[i], objs);
    return st.find(c.lex, c.ley, c.ltx, c.lty);
  }

  // noiseFront computes the noise-aware frontier of rows ids: by[i] is -1
  // on the frontier, a beater otherwise; tied are the top cycles.
  function noiseFront(x, y, mx, my, ids, objs, by) {
    var front = [];
    var sb = strictFront(mx, my, ids);
    for (var k = 0; k < ids.length; k++) { by[ids[k]] = sb[k]; if (sb[k] < 0) { front.push(ids[k]); } }
    var out = { tied: [], cyclic: cycleSum(objs) > 1 };
    path = 'strict';
    if (!objs.some(relative)) { return out; }
    path = 'noise';
    var st = new Staircase(mx, my, front);
    ids.forEach(function (i) { by[i] = query(st, x, y, i, objs); });
    if (out.cyclic) { out.tied = schwartz(x, y, mx, my, ids, objs, by); }
    preferFrontierBeaters(x, y, mx, my, ids, objs, by);
    return out;
  }

  function preferFrontierBeaters(x, y, mx, my, ids, objs, by) {
    var front = ids.filter(function (i) { return by[i] < 0; });
    var st = new Staircase(mx, my, frontOf(mx, my, front));
    ids.forEach(function (i) {
      if (by[i] >= 0 && by[by[i]] >= 0) {
        var f = query(st, x, y, i, objs);
        if (f >= 0) { by[i] = f; }
      }
    });
  }

  function schwartz(x, y, mx, my, ids, objs, by) {
    var reach = [], left = [];
    ids.forEach(function (i) { (by[i] < 0 ? reach : left).push(i); });
    var front = frontOf(mx, my, reach);
    while (left.length) {
      var st = new Staircase(mx, my, front), keep = [], added = [];
      for (var k = 0; k < left.length; k++) {
        check(left.length);
        var i = left[k], d = query(st, x, y, i, objs);
        if (d >= 0) { by[i] = d; added.push(i); } else { keep.push(i); }
      }
      left = keep;
      if (!added.length) { break; }
      // the strict frontier of a union is that of one's frontier and the other
      front = frontOf(mx, my, front.concat(added));
    }
    var rest = left;
    path = 'explicit ' + rest.length;
    if (rest.length > EXPLICIT_LIMIT) { path = 'rounds ' + rest.length; return byRounds(x, y, mx, my, objs, rest, by); }
    return sourceComponents(x, y, objs, rest, by);
  }

  // sourceComponents finds the strongly connected components of the beats
  // graph on rows (Tarjan, iterative, edges computed on the fly), marks
  // members of components no other row beats with by = -1 and returns the
  // non-trivial ones.
  function sourceComponents(x, y, objs, rows, by) {
    var n = rows.length;
    function edge(a, b) { check(n); return a !== b && beats(x[rows[a]], y[rows[a]], x[rows[b]], y[rows[b]], objs); }
    var index = new Int32Array(n).fill(-1), low = new Int32Array(n), comp = new Int32Array(n).fill(-1);
    var onStack = new Uint8Array(n), stack = [], next = 0, count = 0;
    for (var s = 0; s < n; s++) {
      if (index[s] >= 0) { continue; }
      var calls = [[s, 0]];
      index[s] = low[s] = next++;
      stack.push(s); onStack[s] = 1;
      while (calls.length) {
        var f = calls[calls.length - 1], v = f[0];
        if (f[1] < n) {
          var w = f[1]++;
          if (!edge(v, w)) { continue; }
          if (index[w] < 0) {
            index[w] = low[w] = next++;
            stack.push(w); onStack[w] = 1;
            calls.push([w, 0]);
          } else if (onStack[w]) { low[v] = Math.min(low[v], index[w]); }
          continue;
        }
        calls.pop();
        if (calls.length) { var u = calls[calls.length - 1][0]; low[u] = Math.min(low[u], low[v]); }
        if (low[v] === index[v]) {
          for (;;) { var t = stack.pop(); onStack[t] = 0; comp[t] = count; if (t === v) { break; } }
          count++;
        }
      }
    }
    var entered = new Uint8Array(count);
    for (var a = 0; a < n; a++) {
      for (var b = 0; b < n; b++) { if (comp[a] !== comp[b] && edge(a, b)) { entered[comp[b]] = 1; } }
    }
    var members = [];
    for (var c = 0; c < count; c++) { members.push([]); }
    for (var r = 0; r < n; r++) {
      if (!entered[comp[r]]) { by[rows[r]] = -1; members[comp[r]].push(rows[r]); }
    }
    return members.filter(function (g) { return g.length > 1; })
      .map(function (g) { return g.sort(function (p, q) { return p - q; }); })
      .sort(function (p, q) { return p[0] - q[0]; });
  }

  // byRounds finds the source components of a predecessor-closed set
  // without comparing every pair (frontier.sourceComponentsByRounds).
  function byRounds(x, y, mx, my, objs, rows, by) {
    var remaining = rows.slice(), tied = [];
    while (remaining.length) {
      var root = bestNormalised(mx, my, remaining);
      var a = ancestors(x, y, mx, my, objs, root, remaining);
      if (!a) { tied = tied.concat(sourceComponents(x, y, objs, remaining, by)); break; }
      tied = tied.concat(sourceComponents(x, y, objs, a.anc, by));
      remaining = dropReached(x, y, mx, my, objs, a.anc, a.rest);
    }
    return tied.sort(function (p, q) { return p[0] - q[0]; });
  }

  function ancestors(x, y, mx, my, objs, root, rows) {
    var anc = [root], worst = [root], rest = rows.filter(function (r) { return r !== root; });
    for (;;) {
      var keep = [], added = [];
      rest.forEach(function (c) {
        check(rows.length);
        var hit = worst.some(function (b) { return beats(x[c], y[c], x[b], y[b], objs); });
        (hit ? added : keep).push(c);
      });
      rest = keep;
      if (!added.length) { return { anc: anc, rest: rest }; }
      anc = anc.concat(added);
      worst = worstOf(mx, my, worst.concat(added));
      if (worst.length > MAX_WORST) { return null; }
    }
  }

  // worstOf returns the rows no other row is worse than on both objectives.
  function worstOf(mx, my, rows) {
    var nx = {}, ny = {};
    rows.forEach(function (r) { nx[r] = -mx[r]; ny[r] = -my[r]; });
    return frontOf(nx, ny, rows);
  }

  function dropReached(x, y, mx, my, objs, seed, candidates) {
    var front = frontOf(mx, my, seed), left = candidates;
    while (left.length) {
      var st = new Staircase(mx, my, front), keep = [], added = [];
      left.forEach(function (c) { (query(st, x, y, c, objs) >= 0 ? added : keep).push(c); });
      left = keep;
      if (!added.length) { break; }
      front = frontOf(mx, my, front.concat(added));
    }
    return left;
  }

  function bestNormalised(mx, my, rows) {
    var lo = [Infinity, Infinity], hi = [-Infinity, -Infinity];
    rows.forEach(function (r) {
      lo[0] = Math.min(lo[0], mx[r]); hi[0] = Math.max(hi[0], mx[r]);
      lo[1] = Math.min(lo[1], my[r]); hi[1] = Math.max(hi[1], my[r]);
    });
    var best = rows[0], score = Infinity;
    rows.forEach(function (r) {
      var s = 0, w0 = hi[0] - lo[0], w1 = hi[1] - lo[1];
      if (w0 > 0) { s += (mx[r] - lo[0]) / w0; }
      if (w1 > 0) { s += (my[r] - lo[1]) / w1; }
      if (s < score) { best = r; score = s; }
    });
    return best;
  }

  // analyze answers one frontier question over n rows: p = {x, y (arrays
  // of the two objectives' values), objs ([{dir, noise, improve}] for x and
  // y), slos ([{op, bound, values}])}. The result, per row: status (0
  // frontier, 1 dominated, 2 infeasible, 3 invalid), by (a beater of a
  // dominated row, else -1), tie (1: identical values to another frontier
  // row, 2: in a top cycle), reason (invalid rows) and violated (indexes of
  // the violated SLOs of infeasible rows); and tied (the top cycles),
  // line (frontier rows by x, then y), cyclic, cycleSum and, when cyclic,
  // acyclicDelta; path says how the frontier was found. With p.timeLimit
  // (ms), an analysis still searching cycles past it throws a BudgetError.
  function analyze(p) {
    deadline = p.timeLimit ? performance.now() + p.timeLimit : Infinity;
    var n = p.x.length, objs = p.objs, slos = p.slos || [];
    var res = { status: new Int8Array(n), by: new Int32Array(n).fill(-1), tie: new Int8Array(n), reason: {}, violated: {},
      tied: [], line: [], cyclic: false, cycleSum: cycleSum(objs) };
    var feasible = [];
    for (var i = 0; i < n; i++) {
      var why = '';
      for (var o = 0; o < 2 && !why; o++) {
        var w = badValue(o ? p.y[i] : p.x[i], relative(objs[o]));
        if (w) { why = (o ? 'y' : 'x') + ': ' + w; }
      }
      for (var s = 0; s < slos.length && !why; s++) {
        if (isNaN(slos[s].values[i])) { why = 'slo ' + (slos[s].label || s) + ': value is NaN'; }
      }
      if (why) { res.status[i] = 3; res.reason[i] = why; continue; }
      var bad = [];
      for (s = 0; s < slos.length; s++) { if (!holds(slos[s].op, slos[s].values[i], slos[s].bound)) { bad.push(s); } }
      if (bad.length) { res.status[i] = 2; res.violated[i] = bad; continue; }
      feasible.push(i);
    }
    var mx = new Float64Array(n), my = new Float64Array(n);
    for (i = 0; i < n; i++) {
      mx[i] = objs[0].dir === 'maximize' ? -p.x[i] : p.x[i];
      my[i] = objs[1].dir === 'maximize' ? -p.y[i] : p.y[i];
    }
    var by = new Int32Array(n).fill(-1);
    var nf = noiseFront(p.x, p.y, mx, my, feasible, objs, by);
    res.path = path;
    res.cyclic = nf.cyclic && objs.some(relative);
    if (res.cyclic) { res.acyclicDelta = acyclicMinImprove(objs); }
    res.tied = nf.tied;
    nf.tied.forEach(function (g) { g.forEach(function (r) { res.tie[r] |= 2; }); });
    feasible.forEach(function (r) {
      if (by[r] >= 0) { res.status[r] = 1; res.by[r] = by[r]; } else { res.line.push(r); }
    });
    res.line.sort(function (a, b) { return p.x[a] - p.x[b] || p.y[a] - p.y[b] || a - b; });
    var sorted = res.line.slice().sort(function (a, b) { return p.x[a] - p.x[b] || p.y[a] - p.y[b]; });
    for (var k = 1; k < sorted.length; k++) {
      var a = sorted[k - 1], b = sorted[k];
      if (p.x[a] === p.x[b] && p.y[a] === p.y[b]) { res.tie[a] |= 1; res.tie[b] |= 1; }
    }
    return res;
  }

  // covers checks a density layer against an analysis res of the points
  // p kept exactly: its binned points change no status when every cell's
  // best corner (ix[k], iy[k]: every binned point of the cell is no better
  // on either axis) is beaten by a feasible kept point, so that no binned
  // point is unbeaten, and no corner beats a frontier point, so that no
  // binned point joins a top cycle or beats a frontier point (the relation
  // is monotone: what a corner does not beat, no point of its cell beats).
  // It returns how many cells fail each: {unbeaten, beating}.
  function covers(p, res, ix, iy) {
    var objs = p.objs, n = p.x.length, mx = new Float64Array(n), my = new Float64Array(n), nx = new Float64Array(n), ny = new Float64Array(n);
    var feasible = [];
    for (var i = 0; i < n; i++) {
      mx[i] = objs[0].dir === 'maximize' ? -p.x[i] : p.x[i];
      my[i] = objs[1].dir === 'maximize' ? -p.y[i] : p.y[i];
      nx[i] = -mx[i]; ny[i] = -my[i];
      if (res.status[i] <= 1) { feasible.push(i); }
    }
    var st = new Staircase(mx, my, frontOf(mx, my, feasible));
    var worst = new Staircase(nx, ny, frontOf(nx, ny, res.line));
    // lo and hi bound, in min-oriented space, the points s a value v beats
    // on objective o: s >= lo on every axis and s > hi on one.
    function lo(v, o) { if (o.dir === 'maximize') { return o.noise >= 1 ? -Infinity : -v / (1 - o.noise); } return v / (1 + o.noise); }
    function hi(v, o) { return o.dir === 'maximize' ? -v / (1 + o.improve) : v / (1 - o.improve); }
    var out = { unbeaten: 0, beating: 0 };
    for (var k = 0; k < ix.length; k++) {
      var c = corners(ix[k], iy[k], objs);
      if (st.find(c.lex, c.ley, c.ltx, c.lty) < 0) { out.unbeaten++; }
      if (res.line.length && worst.find(-lo(ix[k], objs[0]), -lo(iy[k], objs[1]), -hi(ix[k], objs[0]), -hi(iy[k], objs[1])) >= 0) { out.beating++; }
    }
    return out;
  }

  return { analyze: analyze, covers: covers, BudgetError: BudgetError, beats: beats, cycleSum: cycleSum, acyclicMinImprove: acyclicMinImprove, holds: holds };
}());
