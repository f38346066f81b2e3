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


@pytest.mark.parametrize("seed", [0, 3, 2**32 - 1])
def test_integer_seeds_draw_what_check_random_state_draws(seed):
    """An integer ``random_state``'s seed stream (blocks drawn from a re-seeded generator)
    gives the draws of ``check_random_state(seed)`` in order, past its first block; the
    trees' split-noise seed is ``RandomState(seed)``'s first draw; a generator given as
    ``random_state`` is drawn from itself."""
    from sklearn.utils import check_random_state

    from robust_boosting._learners import round_seeds
    from robust_boosting.trees._base import _noise_seed_of

    high = np.iinfo(np.int32).max
    stream, ref = round_seeds(seed), check_random_state(seed)
    assert [stream.randint(high) for _ in range(600)] == [ref.randint(high) for _ in range(600)]
    _noise_seed_of.cache_clear()
    first = np.random.RandomState(seed).randint(np.iinfo(np.int64).max, dtype=np.int64)
    assert _noise_seed_of(seed) == int(first)
    rng = np.random.RandomState(seed)
    assert round_seeds(rng) is rng


def _public_boosters():
    import inspect

    import robust_boosting as rb
    from robust_boosting._boosting import BaseBoostingClassifier

    classes = [getattr(rb, name) for name in rb.__all__ if inspect.isclass(getattr(rb, name))]
    return [c for c in classes if issubclass(c, BaseBoostingClassifier)]


@pytest.mark.parametrize("cls", _public_boosters(), ids=lambda c: c.__name__)
def test_every_booster_bit_identical_across_its_n_jobs(cls):
    """The ensemble's own ``n_jobs`` (None, 1, 2) changes no bit of the model; at 8,000
    rows x 10 features the root nodes' kernels do run on two threads (RILBoost, whose
    rounds solve SVMs on every row, on 300 rows)."""
    n = 300 if cls.__name__.startswith("RILBoost") else 8000
    X, y = make_classification(n, 10, n_informative=5, n_classes=3, random_state=0)
    y = np.where(np.random.default_rng(0).random(y.shape[0]) < 0.2, (y + 1) % 3, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fits = [cls(n_estimators=4, random_state=0, n_jobs=n).fit(X, y) for n in (1, 2, None)]
    ref = fits[0].predict_proba(X)
    for m in fits[1:]:
        assert m.predict_proba(X).tobytes() == ref.tobytes()


def test_cv_bit_identical_across_n_jobs():
    from robust_boosting import SPLBoostClassifierCV

    X, y = make_classification(600, 6, n_informative=4, n_classes=3, random_state=1)
    fits = [SPLBoostClassifierCV(random_state=0, n_jobs=n).fit(X, y) for n in (1, 2, None)]
    ref = fits[0].predict_proba(X)
    for m in fits[1:]:
        assert m.predict_proba(X).tobytes() == ref.tobytes()
        np.testing.assert_array_equal(m.label_issues_, fits[0].label_issues_)


class _ThreadSpy(HistTreeClassifier):
    """A stump that records the thread count its kernels get."""

    seen: list = []

    def fit(self, X, y, sample_weight=None):
        from robust_boosting.trees.binning import _n_threads

        _ThreadSpy.seen.append(_n_threads(self.n_jobs))
        return super().fit(X, y, sample_weight=sample_weight)


@pytest.mark.parametrize("booster_jobs, tree_jobs, rows, expected", [
    (2, None, 200, 2),      # the ensemble's explicit n_jobs reaches its trees
    (2, 1, 200, 1),         # the tree's own explicit n_jobs wins
    (1, 2, 200, 2),
    (None, None, 200, 1),   # chosen: a small fit runs on one thread
    (None, 2, 200, 2),
])
def test_n_jobs_reaches_the_weak_learner(booster_jobs, tree_jobs, rows, expected):
    from robust_boosting.trees.binning import _max_threads

    X, y = make_classification(rows, 5, random_state=0)
    _ThreadSpy.seen.clear()
    AdaBoostClassifier(_ThreadSpy(max_depth=1, n_jobs=tree_jobs), n_estimators=3,
                       n_jobs=booster_jobs).fit(X, y)
    assert _ThreadSpy.seen and set(_ThreadSpy.seen) == {min(expected, _max_threads())}


def test_default_threads_follow_the_data_size(monkeypatch):
    """None: one thread per WORK_PER_THREAD rows x features, at most every core."""
    from robust_boosting.trees import binning

    monkeypatch.setattr(binning, "_default_threads", lambda: 4)
    w = binning.WORK_PER_THREAD
    assert [binning.auto_threads(x) for x in (1, w - 1, 2 * w, 3 * w + 1, 100 * w)] == \
        [1, 1, 2, 3, 4]
    assert binning.auto_threads(None) == 4
    assert binning.data_work(np.zeros((7, 3))) == 21
    assert binning.data_work([[1, 2], [3, 4], [5, 6]]) == 6
