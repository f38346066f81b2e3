"""Design experiment: could cross-validation choose between removing the suspects and not?

For every task of ``bench_noisy_default.py`` (11 binary sets × 2 splits × symmetric and
class-conditional flips at 0-40 %), fits ``SPLBoostClassifierCV()`` and, on the same
data, the alternative final model that keeps every sample (plain LogitBoost of the
chosen depth, all rounds, no reweighting). For both, each of the estimator's own
folds is refitted with that final fit's weights, and the held-out predictions on the
*noisy* labels are recorded, so that selection rules can be compared offline.
Writes one JSON line per task (``run``), or prints the mean rank of each rule against
the other peers of ``docs/results/noisy-default/rows.csv`` (``rules``)::

    PYTHONPATH=src python benchmarks/design/removal_choice.py run bupa,german,... out_A.jsonl
    PYTHONPATH=src python benchmarks/design/removal_choice.py rules out_A.jsonl out_B.jsonl

Results: ``docs/noisy-default-design.md``, evidence item 10.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _noisy_tasks import bundled_tasks  # noqa: E402
from bench_noisy_default import TASK  # noqa: E402

ROWS = Path(__file__).resolve().parents[2] / "docs/results/noisy-default/rows.csv"


def run(datasets, path, seed=0):
    from sklearn.utils import check_random_state
    from threadpoolctl import threadpool_limits

    from robust_boosting import SPLBoostClassifierCV
    from robust_boosting.splboost_cv import _make_booster, _staged_proba
    from robust_boosting.trees.binning import _kernel_threads

    _kernel_threads(1).__enter__()
    warnings.simplefilter("ignore")
    with open(path, "w") as out, threadpool_limits(1):
        for ds, split, kind, rate, Xtr, yn, Xte, yte, _ in bundled_tasks(datasets, seed,
                                                                         range(2)):
            m = SPLBoostClassifierCV(random_state=split).fit(Xtr, yn)
            # the estimator's own folds and seeds (as in its fit)
            rng = check_random_state(split)
            fold_seed = int(rng.randint(np.iinfo(np.int32).max))
            fit_seed = int(rng.randint(np.iinfo(np.int32).max))
            folds = m._folds(Xtr, yn, fold_seed)
            sw = np.ones(len(yn))
            weights = {"rm": m._final_weight(sw, m.oof_proba_, yn, m.label_issues_),
                       "keep": sw}
            p = m.best_params_

            def booster(p=p, fit_seed=fit_seed, rounds=m.best_estimator_.n_estimators):
                return _make_booster(p, p["learning_rate"], 0.0, rounds, fit_seed)

            keep = booster().fit(Xtr, yn)
            rec = {"dataset": ds, "split": split - seed, "kind": kind, "rate": rate,
                   "err_rm": float(np.mean(m.predict(Xte) != yte) * 100),
                   "err_keep": float(np.mean(keep.predict(Xte) != yte) * 100),
                   "labels": yn.tolist(), "issues": m.label_issues_.tolist(),
                   "cv": {}}
            for name, w in weights.items():
                rec["cv"][name] = []
                for tr, te in folds:
                    est = booster().fit(Xtr[tr], yn[tr], sample_weight=w[tr])
                    wrong = list(_staged_proba(est, Xtr[te]))[-1].argmax(axis=1) != yn[te]
                    rec["cv"][name].append({"te": te.tolist(), "wrong": wrong.tolist()})
            out.write(json.dumps(rec) + "\n")
            out.flush()
            print(ds, split, kind, rate, round(rec["err_rm"], 1),
                  round(rec["err_keep"], 1), flush=True)


def _cv_error(rec, name, mode):
    """Held-out error on the noisy labels: over all rows, over the rows that are not
    suspects ("trusted"), or the mean of the per-label error rates ("balanced")."""
    y = np.array(rec["labels"])
    suspect = np.zeros(len(y), bool)
    suspect[rec["issues"]] = True
    wrong_all, rows, per_label = 0.0, 0, []
    for fold in rec["cv"][name]:
        te, wrong = np.array(fold["te"]), np.array(fold["wrong"], float)
        use = ~suspect[te] if mode == "trusted" else np.ones(len(te), bool)
        wrong_all, rows = wrong_all + wrong[use].sum(), rows + use.sum()
        per_label += [wrong[y[te] == c].mean() for c in np.unique(y) if np.any(y[te] == c)]
    return float(np.mean(per_label)) if mode == "balanced" else wrong_all / max(rows, 1)


RULES = {
    "remove (the default)": lambda r: "rm",
    "keep every sample": lambda r: "keep",
    "CV: all held-out rows": lambda r: min(("rm", "keep"), key=lambda n: _cv_error(r, n, "all")),
    "CV: held-out non-suspects": lambda r: min(("rm", "keep"),
                                               key=lambda n: _cv_error(r, n, "trusted")),
    "CV: per-label mean": lambda r: min(("rm", "keep"), key=lambda n: _cv_error(r, n, "balanced")),
    "oracle (clean test error)": lambda r: min(("rm", "keep"), key=lambda n: r["err_" + n]),
}


def rules(paths):
    import pandas as pd

    recs = [json.loads(line) for p in paths for line in open(p)]
    base = pd.read_csv(ROWS).drop_duplicates(subset=TASK + ["model"])
    peers = base[~base.model.str.startswith("splcv")]
    print("| rule | keep chosen at 0/10/20/30/35/40 % | error % | rank (best other) |")
    print("|---|---|---|---|")
    for name, rule in RULES.items():
        rows = []
        for r in recs:
            choice = rule(r)
            rows.append({**{k: r[k] for k in TASK}, "model": "x", "error": r["err_" + choice],
                         "keep": choice == "keep"})
        v = pd.DataFrame(rows)
        d = pd.concat([peers, v])
        d["rank"] = d.groupby(TASK).error.rank(method="average")
        rank = d.groupby(["model", "rate"])["rank"].mean().unstack()
        other, ours = rank.drop(index="x").min(), rank.loc["x"]
        print(f"| {name} | {' / '.join(f'{x:.2f}' for x in v.groupby('rate').keep.mean())} | "
              f"{' / '.join(f'{x:.1f}' for x in v.groupby('rate').error.mean())} | "
              f"{' / '.join(f'{ours[c]:.2f} ({other[c]:.2f})' for c in rank.columns)} |")


if __name__ == "__main__":
    if sys.argv[1] == "run":
        run(sys.argv[2].split(","), sys.argv[3])
    else:
        rules(sys.argv[2:])
