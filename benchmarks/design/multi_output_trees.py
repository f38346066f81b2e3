"""Design experiment: would one symmetric tree per round with a leaf value per class
(CatBoost's multiclass trees) beat our one tree per class and round?

A NumPy prototype (no missing values; the data here have none) of softmax Newton
boosting with multi-output symmetric trees: each level's split ``(feature, bin)`` maximises
``sum over nodes and classes of G_L^2 / (H_L + λ_k) + G_R^2 / (H_R + λ_k)``, the leaves hold
``G_k / (H_k + λ_k)`` (``λ_k`` = ``l2`` rows of the class's mean Hessian, as
``HistTreeRegressor``'s ``l2_regularization``), and a round adds ``(K - 1)/K × rate ×`` the
leaf value, as :class:`~robust_boosting.classical.LogitBoostClassifier`'s native multiclass
step does. It is compared with ``LogitBoostClassifier`` on the same bins' data (symmetric
trees of the same depth, one per class and round, the same rate, penalty and rounds),
both fitted on every training row (no label-issue step), on ``benchmarks/bench_scale.py``'s
5-class data, and prints the test error (%) after each of a few round counts::

    PYTHONPATH=src python benchmarks/design/multi_output_trees.py 0 1000 mc,hard 0,0.2

Results: ``docs/noisy-default-design.md``, evidence item 23.
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _noisy_tasks import noisy_tasks  # noqa: E402

from robust_boosting import LogitBoostClassifier  # noqa: E402
from robust_boosting.trees import HistTreeRegressor  # noqa: E402

DEPTH, RATE, L2, ROUNDS = 6, 0.2, 10.0, 300
CHECKPOINTS = (100, 200, 300)


def quantile_codes(X, X_test, n_bins=255):
    """Per feature, the codes of both sets against the training set's quantile edges."""
    codes, test = np.empty(X.shape, np.int64), np.empty(X_test.shape, np.int64)
    for f in range(X.shape[1]):
        edges = np.unique(np.quantile(X[:, f], np.linspace(0, 1, n_bins + 1)[1:-1]))
        codes[:, f] = np.searchsorted(edges, X[:, f], side="right")
        test[:, f] = np.searchsorted(edges, X_test[:, f], side="right")
    return codes, test


def level_scores(codes, node, m, g, h, lam, n_bins):
    """Every candidate split's score at a level of ``m`` nodes (``node``: each row's),
    ``(n_features, n_bins - 1)``: the sum over the nodes and outputs of the children's
    ``G^2 / (H + λ)``; ``g``, ``h`` of shape ``(n, K)``."""
    k = g.shape[1]
    scores = np.empty((codes.shape[1], n_bins - 1))
    for f in range(codes.shape[1]):
        key = node * n_bins + codes[:, f]
        G = np.stack([np.bincount(key, g[:, c], m * n_bins) for c in range(k)], -1)
        H = np.stack([np.bincount(key, h[:, c], m * n_bins) for c in range(k)], -1)
        G = G.reshape(m, n_bins, k).cumsum(1)
        H = H.reshape(m, n_bins, k).cumsum(1)
        Gt, Ht = G[:, -1:], H[:, -1:]
        scores[f] = (G ** 2 / (H + lam) + (Gt - G) ** 2 / (Ht - H + lam)).sum(axis=(0, 2))[:-1]
    return scores


def best_split(scores):
    """The highest-scoring ``(feature, bin)``: the first in feature, then bin, order."""
    f, b = np.unravel_index(int(np.argmax(scores)), scores.shape)
    return int(f), int(b)


def grow(codes, g, h, lam, depth, choose=best_split):
    """A symmetric tree: its levels' ``(feature, bin)``, each chosen by ``choose`` from
    :func:`level_scores`, and its leaf values ``(2**depth, K)``."""
    n_bins = int(codes.max()) + 1
    node = np.zeros(codes.shape[0], np.int64)
    splits = []
    for d in range(depth):
        f, b = choose(level_scores(codes, node, 2 ** d, g, h, lam, n_bins))
        splits.append((f, b))
        node = node * 2 + (codes[:, f] > b)
    G = np.stack([np.bincount(node, g[:, c], 2 ** depth) for c in range(g.shape[1])], -1)
    H = np.stack([np.bincount(node, h[:, c], 2 ** depth) for c in range(g.shape[1])], -1)
    return splits, G / (H + lam)


def leaves(codes, splits):
    node = np.zeros(codes.shape[0], np.int64)
    for f, b in splits:
        node = node * 2 + (codes[:, f] > b)
    return node


def multi_output(codes, y, test, k):
    F = np.zeros((codes.shape[0], k))
    Ft = np.zeros((test.shape[0], k))
    Y = np.eye(k)[y]
    errors = {}
    for t in range(1, ROUNDS + 1):
        p = np.exp(F - F.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        g, h = Y - p, np.maximum(p * (1 - p), 2 * np.finfo(float).eps)
        lam = L2 * h.mean(0)
        splits, values = grow(codes, g, h, lam, DEPTH)
        step = (k - 1) / k * RATE
        F += step * values[leaves(codes, splits)]
        Ft += step * values[leaves(test, splits)]
        if t in CHECKPOINTS:
            errors[t] = Ft.argmax(1)
    return errors


def per_class(codes, y, test):
    est = LogitBoostClassifier(HistTreeRegressor(max_depth=DEPTH, grow_policy="symmetric",
                                                 l2_regularization=L2),
                               n_estimators=ROUNDS, learning_rate=RATE, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(codes.astype(np.float64), y)
    return {t + 1: p for t, p in enumerate(est.staged_predict(test.astype(np.float64)))
            if t + 1 in CHECKPOINTS}


def main(argv: list[str]) -> None:
    seed, n = int(argv[0]), int(argv[1])
    gens, rates = argv[2].split(","), [float(v) for v in argv[3].split(",")]
    for gen, k, rate, X, y, Xt, yt, _ in noisy_tasks(seed, n, gens, [5], rates):
        codes, test = quantile_codes(X, Xt)
        line = [f"{gen} K={k} flips={rate:.2f}"]
        for name, fit, args in (("per class", per_class, (codes, y, test)),
                                ("multi-output", multi_output, (codes, y, test, k))):
            t0 = time.perf_counter()
            pred = fit(*args)
            secs = time.perf_counter() - t0
            line.append(name + " " + " ".join(
                f"{t}:{100 * np.mean(p != yt):.2f}" for t, p in pred.items()) + f" ({secs:.1f}s)")
        print(" | ".join(line), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
