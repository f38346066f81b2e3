"""SPLBoostRegressorCV on large tables: its folds, and its refit search
(docs/design/0026-regression-cost.md).

Each cell: Friedman #1, #2 or #3 with ``--n`` training rows (the generator's noise),
2,000 clean test rows, targets clean or 20 % corrupted (shift, replace, unit). It fits
``SPLBoostRegressorCV(cv=k)`` for each ``k`` of ``--folds`` (one thread) and LightGBM
(l2 and huber objectives) and prints one JSON line per cell: each model's clean-test
RMSE and fit time, its search's winner and final rounds, and the AUROC of the suspect
scores against the corrupted rows. Run on two commits, ``--folds 3`` compares their
default models on the same cells.

    python benchmarks/design/regression_cost.py --n 100000 --folds 2 3
    python benchmarks/design/regression_cost.py --n 20000 100000 --kinds shift replace unit --folds 3
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.metrics import roc_auc_score

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_regression import FRIEDMAN, make_data  # noqa: E402

from robust_boosting import SPLBoostRegressorCV  # noqa: E402
from robust_boosting.noise import corrupt_targets  # noqa: E402


def rmse(model, Xt, yt) -> float:
    return float(np.sqrt(np.mean((model.predict(Xt) - yt) ** 2)))


def cell(name, n, kind, folds, seed):
    from lightgbm import LGBMRegressor

    X, y, Xt, yt = make_data(name, n, seed)
    wrong = None
    if kind != "clean":
        y, wrong = corrupt_targets(y, 0.2, kind=kind, random_state=seed)
    out = dict(data=name, n=n, kind=kind, seed=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k in folds:
            t0 = time.perf_counter()
            model = SPLBoostRegressorCV(cv=k, random_state=seed, n_jobs=1).fit(X, y)
            out[f"time_cv{k}"] = time.perf_counter() - t0
            out[f"rmse_cv{k}"] = rmse(model, Xt, yt)
            out[f"best_cv{k}"] = [model.best_params_[p] for p in ("max_depth", "loss", "age")]
            out[f"rounds_cv{k}"] = model.refit_params_["n_estimators"]
            if wrong is not None:
                out[f"auroc_cv{k}"] = float(roc_auc_score(wrong, model.label_issue_scores_))
        for objective in ("l2", "huber"):
            m = LGBMRegressor(objective=objective, n_jobs=1, verbose=-1, random_state=seed)
            out[f"rmse_lgbm_{objective}"] = rmse(m.fit(X, y), Xt, yt)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, nargs="+", default=[100_000])
    ap.add_argument("--datasets", nargs="+", default=list(FRIEDMAN))
    ap.add_argument("--kinds", nargs="+", default=["clean", "shift", "replace", "unit"])
    ap.add_argument("--folds", type=int, nargs="+", default=[2, 3])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0])
    args = ap.parse_args()
    for n in args.n:
        for name in args.datasets:
            for kind in args.kinds:
                for seed in args.seeds:
                    print(json.dumps(cell(name, n, kind, args.folds, seed)), flush=True)


if __name__ == "__main__":
    main()
