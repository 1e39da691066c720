"""Creates a multi-objective Optuna study with constraints, for the Go tests.

Usage: /usr/bin/python3 make_study.py STORAGE_URL STUDY_NAME

Deterministic: a seeded NSGA-II sampler. Objectives: p99 TTFT (minimise)
and output tokens/s (maximise) of a made-up serving model; one constraint
(error rate - 0.01 <= 0); a few failed and pruned trials that the reader
must skip.
"""
import sys

import optuna

storage, name = sys.argv[1], sys.argv[2]
optuna.logging.set_verbosity(optuna.logging.WARNING)


def constraints(trial):
    return trial.user_attrs.get("constraint", [1.0])


def objective(trial):
    tp = trial.suggest_categorical("tensor_parallel_size", [1, 2, 4, 8])
    conc = trial.suggest_int("concurrency", 1, 256, log=True)
    util = trial.suggest_float("gpu_memory_utilization", 0.5, 0.95)
    engine = trial.suggest_categorical("engine", ["vllm", "sglang"])
    if trial.number in (3, 11):
        raise RuntimeError("benchmark crashed")
    if trial.number == 7:
        raise optuna.TrialPruned()
    ttft = 20.0 + conc * 4.0 / tp + (1.0 - util) * 30.0 + (5.0 if engine == "sglang" else 0.0)
    tps = conc * 110.0 * (tp ** 0.8) * util / (1.0 + conc / 128.0)
    err = 0.002 * conc / 16.0
    trial.set_user_attr("engine_version", "0.8.5" if engine == "vllm" else "0.4.6")
    trial.set_user_attr("constraint", [err - 0.01])
    return ttft, tps


study = optuna.create_study(
    storage=storage,
    study_name=name,
    directions=["minimize", "maximize"],
    sampler=optuna.samplers.NSGAIISampler(seed=42, constraints_func=constraints, population_size=10),
    load_if_exists=False,
)
study.set_user_attr("metric_names", ["ttft_p99_ms", "output_tokens_per_s"])
study.optimize(objective, n_trials=40, catch=(RuntimeError,))
complete = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
print(len(complete), len(study.best_trials))

# The feasible strict Pareto front, by brute force, for the Go test.
def dominates(a, b):
    no_worse = a.values[0] <= b.values[0] and a.values[1] >= b.values[1]
    better = a.values[0] < b.values[0] or a.values[1] > b.values[1]
    return no_worse and better


feasible = [t for t in complete if all(c <= 0 for c in t.system_attrs["constraints"])]
front = sorted(t.number for t in feasible if not any(dominates(o, t) for o in feasible))
print(" ".join(str(n) for n in front))
