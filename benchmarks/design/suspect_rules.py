"""Design experiment: the label-issue F1 of three suspect rules on the same out-of-fold
probabilities of ``SPLBoostClassifierCV()``.

Rules: prune by noise rate with every sample the count selects (the estimator's
``label_issues_``), the same restricted to the misclassified samples (cleanlab's default), and
``both`` (misclassified, and among the lowest ``P(given label)`` of its class: prune by class).
Prints one JSON line per task.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/design/suspect_rules.py synthetic 0,1,2 1000
    PYTHONPATH=src python benchmarks/design/suspect_rules.py bundled

Results: ``docs/noisy-default-design.md``, evidence item 32.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _noisy_tasks import BUNDLED, bundled_tasks, noisy_tasks  # noqa: E402

from robust_boosting import SPLBoostClassifierCV  # noqa: E402
from robust_boosting.splboost_cv import confident_joint, find_label_issues  # noqa: E402


def f1(suspect: np.ndarray, flipped: np.ndarray) -> float:
    hits = np.sum(suspect & flipped)
    return float(2 * hits / max(1, suspect.sum() + flipped.sum()))


def prune_by_class(proba: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Per class ``i``, the ``sum_{j != i} C[i, j]`` samples labelled ``i`` of lowest ``p_i``."""
    joint = confident_joint(proba, y)
    suspect = np.zeros(y.shape[0], dtype=bool)
    for i in range(proba.shape[1]):
        m = int(round(joint[i].sum() - joint[i, i]))
        rows = np.flatnonzero(y == i)
        if m > 0:
            suspect[rows[np.argsort(proba[rows, i], kind="stable")[:m]]] = True
    return suspect


def main(argv: list[str]) -> None:
    warnings.simplefilter("ignore")
    if argv[0] == "synthetic":
        seeds, n = [int(s) for s in argv[1].split(",")], int(argv[2])
        tasks = ((f"{g}-{n}", s, "sym", r, X, y, np.isin(np.arange(len(y)), fl))
                 for s in seeds
                 for g, k, r, X, y, _, _, fl in noisy_tasks(s, n, ["mc", "hard"], [2, 5],
                                                            [0.1, 0.2, 0.35]))
    else:
        tasks = ((f"bundled-{ds}", s, kind, r, X, y, fl)
                 for ds, s, kind, r, X, y, _, _, fl in bundled_tasks(BUNDLED, 0, [0, 1])
                 if r > 0)
    for name, seed, kind, rate, X, y, flipped in tasks:
        est = SPLBoostClassifierCV(random_state=seed).fit(X, y)
        yi = np.searchsorted(est.classes_, y)
        p = est.oof_proba_
        every = find_label_issues(p, yi, only_misclassified=False)
        misclassified = find_label_issues(p, yi, only_misclassified=True)
        both = misclassified & prune_by_class(p, yi)
        print(json.dumps(dict(task=name, seed=seed, kind=kind, rate=rate, K=int(p.shape[1]),
                              all=f1(every, flipped), misclassified=f1(misclassified, flipped),
                              both=f1(both, flipped))), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
