# Drives Optuna's NSGAIISampler through its ask-and-tell interface for
# the comparison tests of search and tune (optunadriver.Run runs it, from
# optunadriver.go). The first line of stdin is a
# JSON spec: {"seed": N, "budget": N, "population": N, "directions":
# ["maximize", ...], "params": [{"name", "kind", "values" | "low", "high",
# "step", "log", "when": [[name, [values]], ...]}, ...]}. For each trial it
# prints {"params": {...}} on a line and reads {"values": [...]} or
# {"failed": true} back. Parameters are suggested in the space's order; a
# parameter whose conditions fail is not suggested (define-by-run).
import json
import sys

import optuna

optuna.logging.set_verbosity(optuna.logging.WARNING)


def active(param, params):
    for name, values in param.get("when", []):
        if name not in params or params[name] not in values:
            return False
    return True


def suggest(trial, p):
    kind = p["kind"]
    if kind == "categorical":
        return trial.suggest_categorical(p["name"], p["values"])
    step = p.get("step") or None
    if kind == "int":
        return trial.suggest_int(p["name"], int(p["low"]), int(p["high"]), step=int(step or 1), log=p.get("log", False))
    return trial.suggest_float(p["name"], p["low"], p["high"], step=step, log=p.get("log", False))


def main():
    spec = json.loads(sys.stdin.readline())
    sampler = optuna.samplers.NSGAIISampler(population_size=spec["population"], seed=spec["seed"])
    study = optuna.create_study(directions=spec["directions"], sampler=sampler)
    for _ in range(spec["budget"]):
        trial = study.ask()
        params = {}
        for p in spec["params"]:
            if active(p, params):
                params[p["name"]] = suggest(trial, p)
        print(json.dumps({"params": params}), flush=True)
        answer = json.loads(sys.stdin.readline())
        if answer.get("failed"):
            study.tell(trial, state=optuna.trial.TrialState.FAIL)
        else:
            study.tell(trial, answer["values"])


main()
