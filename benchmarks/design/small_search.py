"""Design experiment: more capacity or a lower rate in ``SPLBoostClassifierCV``'s small-data search.

At 1,000 rows (``benchmarks/bench_scale.py``'s ``mc`` and ``hard`` data, 2 and 5
classes, 0 / 20 / 35 % flips) the default loses to CatBoost by up to 7 points. This
fits the default and variants of its small-data search (the private ``_AUTO_SMALL``:
max_depth values, max_leaf_nodes, min_samples_leaf, learning rates, rounds) and prints,
per task, each variant's error (%) on 20,000 clean test rows with the chosen depth and
early-stopped round, then each variant's mean::

    PYTHONPATH=src python benchmarks/design/small_search.py 0 1

Results: ``docs/noisy-default-design.md``, evidence item 15.
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_scale import make_data  # noqa: E402

from robust_boosting import SPLBoostClassifierCV  # noqa: E402
from robust_boosting import splboost_cv as cv  # noqa: E402
from robust_boosting.noise import flip_labels  # noqa: E402

VARIANTS = {  # (max_depth values, max_leaf_nodes, min_samples_leaf, rates, rounds, L2 values)
    "default": cv._AUTO_SMALL,
    "200 rounds": ((1, 3), None, 1, (0.3,), 200, (0.0,)),
    "depth 1/3/6": ((1, 3, 6), None, 1, (0.3,), 100, (0.0,)),
    "depth 3/6, 200 rounds": ((3, 6), None, 1, (0.3,), 200, (0.0,)),
    "rate 0.15, 200 rounds": ((1, 3), None, 1, (0.15,), 200, (0.0,)),
    "rate 0.1, 300 rounds": ((1, 3), None, 1, (0.1,), 300, (0.0,)),
}


def main(seeds: list[int]) -> None:
    warnings.simplefilter("ignore")
    errors: dict[str, list[float]] = {name: [] for name in VARIANTS}
    default = cv._AUTO_SMALL
    try:
        for seed in seeds:
            for gen in ("mc", "hard"):
                for k in (2, 5):
                    for rate in (0.0, 0.2, 0.35):
                        X, y, Xt, yt = make_data(gen, 1000, k, 20_000, seed)
                        y_fit = (np.asarray(flip_labels(y, rate, classes=np.arange(k),
                                                        random_state=seed)[0])
                                 if rate else y)
                        line = f"{gen} K={k} flips {rate:.2f} seed {seed}"
                        for name, space in VARIANTS.items():
                            cv._AUTO_SMALL = space
                            t = time.perf_counter()
                            est = SPLBoostClassifierCV(random_state=seed).fit(X, y_fit)
                            secs = time.perf_counter() - t
                            err = 100 * float(np.mean(est.predict(Xt) != yt))
                            errors[name].append(err)
                            best = est.best_params_
                            line += (f" | {name}: {err:.2f} (depth {best['max_depth']}, "
                                     f"{best['cv_n_estimators']} rounds, {secs:.1f} s)")
                        print(line, flush=True)
    finally:
        cv._AUTO_SMALL = default
    for name, errs in errors.items():
        print(f"{name}: mean error {np.mean(errs):.2f} % over {len(errs)} tasks")


if __name__ == "__main__":
    main([int(s) for s in sys.argv[1:]] or [0])
