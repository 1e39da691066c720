#!/bin/bash
# Rebuilds cmd/pareto/default.pgo, the CPU profile that `go build` and
# `go run` of ./cmd/pareto use for profile-guided optimization
# (GO-STYLE.md §7; docs/PERFORMANCE.md "Profile-guided optimization"):
# the merged profiles (--cpuprofile) of the hot paths that
# docs/PERFORMANCE.md measures, each run by a binary built without a
# profile, on inputs generated here in a temporary directory:
#
#   front and ingest on 2,000 AIPerf JSON files, 10^5 SGLang JSONL lines,
#   10^5 vLLM --append-result records; front --frontier-only on 10^6 rows
#   of three objectives; --ranks on 10^6 rows of two; the 5D hypervolume
#   of 50 sets of 10^3 points; report on 10^5 rows; ingest of 10^5 rows
#   into a SQLite store and front and report on that study.
#
#   scripts/pgo.sh                         # writes cmd/pareto/default.pgo
#   PARETO_PGO_KEEP=/tmp/pgo scripts/pgo.sh  # and keeps the inputs there
#
# Run it again after a change that moves where the time goes; commit the
# profile with the figures before and after. Needs go and python3.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${PARETO_PGO_KEEP:-}" ]; then # keep the inputs and profiles there, to measure with
  work=$(mkdir -p "$PARETO_PGO_KEEP" && cd "$PARETO_PGO_KEEP" && pwd)
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/pareto-pgo.XXXXXX")
  trap 'rm -rf "$work"' EXIT
fi
cd "$root"
CGO_ENABLED=0 go build -pgo=off -o "$work/pareto" ./cmd/pareto
bin=$work/pareto
echo "pgo: generating inputs in $work" >&2
rm -rf "$work/aiperf10k" "$work/aiperf" "$work"/p*.pprof
mkdir -p "$work/aiperf10k" "$work/aiperf"
(cd ingest && PARETO_BENCH_AIPERF_DIR="$work/aiperf10k" go test -run '^$' -bench 'BenchmarkReadDir/none' -benchtime 1x . >/dev/null)
mapfile -t files < <(cd "$work/aiperf10k" && printf '%s\n' run_*.json | sort)
for f in "${files[@]:0:2000}"; do mv "$work/aiperf10k/$f" "$work/aiperf/"; done
rm -rf "$work/aiperf10k"
python3 - "$root/ingest/testdata" "$work" <<'PY'
import math, random, sys
src, out = sys.argv[1] + "/", sys.argv[2] + "/"
def rep(name, dst, n):
    lines = [l.strip() for l in open(src + name, "rb").read().strip().split(b"\n")]
    with open(out + dst, "wb") as f:
        for i in range(n):
            f.write(lines[i % len(lines)] + b"\n")
rep("sglang/datacrunch_2024-12_llama_3_3_70b_online_output.jsonl", "sglang.jsonl", 100000)
rep("synthetic/synthetic_vllm_bench_serve_append.json", "vllm.json", 100000)
rng = random.Random(1)
def table(dst, n, k):
    with open(out + dst, "w") as f:
        f.write("id," + ",".join("abcdefgh"[:k]) + "\n")
        for i in range(n):
            f.write(str(i) + "," + ",".join(repr(rng.random()) for _ in range(k)) + "\n")
table("u3.csv", 1000000, 3)
table("u2.csv", 1000000, 2)
with open(out + "hv5.csv", "w") as f: # 50 sets of 10^3 mutually non-dominated points on a sphere
    f.write("id,set,a,b,c,d,e\n")
    for s in range(50):
        for i in range(1000):
            g = [abs(rng.gauss(0, 1)) + 1e-9 for _ in range(5)]
            r = math.sqrt(sum(x * x for x in g))
            f.write(f"p{s}_{i},s{s}," + ",".join(repr(x / r) for x in g) + "\n")
with open(out + "r1e5.csv", "w") as f:
    f.write("id,case,ttft_p99_ms,output_tps\n")
    for i in range(100000):
        f.write(f"r{i},c{i % 40},{rng.uniform(20, 900)!r},{rng.uniform(100, 9000)!r}\n")
PY
n=0
prof() { # prof REPEATS ARGS...: profile ARGS, REPEATS times
  local k=$1
  shift
  for _ in $(seq "$k"); do
    n=$((n + 1))
    "$bin" "$@" --cpuprofile "$work/p$n.pprof" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
  done
}
echo "pgo: profiling" >&2
cd "$work"
prof 10 front aiperf -o ttft.p50 -o output_token_throughput --frontier-only
prof 5 ingest aiperf
prof 3 front sglang.jsonl -o ttft.p50 -o output_token_throughput --frontier-only
prof 2 ingest sglang.jsonl
prof 2 ingest vllm.json
prof 2 front u3.csv -o a:min -o b:min -o c:min --frontier-only --format csv
prof 1 front u2.csv -o a:min -o b:min --ranks --format csv
prof 2 front hv5.csv -o a:min -o b:min -o c:min -o d:min -o e:min --ref 1.1,1.1,1.1,1.1,1.1 --group-by set --frontier-only --format json
prof 2 report r1e5.csv -x ttft_p99_ms:min -y output_tps:max --out r.html
prof 1 ingest r1e5.csv --store s.db --study s
prof 2 front --study s --store s.db -o ttft_p99_ms:min -o output_tps:max --frontier-only
prof 1 report --study s --store s.db -x ttft_p99_ms:min -y output_tps:max --out s.html
cd "$root"
go tool pprof -proto "$work"/p*.pprof >"$work/default.pgo" 2>/dev/null
mv "$work/default.pgo" cmd/pareto/default.pgo
echo "pgo: wrote cmd/pareto/default.pgo ($(wc -c <cmd/pareto/default.pgo) bytes, $n profiles)" >&2
