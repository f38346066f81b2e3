"""SPLBoostRegressorCV's learning rate on larger tables (docs/design/0026-regression-cost.md).

Each cell: Friedman #1, #2 or #3 with ``n`` training rows (the generator's noise), 2,000
clean test rows, targets clean or 20 % corrupted (shift, replace). It fits
``SPLBoostRegressorCV(learning_rate=r)`` for each rate ``r`` of ``--rates``, one thread,
and prints one JSON line per fit: the clean-test RMSE, the fit time, the rounds of the
search's winner and of the final model.

    python benchmarks/design/regression_rate.py --n 5000 20000 --datasets friedman1 friedman3
    python benchmarks/design/regression_rate.py --n 50000 --datasets friedman2
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_regression import make_data  # noqa: E402

from robust_boosting import SPLBoostRegressorCV  # noqa: E402
from robust_boosting.noise import corrupt_targets  # noqa: E402


def fit_one(name, n, kind, rate, seed):
    X, y, Xt, yt = make_data(name, n, seed)
    if kind != "clean":
        y, _ = corrupt_targets(y, 0.2, kind=kind, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0 = time.perf_counter()
        model = SPLBoostRegressorCV(learning_rate=rate, random_state=seed, n_jobs=1).fit(X, y)
        seconds = time.perf_counter() - t0
    rmse = float(np.sqrt(np.mean((model.predict(Xt) - yt) ** 2)))
    return dict(data=name, n=n, kind=kind, rate=rate, seed=seed, rmse=rmse, time=seconds,
                search_rounds=model.best_params_["n_estimators"],
                final_rounds=model.refit_params_["n_estimators"],
                depth=model.best_params_["max_depth"], loss=model.best_params_["loss"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, nargs="+", default=[5000, 20000])
    ap.add_argument("--datasets", nargs="+", default=["friedman1", "friedman3"])
    ap.add_argument("--kinds", nargs="+", default=["clean", "shift", "replace"])
    ap.add_argument("--rates", type=float, nargs="+", default=[0.1, 0.2])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0])
    args = ap.parse_args()
    for n in args.n:
        for name in args.datasets:
            for kind in args.kinds:
                for seed in args.seeds:
                    for rate in args.rates:
                        print(json.dumps(fit_one(name, n, kind, rate, seed)), flush=True)


if __name__ == "__main__":
    main()
