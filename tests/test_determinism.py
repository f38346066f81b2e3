"""Determinism: the same random_state gives bit-identical boosters whatever the weak learner's
``n_jobs`` (the trees' own n_jobs test is in tests/test_trees.py)."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification

from robust_boosting import (
    AdaBoostClassifier,
    HistTreeClassifier,
    HistTreeRegressor,
    LogitBoostClassifier,
    SPLBoostClassifier,
)


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("make", [
    lambda n: AdaBoostClassifier(HistTreeClassifier(max_depth=3, n_jobs=n), n_estimators=15,
                                 random_state=0),
    lambda n: SPLBoostClassifier(HistTreeClassifier(max_depth=3, n_jobs=n), n_estimators=15,
                                 regularizer="linear", random_state=0),
    lambda n: LogitBoostClassifier(HistTreeRegressor(max_depth=3, n_jobs=n), n_estimators=15,
                                   random_state=0),
    lambda n: LogitBoostClassifier(HistTreeRegressor(max_depth=4, grow_policy="symmetric",
                                                     random_strength=1.0, n_jobs=n),
                                   n_estimators=15, random_state=0, multiclass_trees="shared"),
])
def test_boosters_bit_identical_across_n_jobs(make, k):
    X, y = make_classification(3000, 8, n_informative=5, n_classes=k, random_state=0)
    y = np.where(np.random.default_rng(0).random(y.shape[0]) < 0.2, (y + 1) % k, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fits = [make(n).fit(X, y) for n in (1, 2, 1)]
    ref = fits[0].decision_function(X)
    for m in fits[1:]:
        np.testing.assert_array_equal(m.decision_function(X), ref)
        for a, b in zip(np.atleast_1d(fits[0].estimator_weights_),
                        np.atleast_1d(m.estimator_weights_), strict=True):
            np.testing.assert_array_equal(a, b)


def test_weak_learner_copies_are_clones_with_sklearn_seeds():
    """The loop's per-round copies (shallow copies of plain estimators, nested seeds set
    as attributes) equal scikit-learn's clone + set_params, share no estimator with the
    template, and fall back to set_params where a nested name is no attribute (a Pipeline
    step)."""
    from sklearn.base import clone
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    from robust_boosting._boosting import _random_state_keys, _seeded_copy
    from robust_boosting.learners import PerClassRegressor
    from robust_boosting.trees import HistTreeRegressor

    for template in (PerClassRegressor(HistTreeRegressor(max_depth=2)),
                     PerClassRegressor(make_pipeline(StandardScaler(),
                                                     DecisionTreeClassifier(max_depth=2))),
                     PerClassRegressor(DecisionTreeClassifier(class_weight={0: 2.0}))):
        keys = _random_state_keys(template)
        assert keys, template
        copy = _seeded_copy(template, keys, np.random.RandomState(3))
        ref = clone(template).set_params(
            **dict(zip(keys, (np.random.RandomState(3).randint(np.iinfo(np.int32).max)
                              for _ in keys), strict=True)))
        assert repr(copy.get_params(deep=True)) == repr(ref.get_params(deep=True))
        assert copy.estimator is not template.estimator
        # the template itself is left unseeded
        assert all(template.get_params(deep=True)[key] is None for key in keys)
