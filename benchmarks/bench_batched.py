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
Both sides run on one kernel thread (``--threads``) and are timed by process
(CPU) time, which a busy machine disturbs less than wall time. Best of
``--repeat`` runs. Run::

    PYTHONPATH=src python benchmarks/bench_batched.py [--datasets pima german ...]
        [--k 5 10 30] [--rounds 200] [--step logit|discrete] [--patience 20]

``--patience P`` adds, on binary sets, the time of the same batched search with early
stopping per model (``fit_batched(monitor=...)``: a model stops once its held-out
logistic loss has not improved for P rounds), divided by the same ``k x single``.
"""

from __future__ import annotations

import argparse
import itertools
import time
import warnings

import numpy as np
from sklearn.base import clone

from robust_boosting import SPLBoostClassifier, SPLLogitBoostClassifier
from robust_boosting._batched import fit_batched
from robust_boosting.datasets import load_dataset
from robust_boosting.trees import HistTreeClassifier, HistTreeRegressor
from robust_boosting.trees.binning import _kernel_threads

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


class PatienceMonitor:
    """Early stopping for ``fit_batched``: stop model ``j`` once its held-out loss has not
    improved for ``patience`` rounds (held-out rows: weight 0).

    The held-out scores come with each fit request; the loss is the logistic loss
    ``log(1 + exp(-2 y F))`` of the binary labels ``y`` in ``{-1, +1}``.
    """

    def __init__(self, y, weights, patience):
        self.y = np.where(y == np.unique(y)[1], 1.0, -1.0)
        self.held_out = [w == 0 for w in weights]
        self.patience = patience
        self.best = {}

    def __call__(self, j, request):
        rows = self.held_out[j]
        loss = float(np.mean(np.logaddexp(0.0, -2.0 * self.y[rows] * request.scores[rows])))
        best_loss, best_round = self.best.get(j, (np.inf, 0))
        if loss < best_loss:
            self.best[j] = (loss, request.round)
            return False
        return request.round - best_round >= self.patience


def run(name, X, y, step, k, rounds, repeat, patience=None):
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
    line = (f"{name:10s} n={X.shape[0]:5d} p={X.shape[1]:3d} step={step:8s} k={k:3d}  "
            f"single x k {best_single:7.2f} s  batched {best_batched:7.2f} s  "
            f"ratio {best_batched / best_single:.3f}  identical={same}")
    if patience is not None and len(np.unique(y)) == 2:
        t = time.process_time()
        stopped = fit_batched(template, X, y, weights, overrides,
                              monitor=PatienceMonitor(y, weights, patience))
        t_stop = time.process_time() - t
        mean_rounds = np.mean([m.n_estimators_ for m in stopped])
        line += (f"  | early stop (patience {patience}): {t_stop:6.2f} s, "
                 f"{mean_rounds:.0f} rounds on average, ratio {t_stop / best_single:.3f}")
    print(line, flush=True)
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
    parser.add_argument("--patience", type=int, default=None,
                        help="also time fit_batched with early stopping on the held-out "
                             "logistic loss after this many rounds without improvement")
    args = parser.parse_args()
    _kernel_threads(args.threads).__enter__()  # the kernels' threads for the whole run
    warnings.simplefilter("ignore")  # early stops are part of the workload
    # compile every kernel once, outside the timings
    X, y = load(args.datasets[0], 200, 0)
    run("warm-up", X, y, args.step, N_FOLDS, 3, 1)
    for name in args.datasets:
        X, y = load(name, args.max_rows, 0)
        for k in args.k:
            run(name, X, y, args.step, k, args.rounds, args.repeat, args.patience)


if __name__ == "__main__":
    main()
