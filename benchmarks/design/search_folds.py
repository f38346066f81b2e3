"""Design experiment: how many folds the large-data search of ``SPLBoostClassifierCV`` needs.

Fits ``SPLBoostClassifierCV(cv=c)`` for each fold count ``c`` on
``benchmarks/bench_scale.py``'s data and prints, per task and fold count, the error (%)
on 20,000 clean test rows, the label-issue F1 of ``excluded_samples_`` against the
flipped rows, the fit time and the search's time (the fold models' batched pass).
Arguments: seed, rows, generators, class counts, flip rates and fold counts
(comma-separated lists), for example::

    PYTHONPATH=src python benchmarks/design/search_folds.py 0 100000 mc,hard 2,5 \\
        0,0.1,0.2,0.35 3,2

Results: ``docs/noisy-default-design.md``, evidence item 20.
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_scale import make_data  # noqa: E402

import robust_boosting.splboost_cv as _cv  # noqa: E402
from robust_boosting import SPLBoostClassifierCV  # noqa: E402
from robust_boosting.noise import flip_labels  # noqa: E402


def main(argv: list[str]) -> None:
    warnings.simplefilter("ignore")
    seed, n = int(argv[0]), int(argv[1])
    gens = argv[2].split(",")
    ks = [int(v) for v in argv[3].split(",")]
    rates = [float(v) for v in argv[4].split(",")]
    fold_counts = [int(v) for v in argv[5].split(",")]
    search_secs = []
    inner = _cv._fit_candidates

    def timed(*args, **kwargs):
        t = time.perf_counter()
        out = inner(*args, **kwargs)
        search_secs.append(time.perf_counter() - t)
        return out

    _cv._fit_candidates = timed
    for gen in gens:
        for k in ks:
            X, y, Xt, yt = make_data(gen, n, k, 20_000, seed)
            for rate in rates:
                y_fit = (np.asarray(flip_labels(y, rate, classes=np.arange(k),
                                                random_state=seed)[0]) if rate else y)
                flipped = np.flatnonzero(y_fit != y)
                for folds in fold_counts:
                    est = SPLBoostClassifierCV(cv=folds, random_state=seed)
                    t = time.perf_counter()
                    est.fit(X, y_fit)
                    secs = time.perf_counter() - t
                    err = 100 * float(np.mean(est.predict(Xt) != yt))
                    suspects = np.asarray(est.excluded_samples_)
                    hits = np.intersect1d(suspects, flipped).size
                    f1 = (2 * hits / max(1, suspects.size + flipped.size)) if rate else np.nan
                    print(f"{gen:4s} n={n} K={k} flips={rate:.2f} cv={folds} "
                          f"error={err:6.2f} F1={f1:.3f} fit={secs:5.1f}s "
                          f"search={search_secs[-1]:5.1f}s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
