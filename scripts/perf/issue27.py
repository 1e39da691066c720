#!/usr/bin/env python3
"""Issue 27's acceptance ratios, measured in one run (docs/PERFORMANCE.md).

Each round runs every job once, the anchor first, then pareto; a job's
figures are the medians over the rounds of wall time, CPU time (user +
sys) and peak RSS (os.wait4), and its ratios the medians of the per-round
ratios [ranges]. The outputs of the last round are checked against the
anchors' (frontier sets to 15 digits, ranks row by row, volumes to 1e-13
relative). The readers and `report` against Python follow, through
ingest/testdata/perf/measure.sh, and `ingest` of the 10^6-row table
against `sqlite3 .import`.

  # moocore (github.com/multi-objective/moocore), built outside this tree:
  #   cd moocore/c && make hv ndsort nondominated DEBUG=0 march=native
  python3 scripts/perf/issue27.py --moocore ~/moocore/bin [--rounds 7] [--work /tmp/pareto-issue27]

Needs go, gcc, python3 and sqlite3; pareto is built from this tree
(CGO_ENABLED=0, with cmd/pareto/default.pgo) unless --pareto names a binary.
"""
import argparse, csv, json, math, os, random, shutil, statistics as st, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))


def run(cmd, out, stdin=None):
    """Runs cmd under /usr/bin/time (whose own small process, not this
    one, is what the child's peak RSS starts from), its stdout to out;
    returns wall s, CPU s (user + sys), peak RSS MiB."""
    tv = out + ".time"
    with open(out, "wb") as o, open(stdin or os.devnull, "rb") as i:
        p = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", tv, *cmd], stdin=i, stdout=o, stderr=subprocess.DEVNULL)
    if p.returncode != 0:
        sys.exit(f"issue27: {' '.join(cmd)} exited {p.returncode}")
    e, u, s, m = open(tv).read().split()[-4:]
    return float(e), float(u) + float(s), int(m) / 1024


def generate(w):
    """Writes the inputs into w, once."""
    if os.path.exists(os.path.join(w, "done")):
        return
    print("issue27: generating inputs in", w, file=sys.stderr)
    rng = random.Random(27)
    for name, k in (("u3", 3), ("u2", 2)):  # 10^6 uniform rows in shortest form
        with open(f"{w}/{name}.csv", "w") as c, open(f"{w}/{name}.dat", "w") as d:
            c.write("id," + ",".join("abc"[:k]) + "\n")
            for i in range(1_000_000):
                v = [repr(rng.random()) for _ in range(k)]
                c.write(f"{i}," + ",".join(v) + "\n")
                d.write(" ".join(v) + "\n")

    def sphere():  # |N(0,1)| vectors on the unit sphere: mutually non-dominated
        g = [abs(rng.gauss(0, 1)) + 1e-12 for _ in range(5)]
        r = math.sqrt(sum(x * x for x in g))
        return [x / r for x in g]

    def simplex():  # Exp(1) vectors over their sum
        g = [rng.expovariate(1) + 1e-12 for _ in range(5)]
        s = sum(g)
        return [x / s for x in g]

    for name, f in (("sphere", sphere), ("simplex", simplex)):
        for sets, n, tag in ((50, 1000, "1k"), (1, 10000, "10k")):
            with open(f"{w}/{name}{tag}.csv", "w") as c, open(f"{w}/{name}{tag}.dat", "w") as d:
                c.write("id,set,a,b,c,d,e\n")
                for s in range(sets):
                    if s:
                        d.write("\n")
                    for i in range(n):
                        v = [repr(x) for x in f()]
                        c.write(f"p{s}_{i},s{s}," + ",".join(v) + "\n")
                        d.write(" ".join(v) + "\n")
    with open(f"{w}/r1e5.csv", "w") as c:  # report's 10^5 points: TTFT against throughput
        c.write("id,case,ttft_p99_ms,output_tps\n")
        for i in range(100_000):
            conc = rng.choice([1, 2, 4, 8, 16, 32, 64, 128])
            tps = conc * rng.uniform(40, 90) * (1 - conc / 400)
            c.write(f"r{i},c{i % 64},{rng.uniform(20, 60) * (1 + conc / 16)!r},{tps!r}\n")
    open(os.path.join(w, "done"), "w").close()


def frontier_jobs(w, pareto, moo, strtod):
    hv, ref = [f"{moo}/hv", "-r", " ".join(["1.1"] * 5)], ",".join(["1.1"] * 5)
    five = [a for c in "abcde" for a in ("-o", c + ":min")]
    jobs = [
        ("front --frontier-only 10^6x3 / C strtod parse", [strtod, "u3.csv", "3"], None,
         [pareto, "front", "u3.csv", "-o", "a:min", "-o", "b:min", "-o", "c:min", "--frontier-only", "--format", "csv"], "u3"),
        ("front --frontier-only 10^6x3 / moocore nondominated", [f"{moo}/nondominated", "--filter"], "u3.dat", None, "u3"),
        ("ranks 2D 10^6 / ndsort -r", [f"{moo}/ndsort", "-r"], "u2.dat",
         [pareto, "front", "u2.csv", "-o", "a:min", "-o", "b:min", "--ranks", "--format", "csv"], "u2"),
    ]
    for name in ("sphere", "simplex"):
        jobs.append((f"HV 5D 50x10^3 {name} / moocore hv", hv + [f"{name}1k.dat"], None,
                     [pareto, "front", f"{name}1k.csv", *five, "--ref", ref, "--group-by", "set", "--frontier-only", "--format", "json"], f"{name}1k"))
        jobs.append((f"HV 5D 10^4 {name} / moocore hv", hv + [f"{name}10k.dat"], None,
                     [pareto, "front", f"{name}10k.csv", *five, "--ref", ref, "--frontier-only", "--format", "json"], f"{name}10k"))
    jobs.append(("report 10^5 / Python writer", ["/usr/bin/python3", f"{here}/pywriter.py", "r1e5.csv", "ttft_p99_ms", "output_tps", "py.html"], None,
                 [pareto, "report", "r1e5.csv", "-x", "ttft_p99_ms:min", "-y", "output_tps:max", "--out", "p.html"], "r1e5"))
    return jobs


def fmt(xs):
    return f"{st.median(xs):.2f} [{min(xs):.2f}–{max(xs):.2f}]"


def measure_frontier(w, pareto, moo, strtod, rounds):
    jobs = frontier_jobs(w, pareto, moo, strtod)
    res = {j[0]: ([], []) for j in jobs}
    ran = {}  # pareto command -> its figures this round, shared by the two u3 jobs
    print(f"issue27: frontier jobs, {rounds} rounds, start {time.strftime('%H:%M:%S')} load {os.getloadavg()[0]:.2f}", file=sys.stderr)
    for _ in range(rounds):
        ran.clear()
        for name, anchor, stdin, pcmd, key in jobs:
            a = run(anchor, f"{w}/out-strtod.txt" if anchor[0] == strtod else f"{w}/out-anchor-{key}.txt", stdin)
            pcmd = pcmd or next(j[3] for j in jobs if j[4] == key and j[3])
            k = tuple(pcmd)
            if k not in ran:
                ran[k] = run(pcmd, f"{w}/out-pareto-{key}.txt")
            res[name][0].append(a)
            res[name][1].append(ran[k])
    print(f"issue27: end {time.strftime('%H:%M:%S')} load {os.getloadavg()[0]:.2f}", file=sys.stderr)
    print("| job | anchor wall / CPU | pareto wall / CPU | wall ratio | CPU ratio | peak RSS pareto / anchor (MiB) |")
    print("|---|---|---|---|---|---|")
    for name, _, _, _, _ in jobs:
        a, p = res[name]
        wr = [y[0] / x[0] for x, y in zip(a, p)]
        cr = [y[1] / x[1] for x, y in zip(a, p)]
        print(f"| {name} | {st.median(x[0] for x in a):.2f} / {st.median(x[1] for x in a):.2f} s | "
              f"{st.median(x[0] for x in p):.2f} / {st.median(x[1] for x in p):.2f} s | {fmt(wr)} | {fmt(cr)} | "
              f"{st.median(x[2] for x in p):.1f} / {st.median(x[2] for x in a):.1f} = {st.median(x[2] for x in p) / st.median(x[2] for x in a):.2f} |")


def close(a, b, rel):
    return abs(a - b) <= rel * max(abs(a), abs(b))


def check_exact(w):
    """The last round's outputs against the anchors'."""
    bad = []
    moo = {tuple(float(x) for x in l.split()) for l in open(f"{w}/out-anchor-u3.txt") if l.strip()}
    rows = list(csv.DictReader(open(f"{w}/out-pareto-u3.txt")))
    par = {(float(r["a"]), float(r["b"]), float(r["c"])) for r in rows if r["status"] == "frontier"}
    rnd = lambda s: {tuple(float(f"{x:.15g}") for x in t) for t in s}
    if rnd(moo) != rnd(par):
        bad.append(f"u3 frontier: moocore {len(moo)} points, pareto {len(par)}")
    print(f"exactness: u3 frontier {len(par)} points, moocore {len(moo)}: {'equal to 15 digits' if rnd(moo) == rnd(par) else 'DIFFERENT'}")
    ranks = [int(l) for l in open(f"{w}/out-anchor-u2.txt") if l.strip()]
    prow = list(csv.DictReader(open(f"{w}/out-pareto-u2.txt")))
    got = {int(r["id"]): int(r["rank"]) for r in prow}
    same = len(got) == len(ranks) and all(got[i] == ranks[i] for i in range(len(ranks)))
    if not same:
        bad.append("u2 ranks differ")
    print(f"exactness: {len(ranks)} ranks ({max(ranks) + 1} fronts): {'equal row by row' if same else 'DIFFERENT'}")
    worst = 0.0
    n = 0
    for key in ("sphere1k", "simplex1k", "sphere10k", "simplex10k"):
        hv = [float(l) for l in open(f"{w}/out-anchor-{key}.txt") if l.strip()]
        doc = json.load(open(f"{w}/out-pareto-{key}.txt"))
        groups = {g["name"]: g["hypervolume"] for g in doc["groups"]}
        vols = [groups[f"s{i}"] for i in range(len(hv))] if len(hv) > 1 else [doc["groups"][0]["hypervolume"]]
        for a, b in zip(hv, vols):
            n += 1
            worst = max(worst, abs(a - b) / max(abs(a), abs(b)))
            if not close(a, b, 1e-13):
                bad.append(f"{key}: volume {b!r} against hv's {a!r}")
    print(f"exactness: {n} volumes, largest relative difference from hv's {worst:.1e}")
    return bad


def copy_script(store, out):
    """Writes the SQL that builds, from store (ATTACHed), a copy of it: its
    pragmas, then in one transaction each table created and filled by one
    INSERT … SELECT, the indexes after the rows."""
    import sqlite3
    c = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    objs = c.execute("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'").fetchall()
    c.close()
    lines = ["PRAGMA journal_mode=WAL;", "PRAGMA synchronous=NORMAL;", "PRAGMA cache_size=-65536;",
             f"ATTACH '{store}' AS src;", "BEGIN;"]
    lines += [sql + ";" for t, _, sql in objs if t == "table"]
    lines += [f'INSERT INTO main."{n}" SELECT * FROM src."{n}";' for t, n, _ in objs if t == "table"]
    lines += [sql + ";" for t, _, sql in objs if t not in ("table",)]
    lines += ["COMMIT;"]
    open(out, "w").write("\n".join(lines) + "\n")


def measure_ingest(w, pareto, wasmsql, rounds):
    """ingest of the 10^6-row table against sqlite3 .import, and the store's
    own rows written by native SQLite and by the store's (WebAssembly)
    SQLite from a finished store: what SQLite alone costs."""
    runs = {"sqlite3 .import + index": [], "pareto ingest": [], "native sqlite3 writing the store's rows": [],
            "the same SQL through the store's SQLite (WebAssembly)": []}
    dbs = dict(zip(runs, ("ing-import.db", "ing-pareto.db", "ing-native.db", "ing-wasm.db")))
    for _ in range(rounds):
        for name in runs:
            db = f"{w}/{dbs[name]}"
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(db + suffix):
                    os.remove(db + suffix)
            if name.startswith("native"):
                copy_script(f"{w}/ing-pareto.db", f"{w}/copy.sql")
                cmd, stdin = ["sqlite3", db], f"{w}/copy.sql"
            elif name.startswith("the same"):
                cmd, stdin = [wasmsql, db, f"{w}/copy.sql"], None
            elif name.startswith("sqlite3"):
                cmd, stdin = ["sqlite3", db, ".import --csv u3.csv t", "CREATE INDEX t_id ON t(id)"], None
            else:
                cmd, stdin = [pareto, "ingest", "u3.csv", "--store", db, "--study", "s"], None
            wall, cpu, rss = run(cmd, f"{w}/out-ingest.txt", stdin)
            size = sum(os.path.getsize(db + x) for x in ("", "-wal") if os.path.exists(db + x))
            runs[name].append((wall, cpu, rss, size))
    print("| run | wall [rounds] | CPU | peak RSS | file | wall / import |\n|---|---|---|---|---|---|")
    base = runs["sqlite3 .import + index"]
    for name, f in runs.items():
        ratio = "" if f is base else fmt([y[0] / x[0] for x, y in zip(base, f)])
        print(f"| {name} | {fmt([x[0] for x in f])} s | {st.median(x[1] for x in f):.2f} s | {st.median(x[2] for x in f):.0f} MiB | "
              f"{st.median(x[3] for x in f) / 1e6:.1f} MB ({st.median(y[3] / x[3] for x, y in zip(base, f)):.2f}×) | {ratio} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--moocore", required=True, help="directory of moocore's hv, ndsort and nondominated")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--work", default="/tmp/pareto-issue27")
    ap.add_argument("--pareto", help="a pareto binary (default: built from this tree)")
    ap.add_argument("--only", default="frontier,readers,ingest", help="comma-separated parts: frontier, readers, ingest")
    a = ap.parse_args()
    w = os.path.abspath(a.work)
    os.makedirs(w, exist_ok=True)
    for tool in ("hv", "ndsort", "nondominated"):
        if not os.access(os.path.join(a.moocore, tool), os.X_OK):
            sys.exit(f"issue27: no {tool} in {a.moocore}")
    pareto = a.pareto and os.path.abspath(a.pareto)
    if not pareto:
        pareto = f"{w}/pareto"
        subprocess.run(["go", "build", "-o", pareto, "./cmd/pareto"], cwd=root, check=True, env={**os.environ, "CGO_ENABLED": "0"})
    strtod = f"{w}/strtod"
    subprocess.run(["gcc", "-O2", "-o", strtod, f"{here}/strtod.c"], check=True)
    moo = os.path.abspath(a.moocore)
    generate(w)
    os.chdir(w)
    parts = a.only.split(",")
    bad = []
    if "frontier" in parts:
        measure_frontier(w, pareto, moo, strtod, a.rounds)
        bad = check_exact(w)
    if "readers" in parts:
        print(f"issue27: readers, start {time.strftime('%H:%M:%S')}", file=sys.stderr)
        subprocess.run(["bash", f"{root}/ingest/testdata/perf/measure.sh", pareto, pareto, str(a.rounds), f"{w}/readers"], check=True)
    if "ingest" in parts:
        print(f"issue27: ingest, start {time.strftime('%H:%M:%S')}", file=sys.stderr)
        wasmsql = f"{w}/wasmsql"
        subprocess.run(["go", "build", "-o", wasmsql, "./scripts/perf/wasmsql"], cwd=root, check=True)
        measure_ingest(w, pareto, wasmsql, min(a.rounds, 3))
    if bad:
        sys.exit("issue27: outputs differ from the anchors': " + "; ".join(bad))


if __name__ == "__main__":
    main()
