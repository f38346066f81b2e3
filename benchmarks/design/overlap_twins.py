"""Overlap and class-conditional flips that give the same training data (design index
item 54; issue 68).

Two worlds draw the same distribution of ``(X, given label)``:

- **overlap**: the labels are clean, drawn with ``P(1 | x) = 0.35 + 0.475 eta(x)``
  (the classes overlap: no x is sure of its class);
- **noise**: clean labels are drawn with ``P(1 | x) = eta(x)``, then class 0 is flipped
  to 1 at 35 % and class 1 to 0 at 17.5 % (the bundled sets' class-conditional noise at
  ``rate=0.35``), which gives the same ``P(given 1 | x) = 0.35 + 0.475 eta(x)``.

``eta(x) = 1 / (1 + exp(-slope x0))``, five standard normal features. Any rule that
decides from the training data alone decides alike in both worlds (in distribution),
but the clean test labels ask opposite things: the overlap world's best classifier
thresholds ``0.35 + 0.475 eta`` at 1/2, the noise world's ``eta`` at 1/2. The script
fits ``SPLBoostClassifierCV()`` (``remove_label_issues="auto"``) and
``remove_label_issues=False`` in both, and prints their clean-test error (%), the Bayes
error, and how often the default removed its suspects, by world, slope and rows.

    PYTHONPATH=src python benchmarks/design/overlap_twins.py
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from robust_boosting import SPLBoostClassifierCV

LOW, SPAN = 0.35, 0.475  # P(given label 1 | x) = LOW + SPAN eta(x) in both worlds
TEST_ROWS = 5000


def twins(n: int, seed: int, slope: float):
    """``(X, eta, overlap labels, noisy labels, their clean labels)`` of ``n`` rows."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5))
    eta = 1.0 / (1.0 + np.exp(-slope * X[:, 0]))
    overlap = (rng.uniform(size=n) < LOW + SPAN * eta).astype(int)
    clean = (rng.uniform(size=n) < eta).astype(int)
    u = rng.uniform(size=n)
    noisy = np.where(clean == 0, (u < LOW).astype(int), (u >= 1.0 - LOW - SPAN).astype(int))
    return X, eta, overlap, noisy, clean


def main() -> None:
    warnings.simplefilter("ignore")
    rows = []
    for n in (1000, 4000, 10000):
        for seed in range(3):
            for slope in (1.0, 3.0):
                X, eta, overlap, noisy, clean = twins(n + TEST_ROWS, seed, slope)
                tr, te = slice(0, n), slice(n, None)
                for world, y_fit, y_test, bayes in (
                        ("overlap", overlap, overlap, LOW + SPAN * eta > 0.5),
                        ("noise", noisy, clean, eta > 0.5)):
                    row = dict(world=world, slope=slope, rows=n,
                               bayes=100 * np.mean(bayes[te].astype(int) != y_test[te]))
                    for name, remove in (("default", "auto"), ("keep", False)):
                        model = SPLBoostClassifierCV(random_state=seed,
                                                     remove_label_issues=remove)
                        model.fit(X[tr], y_fit[tr])
                        row[name] = 100 * np.mean(model.predict(X[te]) != y_test[te])
                        if name == "default":
                            row["removed"] = float(model.remove_label_issues_)
                    rows.append(row)
    table = pd.DataFrame(rows).groupby(["world", "slope", "rows"])[
        ["default", "keep", "bayes", "removed"]].mean()
    print(table.round(2).to_string())


if __name__ == "__main__":
    main()
