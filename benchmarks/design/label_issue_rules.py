"""Design experiment: which confident-learning rule, on whose out-of-fold probabilities,
finds the flipped labels best (label-issue F1).

For every task of ``bench_scale.py``'s data (``mc`` and ``hard``; 10,000 and 100,000
rows; 2 and 5 classes; 10 / 20 / 35 % flips), one ``SPLBoostClassifierCV()`` fit gives
its out-of-fold probabilities (``oof_proba_``: 3 folds, the search's winner), and
``cross_val_predict`` of ``LGBMClassifier()`` over 5 stratified folds gives those
cleanlab's ``CleanLearning`` uses. Each rule then flags suspects from each source:

* ``pnr``: prune by noise rate, every sample the count selects
  (``find_label_issues(..., only_misclassified=False)``, the estimator's suspects);
* ``pnr_mis``: the same, without the samples classified as their given label
  (cleanlab's ``find_label_issues`` default);
* ``both``, ``confident_learning``, ``predicted_neq_given``: cleanlab's
  ``filter_by`` rules of those names;
* ``topk_self`` / ``topk_margin``: the estimated number of flips (off-diagonal mass
  of the calibrated confident joint) of largest ``1 - p_given`` / largest margin.

Prints each task's F1 per (source, rule) and the means. Needs cleanlab and lightgbm::

    PYTHONPATH=src python benchmarks/design/label_issue_rules.py 0

Results: ``docs/noisy-default-design.md``, evidence item 17.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_scale import make_data  # noqa: E402

from robust_boosting import SPLBoostClassifierCV  # noqa: E402
from robust_boosting.noise import flip_labels  # noqa: E402
from robust_boosting.splboost_cv import confident_joint, find_label_issues  # noqa: E402

RULES = ("pnr", "pnr_mis", "both", "confident_learning", "predicted_neq_given",
         "topk_self", "topk_margin")


def f1(suspect: np.ndarray, flipped: np.ndarray) -> float:
    tp = int((suspect & flipped).sum())
    if tp == 0:
        return 0.0
    precision, recall = tp / suspect.sum(), tp / flipped.sum()
    return 2 * precision * recall / (precision + recall)


def suspects(rule: str, proba: np.ndarray, y: np.ndarray) -> np.ndarray:
    if rule in ("pnr", "pnr_mis"):
        return find_label_issues(proba, y, only_misclassified=rule == "pnr_mis")
    if rule.startswith("topk"):
        joint = confident_joint(proba, y)
        m = int(round(joint.sum() - np.trace(joint)))
        given = proba[np.arange(y.shape[0]), y]
        if rule == "topk_self":
            score = 1.0 - given
        else:
            other = proba.copy()
            other[np.arange(y.shape[0]), y] = -1.0
            score = other.max(axis=1) - given
        out = np.zeros(y.shape[0], dtype=bool)
        out[np.argsort(-score, kind="stable")[:m]] = True
        return out
    from cleanlab.filter import find_label_issues as cleanlab_issues
    return cleanlab_issues(y, proba, filter_by=rule)


def main(seed: int) -> None:
    from lightgbm import LGBMClassifier
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    means: dict[tuple[str, str], list[float]] = {}
    for gen in ("mc", "hard"):
        for n in (10_000, 100_000):
            for k in (2, 5):
                for rate in (0.1, 0.2, 0.35):
                    X, y, _, _ = make_data(gen, n, k, 20_000, seed)
                    noisy, _ = flip_labels(y, rate, classes=np.arange(k), random_state=seed)
                    noisy = np.asarray(noisy)
                    flipped = noisy != y
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        ours = SPLBoostClassifierCV(random_state=seed).fit(X, noisy).oof_proba_
                    lgbm = cross_val_predict(
                        LGBMClassifier(n_jobs=2, verbose=-1, random_state=seed), X, noisy,
                        cv=StratifiedKFold(5, shuffle=True, random_state=seed),
                        method="predict_proba")
                    row = []
                    for source, proba in (("ours", ours), ("lightgbm", lgbm)):
                        for rule in RULES:
                            value = f1(suspects(rule, proba, noisy), flipped)
                            means.setdefault((source, rule), []).append(value)
                            row.append(f"{value:.3f}")
                    print(f"{gen} {n} {k} {rate}", " ".join(row), flush=True)
    for (source, rule), values in means.items():
        print(f"mean F1 {source:8s} {rule:20s} {np.mean(values):.4f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
