"""Flips of the hardest rows can make a data set look cleaner (docs/design/0027-annotator-noise.md).

titanic has 14 distinct rows of features. On ``bench_noisy_default.py``'s splits (70/30,
seeds 0 and 1), the training labels clean and with 20 % of them flipped by
``flip_labels_hardest`` (from a 5-fold reference model on the clean labels; flip seed
``1000 * split + 7``, as the bench). For each: the share of labels that disagree with
their group's majority (the group: the rows of equal features; the training error of the
best possible classifier), the share a 5-fold LightGBM misclassifies out of fold, and
``SPLBoostClassifierCV().noise_rate_``.

    python benchmarks/design/annotator_twin.py
"""

from __future__ import annotations

import warnings

import numpy as np
from lightgbm import LGBMClassifier
from sklearn.model_selection import StratifiedKFold, cross_val_predict, train_test_split
from sklearn.preprocessing import LabelEncoder

from robust_boosting import SPLBoostClassifierCV
from robust_boosting.datasets import load_dataset
from robust_boosting.noise import flip_labels_hardest, reference_proba


def off_majority(X: np.ndarray, y: np.ndarray) -> float:
    """The share of labels that differ from the majority label of their group of equal
    rows of ``X`` (binary ``y``)."""
    _, group = np.unique(X, axis=0, return_inverse=True)
    group = group.ravel()
    counts = np.zeros((group.max() + 1, 2))
    np.add.at(counts, (group, y), 1)
    return float(counts.min(axis=1).sum() / y.size)


def main() -> None:
    warnings.simplefilter("ignore")
    X, y = load_dataset("titanic", return_X_y=True)
    X, y = np.asarray(X, float), LabelEncoder().fit_transform(y)
    print(f"titanic: {y.size} rows, {np.unique(X, axis=0).shape[0]} distinct rows of features")
    print("| split | labels | off the group majority | LightGBM out-of-fold misclassified "
          "| noise_rate_ | truly flipped |")
    print("|---|---|---|---|---|---|")
    for split in range(2):
        Xtr, _, ytr, _ = train_test_split(X, y, test_size=0.3, stratify=y, random_state=split)
        ref = reference_proba(Xtr, ytr, random_state=split)
        noisy, _ = flip_labels_hardest(ytr, 0.2, proba=ref, random_state=1000 * split + 7)
        for name, labels in (("clean", ytr), ("hardest 20 %", np.asarray(noisy))):
            oof = cross_val_predict(LGBMClassifier(verbose=-1), Xtr, labels,
                                    cv=StratifiedKFold(5, shuffle=True, random_state=0),
                                    method="predict_proba")
            est = SPLBoostClassifierCV(random_state=split).fit(Xtr, labels)
            print(f"| {split} | {name} | {off_majority(Xtr, labels):.3f} "
                  f"| {np.mean(oof.argmax(axis=1) != labels):.3f} | {est.noise_rate_:.3f} "
                  f"| {np.mean(labels != ytr):.3f} |")


if __name__ == "__main__":
    main()
