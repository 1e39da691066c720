# The Python anchor of issue 27 (docs/PERFORMANCE.md "Readers"): a
# json.loads loop per line (json.load per file for AIPerf) extracting the
# fields pareto's readers map (docs/METRICS.md: scalars, <stat>_<metric>_ms
# statistics, setup parameters; AIPerf's metric blocks, warmup, GPU
# telemetry and input_config), keeping only two objective columns.
#
#   python3 anchor.py jsonl FILE    # SGLang JSONL, vLLM --append-result
#   python3 anchor.py aiperf DIR    # every file of DIR, AIPerf JSON
import json, os, re, sys
SCALARS = {"duration","completed","failed","total_input_tokens","total_output_tokens",
 "total_output_tokens_retokenized","total_input_text_tokens","total_input_vision_tokens",
 "request_throughput","request_goodput","request_goodput:","output_throughput","input_throughput",
 "total_token_throughput","total_throughput","output_throughput_retokenized",
 "total_throughput_retokenized","max_output_tokens_per_s","max_concurrent_requests","concurrency",
 "accept_length","rtfx"}
SETUP = {"backend","dataset_name","tag","random_input_len","random_output_len","request_rate",
 "max_concurrency","num_prompts","model_id","endpoint_type","date","label","version"}
STAT = re.compile(r'^(mean|median|std|p[0-9.]+)_([a-z0-9_]+)_(ms|s)$')
ARRAYS = {"input_lens","output_lens","ttfts","itls","generated_texts","errors","start_times","rps_change_events"}
def serving(d):
    ms, params = {}, {}
    for k, v in d.items():
        if k in SCALARS or STAT.match(k):
            if v is not None: ms[k] = float(v)
        elif k in ARRAYS:
            pass
        elif k in SETUP or k == "server_info":
            params[k] = v
        else:
            params[k] = v
    return ms, params
STATS = ("avg","p1","p5","p10","p25","p50","p75","p90","p95","p99","min","max","std")
def aiperf(d):
    ms, params = {}, {}
    def block(prefix, b):
        for tag, v in b.items():
            if isinstance(v, dict) and "unit" in v:
                for s in STATS:
                    if s in v and v[s] is not None: ms[(prefix, tag, s)] = float(v[s])
    block("", d)
    block("warmup", d.get("warmup_metrics") or {})
    for ep in ((d.get("telemetry_data") or {}).get("endpoints") or {}).values():
        for g, gv in (ep.get("gpus") or {}).items():
            block(g, gv.get("metrics") or {})
    def flat(p, v):
        if isinstance(v, dict):
            for k, x in v.items(): flat(p + "." + k if p else k, x)
        elif v is not None: params[p] = v
    flat("", d.get("input_config") or {})
    return ms, params
mode, path = sys.argv[1], sys.argv[2]
objs = []
n = 0
if mode == "aiperf":
    for f in sorted(os.listdir(path)):
        with open(os.path.join(path, f)) as h:
            ms, _ = aiperf(json.load(h))
        objs.append((ms.get(("", "time_to_first_token", "p99")), ms.get(("", "output_token_throughput", "avg"))))
        n += 1
else:
    with open(path, "rb") as h:
        for line in h:
            if not line.strip(): continue
            ms, _ = serving(json.loads(line))
            objs.append((ms.get("median_ttft_ms"), ms.get("output_throughput")))
            n += 1
print(n, len(objs), file=sys.stderr)
