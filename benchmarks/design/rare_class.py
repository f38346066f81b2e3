"""Design experiment: what two rows of an extra class do to ``SPLBoostClassifierCV``.

For each task, ``SPLBoostClassifierCV(random_state=seed, n_jobs=1)`` is fitted twice on the same
training rows, without and with ``EXTRA`` rows of one more class (features of other
training rows, so that nothing about them is easy), and both are scored on the same test
rows (which have no row of the extra class). It prints one JSON line per fit: the test
error (%), ``noise_rate_``, ``anchor_noise_rate_``, ``remove_label_issues_``, the
number of suspects, whether the extra rows are suspects and predicted as their class on
the training data, and the warnings the fit raised.

Tasks: ``wine`` (the bundled three-class set, a stratified half as test rows, the
training labels flipped at RATE) and ``synthetic`` (``make_classification``, three
classes, 2,000 training and 2,000 test rows, the training labels flipped at RATE).

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/design/rare_class.py wine 0,1,2 0,0.2 2
    PYTHONPATH=src python benchmarks/design/rare_class.py synthetic 0,1,2 0.2 2

Results: ``docs/design/0021-rare-classes.md``.
"""

from __future__ import annotations

import json
import sys
import time
import warnings

import numpy as np
from sklearn.datasets import make_classification
from sklearn.model_selection import train_test_split

from robust_boosting import SPLBoostClassifierCV
from robust_boosting.datasets import load_xy
from robust_boosting.noise import apply_noise


def task(name: str, seed: int, rate: float):
    if name == "wine":
        X, y = load_xy("wine")
        X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.5, stratify=y,
                                                  random_state=seed)
    else:
        X, y = make_classification(n_samples=4000, n_features=10, n_informative=6,
                                   n_classes=3, n_clusters_per_class=2, random_state=seed)
        X_tr, X_te, y_tr, y_te = X[:2000], X[2000:], y[:2000], y[2000:]
    if rate > 0:
        y_tr, _ = apply_noise("symmetric", y_tr, rate, random_state=seed)
    return X_tr, X_te, np.asarray(y_tr), np.asarray(y_te)


def with_extra(X_tr, y_tr, extra: int, seed: int):
    """``extra`` more rows, copies of other training rows' features, labelled as a new class."""
    rng = np.random.default_rng(seed + 1000)
    rows = rng.choice(X_tr.shape[0], size=extra, replace=False)
    label = int(np.max(y_tr)) + 1
    X_new = X_tr[rows] + rng.normal(scale=1e-3, size=(extra, X_tr.shape[1]))
    return (np.vstack([X_tr, X_new]), np.concatenate([y_tr, np.full(extra, label)]), label)


def run(X_tr, y_tr, X_te, y_te, seed, label=None):
    start = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est = SPLBoostClassifierCV(random_state=seed, n_jobs=1).fit(X_tr, y_tr)
    out = {
        "error": round(100 * float(np.mean(est.predict(X_te) != y_te)), 2),
        "noise_rate": round(float(est.noise_rate_), 4),
        "anchor": round(float(est.anchor_noise_rate_), 4),
        "remove": bool(est.remove_label_issues_),
        "suspects": int(est.label_issues_.size),
        "seconds": round(time.perf_counter() - start, 1),
        "warnings": sorted({str(w.message)[:100] for w in caught}),
    }
    if label is not None:
        rare = np.flatnonzero(y_tr == label)
        out["rare_suspects"] = int(np.isin(rare, est.label_issues_).sum())
        out["rare_predicted"] = int(np.sum(est.predict(X_tr[rare]) == label))
        out["predicted_rare_on_test"] = int(np.sum(est.predict(X_te) == label))
    return out


def main(argv: list[str]) -> None:
    name, seeds, rates, extra = argv[0], argv[1], argv[2], int(argv[3])
    for seed in (int(s) for s in seeds.split(",")):
        for rate in (float(r) for r in rates.split(",")):
            X_tr, X_te, y_tr, y_te = task(name, seed, rate)
            base = run(X_tr, y_tr, X_te, y_te, seed)
            X_x, y_x, label = with_extra(X_tr, y_tr, extra, seed)
            more = run(X_x, y_x, X_te, y_te, seed, label)
            print(json.dumps({"task": name, "seed": seed, "rate": rate, "extra": extra,
                              "without": base, "with": more}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
