"""Histogram slots kept between the grower's calls (docs/design/0044-histogram-spares.md).

The default ``SPLBoostClassifierCV()`` and LightGBM's default classifier, one thread each,
on ``make_classification`` tables of the ``--sizes`` given (rows x features; 10
informative features, 10 % of the labels flipped by ``flip_y``), each fitted ``--reps``
times in turn. Printed per size: the least fit time of each and their ratio. Run it at the
commit before and at this one: the ratios are what to compare (absolute times drift on a
shared machine).

    PYTHONPATH=src python benchmarks/design/histogram_spares.py --sizes 1400x56 3000x100
"""

from __future__ import annotations

import argparse
import time
import warnings


def run(sizes, reps: int) -> None:
    from lightgbm import LGBMClassifier
    from sklearn.datasets import make_classification
    from threadpoolctl import threadpool_limits

    from robust_boosting import SPLBoostClassifierCV
    print("rows x features | ours s | LightGBM s | ours / LightGBM")
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for size in sizes:
            n, p = (int(v) for v in size.lower().split("x"))
            X, y = make_classification(n, p, n_informative=10, flip_y=0.1, random_state=0)
            ours, lgbm = [], []
            for _ in range(reps):
                t = time.perf_counter()
                SPLBoostClassifierCV(random_state=0, n_jobs=1).fit(X, y)
                ours.append(time.perf_counter() - t)
                t = time.perf_counter()
                LGBMClassifier(n_jobs=1, verbose=-1, random_state=0).fit(X, y)
                lgbm.append(time.perf_counter() - t)
            print(f"{n:,} x {p} | {min(ours):.3f} | {min(lgbm):.3f} | "
                  f"{min(ours) / min(lgbm):.2f}", flush=True)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", nargs="+", default=["1400x56", "3000x100", "10000x20",
                                                  "20000x100"])
    p.add_argument("--reps", type=int, default=3)
    a = p.parse_args(argv)
    run(a.sizes, a.reps)


if __name__ == "__main__":
    main()
