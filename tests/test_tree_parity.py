"""Accuracy parity: AdaBoost with our histogram trees vs scikit-learn's exact trees (issue 3)."""

import numpy as np
import pytest
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

from robust_boosting import AdaBoostClassifier
from robust_boosting.datasets import load_dataset
from robust_boosting.trees import HistTreeClassifier

DATASETS = ["wdbc", "pima", "ionosphere", "sonar", "heart", "bupa"]


@pytest.mark.parametrize("name", DATASETS)
def test_adaboost_mean_error_matches_exact_trees(name):
    """Mean test error over 10 random 70/30 splits within 1 percentage point."""
    X, y = load_dataset(name, return_X_y=True)
    ours, exact = [], []
    for seed in range(10):
        X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=seed,
                                                  stratify=y)
        for trees, errors in (
            (HistTreeClassifier(max_depth=1), ours),
            (DecisionTreeClassifier(max_depth=1, criterion="entropy"), exact),
        ):
            model = AdaBoostClassifier(trees, n_estimators=50, random_state=seed)
            errors.append(1.0 - model.fit(X_tr, y_tr).score(X_te, y_te))
    assert abs(np.mean(ours) - np.mean(exact)) <= 0.01, (np.mean(ours), np.mean(exact))
