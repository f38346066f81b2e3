"""DaskSPLBoostClassifierCV fitted several times alike: the test error and the model bytes.

One ``LocalCluster`` of 2 worker processes (1 thread each); ``make_classification``
with 20 features (10 informative), ``--rows`` training rows in ``--parts`` partitions
(``dask.array.from_array``, so Dask places them as it likes at every fit), 20 % of the
training labels flipped at random, 20,000 clean test rows. Each fit has
``random_state=0``; the script prints each fit's test error, a digest of the final
booster's bytes (``save_raw("ubj")``), the searched rounds and whether every digest is
the same (issue 70, item 7).

Example::

    python benchmarks/bench_dask_determinism.py --rows 100000 --parts 10 --fits 3
"""

from __future__ import annotations

import argparse
import hashlib
import time

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--parts", type=int, default=10)
    parser.add_argument("--fits", type=int, default=3)
    args = parser.parse_args()

    import dask.array as da
    import distributed
    from sklearn.datasets import make_classification

    from robust_boosting.dask import DaskSPLBoostClassifierCV

    n = args.rows
    X, y = make_classification(n + 20_000, 20, n_informative=10, random_state=0)
    rng = np.random.default_rng(0)
    y_train = y[:n].copy()
    flip = rng.random(n) < 0.2
    y_train[flip] = 1 - y_train[flip]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        digests = []
        for i in range(args.fits):
            t = time.perf_counter()
            model = DaskSPLBoostClassifierCV(random_state=0, client=client).fit(
                da.from_array(X[:n], chunks=(n // args.parts, 20)),
                da.from_array(y_train, chunks=n // args.parts))
            digest = hashlib.sha256(bytes(model.best_estimator_.save_raw("ubj"))).hexdigest()
            digests.append(digest)
            error = 100 * np.mean(model.predict(X[n:]) != y[n:])
            print(f"fit {i}: test error {error:.2f} %, model bytes {digest[:12]}, searched "
                  f"rounds {model.best_params_['cv_n_estimators']}, "
                  f"{time.perf_counter() - t:.1f} s", flush=True)
        print(f"identical model bytes: {len(set(digests)) == 1}")


if __name__ == "__main__":
    main()
