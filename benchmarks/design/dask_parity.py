"""Design record 0024: how close XGBoost's distributed trees come to one machine's default.

Three measurements, on the two generators of ``bench_dask.py`` (``teacher`` and
``interactions``), 20 % of the training labels flipped, error on 100,000 clean rows:

1. ``DaskSPLBoostClassifierCV`` on a 2-worker ``LocalCluster`` (10 partitions, 200,000
   rows) with its defaults and with depth-wise trees at one machine's schedule, against
   ``SPLBoostClassifierCV()`` on one machine with its symmetric trees and with depth-wise
   trees (the tree shape alone);
2. plain XGBoost in memory with heavier L2 and deeper trees, the best of 100, 200, 300
   and 600 rounds read off the test set (a bound no model selection can beat);
3. the cost of one machine's schedule on XGBoost's engine (300 rounds of depth-8 trees
   at rate 0.2) against the plain model's (100 rounds of depth 6), in memory, 10^6 rows.

Usage: ``python benchmarks/design/dask_parity.py`` (about 25 minutes on 2 cores).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_dask as bd  # noqa: E402

DASK_VARIANTS = [
    ("dask default", {}),
    ("dask depth 6, rate 0.3, 160 rounds", dict(max_depth=6, learning_rate=0.3, n_estimators=160)),
    ("dask depth 6, rate 0.2, 300 rounds, L2 2", dict(max_depth=6, learning_rate=0.2,
                                                       n_estimators=300, l2_regularization=2.0)),
    ("dask depth 8, rate 0.2, 300 rounds, L2 2", dict(max_depth=8, learning_rate=0.2,
                                                       n_estimators=300, l2_regularization=2.0)),
]
SINGLE_VARIANTS = [
    ("one machine default", {}),
    ("one machine depth-wise depth 8, L2 10", dict(grow_policy="depthwise", max_depth=8,
                                                    l2_regularization=10)),
]


def rows(generator: str, n: int, flip: float = 0.2, seed: int = 0):
    sizes = [len(c) for c in np.array_split(np.arange(n), 10)]
    chunks = [bd.make_chunk(seed, i, r, flip, generator) for i, r in enumerate(sizes)]
    X = np.concatenate([c[0] for c in chunks])
    y = np.concatenate([c[1] for c in chunks])
    Xt, _, _, yt = bd.make_chunk(seed, 10**6, 100_000, 0.0, generator)
    return X, y, Xt, yt, sizes


def accuracy(generator: str, n: int = 200_000):
    import dask.array as da
    import xgboost
    from distributed import Client, LocalCluster

    from robust_boosting import SPLBoostClassifierCV
    from robust_boosting.dask import DaskSPLBoostClassifierCV

    X, y, Xt, yt, sizes = rows(generator, n)
    for name, params in SINGLE_VARIANTS:
        model = SPLBoostClassifierCV(random_state=0, **params).fit(X, y)
        yield dict(generator=generator, model=name, error=np.mean(model.predict(Xt) != yt) * 100)
    for name, params in DASK_VARIANTS:
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, memory_limit=0,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            Xd = client.persist(da.from_array(X, chunks=(tuple(sizes), X.shape[1])))
            yd = client.persist(da.from_array(y, chunks=(tuple(sizes),)))
            model = DaskSPLBoostClassifierCV(random_state=0, client=client, **params).fit(Xd, yd)
            p = model.best_estimator_.inplace_predict(Xt)
        yield dict(generator=generator, model=name, error=np.mean((p > 0.5) != yt) * 100)
    test = xgboost.DMatrix(Xt)
    train = xgboost.QuantileDMatrix(X, y)
    for depth in (8, 10):
        booster = xgboost.train(dict(tree_method="hist", max_depth=depth, learning_rate=0.1,
                                     reg_lambda=100.0, objective="binary:logistic", nthread=2),
                                train, 600)
        errors = [np.mean((booster.predict(test, iteration_range=(0, r)) > 0.5) != yt) * 100
                  for r in (100, 200, 300, 600)]
        yield dict(generator=generator, model=f"plain XGBoost depth {depth}, L2 100, rate 0.1, "
                   "best rounds on the test set", error=min(errors))


def schedule_cost(n: int = 1_000_000):
    import xgboost

    X, y, _, _, _ = rows("teacher", n)
    times = {}
    for name, params, rounds in [
            ("plain: depth 6, rate 0.3, 100 rounds", dict(max_depth=6, learning_rate=0.3), 100),
            ("Dask default final fit: 31 leaves, rate 0.3, 160 rounds",
             dict(grow_policy="lossguide", max_depth=0, max_leaves=31, learning_rate=0.3), 160),
            ("one machine's schedule: depth 8, rate 0.2, 300 rounds, L2 2",
             dict(max_depth=8, learning_rate=0.2, reg_lambda=2.0), 300)]:
        t0 = time.perf_counter()
        xgboost.train(dict(tree_method="hist", nthread=2, objective="binary:logistic", **params),
                      xgboost.QuantileDMatrix(X, y), rounds)
        times[name] = time.perf_counter() - t0
        yield dict(fit=name, seconds=times[name],
                   per_plain=times[name] / times["plain: depth 6, rate 0.3, 100 rounds"])


def main():
    for generator in ("teacher", "interactions"):
        for row in accuracy(generator):
            print(json.dumps(row), flush=True)
    for row in schedule_cost():
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
