"""Batched training: time of k models fitted together / time of the same k models fitted one by one.

The k models are what a cross-validated search fits: 5 folds (held-out rows
weight 0) x k/5 candidate settings (self-paced age, learning rate, tree depth)
of self-paced LogitBoost on histogram regression trees
(:class:`~robust_boosting.classical.SPLLogitBoostClassifier`), all on the same
training matrix. ``fit_batched`` (:mod:`robust_boosting._batched`) fits them
in one pass; the reference is k ordinary ``fit`` calls of the same models. The
script checks that both give bit-identical decision functions and prints one
line per data set and k::

    ratio = batched fit time / (k x single fit time)

with ``k x single fit time`` measured as the total time of the k ordinary fits.
Both sides run on one numba thread (``--threads``) and are timed by process
(CPU) time, which a busy machine disturbs less than wall time. Best of
``--repeat`` runs. Run::

    PYTHONPATH=src python benchmarks/bench_batched.py [--datasets pima german ...]
        [--k 5 10 30] [--rounds 200] [--step logit|discrete]
"""

from __future__ import annotations

import argparse
import itertools
import time
import warnings

import numba
import numpy as np
from sklearn.base import clone

from robust_boosting import SPLBoostClassifier, SPLLogitBoostClassifier
from robust_boosting._batched import fit_batched
from robust_boosting.datasets import load_dataset
from robust_boosting.trees import HistTreeClassifier, HistTreeRegressor

N_FOLDS = 5


def load(name: str, max_rows: int, seed: int):
    X, y = load_dataset(name, return_X_y=True)
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y)
    if X.shape[0] > max_rows:
        rows = np.random.RandomState(seed).choice(X.shape[0], max_rows, replace=False)
        X, y = X[rows], y[rows]
    return X, y


def configurations(step: str, k: int, rounds: int):
    """The template and k = 5 folds x k/5 candidate settings."""
    if step == "logit":
        template = SPLLogitBoostClassifier(HistTreeRegressor(max_depth=3), n_estimators=rounds,
                                           learning_rate=0.1, random_state=0)
        grid = [dict(age=a, learning_rate=lr, estimator__max_depth=d)
                for d, lr, a in itertools.product((3, 2, 4), (0.1, 0.2), (1.0, 1.5, 2.5, np.inf))]
    else:
        template = SPLBoostClassifier(HistTreeClassifier(max_depth=1), n_estimators=rounds,
                                      random_state=0)
        grid = [dict(age=a, estimator__max_depth=d)
                for d, a in itertools.product((1, 3), (1.5, 2.0, 3.0, 4.0, np.inf))]
    settings = grid[: k // N_FOLDS]
    return template, [s for s in settings for _ in range(N_FOLDS)]


def fold_weights(n: int, k: int, seed: int) -> np.ndarray:
    fold = np.random.RandomState(seed).permutation(n) % N_FOLDS
    return np.array([(fold != j % N_FOLDS).astype(np.float64) for j in range(k)])


def run(name, X, y, step, k, rounds, repeat):
    template, overrides = configurations(step, k, rounds)
    weights = fold_weights(X.shape[0], k, 0)
    best_single = best_batched = np.inf
    for _ in range(repeat):
        t = time.process_time()
        single = [clone(template).set_params(**o).fit(X, y, sample_weight=w)
                  for o, w in zip(overrides, weights, strict=True)]
        best_single = min(best_single, time.process_time() - t)
        t = time.process_time()
        batched = fit_batched(template, X, y, weights, overrides)
        best_batched = min(best_batched, time.process_time() - t)
    same = all(np.array_equal(a.decision_function(X), b.decision_function(X))
               for a, b in zip(single, batched, strict=True))
    print(f"{name:10s} n={X.shape[0]:5d} p={X.shape[1]:3d} step={step:8s} k={k:3d}  "
          f"single x k {best_single:7.2f} s  batched {best_batched:7.2f} s  "
          f"ratio {best_batched / best_single:.3f}  identical={same}", flush=True)
    return best_batched / best_single


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", nargs="+",
                        default=["pima", "german", "spambase", "magic"])
    parser.add_argument("--max-rows", type=int, default=3000,
                        help="larger sets are subsampled to this many rows")
    parser.add_argument("--k", type=int, nargs="+", default=[5, 10, 30])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--step", choices=["logit", "discrete"], default="logit")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    numba.set_num_threads(args.threads)
    warnings.simplefilter("ignore")  # early stops are part of the workload
    # compile every kernel once, outside the timings
    X, y = load(args.datasets[0], 200, 0)
    run("warm-up", X, y, args.step, N_FOLDS, 3, 1)
    for name in args.datasets:
        X, y = load(name, args.max_rows, 0)
        for k in args.k:
            run(name, X, y, args.step, k, args.rounds, args.repeat)


if __name__ == "__main__":
    main()
