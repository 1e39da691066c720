#!/bin/bash
# Issue 27's reader ratios (docs/PERFORMANCE.md "Readers"): interleaved
# rounds of the Python anchor (anchor.py), a base pareto binary and a new
# one on 2,000 AIPerf files, 10⁵ SGLang lines, 10⁵ vLLM --append-result
# records, front --frontier-only on 3·10⁴ SGLang lines and on the 2,000
# AIPerf files (frontaip); /usr/bin/time -v,
# CPU user+sys and max RSS, medians and per-round ratios.
#
#   ingest/testdata/perf/measure.sh BASE_BINARY NEW_BINARY [ROUNDS] [WORKDIR]
#
# Build both with CGO_ENABLED=0, as the README does: a cgo-linked binary maps
# libc too (about 1.5 MB more RSS).
set -euo pipefail
base=$(realpath "$1"); new=$(realpath "$2"); rounds=${3:-5}; work=${4:-/tmp/pareto-perf27}
here=$(cd "$(dirname "$0")" && pwd); ingest=$(cd "$here/../.." && pwd)
mkdir -p "$work"; cd "$work"
if [ ! -d aiperf2k ]; then # the generated ~14 KB AIPerf files of BenchmarkReadDir
  mkdir -p aiperf10k aiperf2k
  (cd "$ingest" && PARETO_BENCH_AIPERF_DIR="$work/aiperf10k" go test -run '^$' -bench 'BenchmarkReadDir/none' -benchtime 1x . >/dev/null)
  mapfile -t files < <(cd aiperf10k && printf '%s\n' run_*.json | sort) # no pipe into head: pipefail
  for f in "${files[@]:0:2000}"; do cp "aiperf10k/$f" aiperf2k/; done
fi
/usr/bin/python3 - "$ingest/testdata" <<'PY'
import sys
d = sys.argv[1] + "/"
def rep(src, dst, n):
    lines = [l.strip() for l in open(d + src, "rb").read().strip().split(b"\n")]
    with open(dst, "wb") as f:
        for i in range(n):
            f.write(lines[i % len(lines)] + b"\n")
rep("sglang/datacrunch_2024-12_llama_3_3_70b_online_output.jsonl", "sglang100k.jsonl", 100000)
rep("sglang/datacrunch_2024-12_llama_3_3_70b_online_output.jsonl", "sglang30k.jsonl", 30000)
rep("synthetic/synthetic_vllm_bench_serve_append.json", "vllm100k.json", 100000)
PY
declare -A W=([aiperf]="ingest aiperf2k" [sglang]="ingest sglang100k.jsonl" [vllm]="ingest vllm100k.json"
  [front]="front sglang30k.jsonl -o ttft.p50 -o output_token_throughput --frontier-only"
  [frontaip]="front aiperf2k -o ttft.p50 -o output_token_throughput --frontier-only")
declare -A P=([aiperf]="aiperf aiperf2k" [sglang]="jsonl sglang100k.jsonl" [vllm]="jsonl vllm100k.json" [front]="jsonl sglang30k.jsonl" [frontaip]="aiperf aiperf2k")
: > measure.tsv
echo "start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
  for w in aiperf sglang vllm front frontaip; do
    for who in python base new; do
      case $who in
        python) cmd="/usr/bin/python3 $here/anchor.py ${P[$w]}" ;;
        base) cmd="$base ${W[$w]}" ;;
        new) cmd="$new ${W[$w]}" ;;
      esac
      /usr/bin/time -v $cmd >/dev/null 2>tv.txt
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$w" "$who" "$(awk '/User time/{print $NF}' tv.txt)" \
        "$(awk '/System time/{print $NF}' tv.txt)" "$(awk '/Maximum resident/{print $NF}' tv.txt)" >> measure.tsv
    done
  done
done
echo "end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/python3 - <<'PY'
import collections, statistics as st
d = collections.defaultdict(list)
for l in open("measure.tsv"):
    r, w, who, u, s, m = l.split("\t")
    d[(w, who)].append((float(u) + float(s), int(m) / 1024))
for w in ["aiperf", "sglang", "vllm", "front", "frontaip"]:
    py = d[(w, "python")]
    for who in ["python", "base", "new"]:
        c = [x[0] for x in d[(w, who)]]; m = [x[1] for x in d[(w, who)]]
        line = f"{w:8} {who:7} CPU {st.median(c):.2f} s [{min(c):.2f}–{max(c):.2f}]  RSS {st.median(m):.1f} MB [{min(m):.1f}–{max(m):.1f}]"
        if who != "python":
            rs = [a[0] / b[0] for a, b in zip(d[(w, who)], py)]
            line += f"  CPU/python {st.median(rs):.2f} [{min(rs):.2f}–{max(rs):.2f}]  RSS limit {st.median([x[1] for x in py]) + 16:.1f}"
        print(line)
PY
