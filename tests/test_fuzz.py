"""Reliability fuzzing of every estimator (hypothesis).

Two profiles: ``ci`` (the default: 40 examples per estimator, 600 in all,
part of the default test run) and ``slow`` (700 per estimator, 10,500 in
all). Select the slow one with ``ROBUST_BOOSTING_FUZZ=slow``::

    ROBUST_BOOSTING_FUZZ=slow PYTHONPATH=src python -m pytest tests/test_fuzz.py

Inputs: shapes 1-200 x 1-10, extreme and duplicated values, constant columns,
sample weights including huge (1e308), tiny (1e-320) and zero ones, 1-5 classes,
int/str/float/bool labels. Invariants: the only exceptions are ValueError and
TypeError; outputs are finite; probabilities lie in [0, 1] and sum to 1;
predictions are in ``classes_``.
"""

import os
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robust_boosting import (
    AdaBoostClassifier,
    GentleBoostClassifier,
    HistTreeClassifier,
    HistTreeRegressor,
    LogitBoostClassifier,
    RBoostClassifier,
    RealBoostClassifier,
    RILBoostClassifier,
    RobustBoostClassifier,
    SavageBoostClassifier,
    SPLBoostClassifier,
    SPLGentleBoostClassifier,
    SPLLogitBoostClassifier,
)

_COMMON = dict(deadline=None, derandomize=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("robust_boosting_ci", max_examples=40, **_COMMON)
settings.register_profile("robust_boosting_slow", max_examples=700, **_COMMON)
PROFILE = "robust_boosting_" + os.environ.get("ROBUST_BOOSTING_FUZZ", "ci")

N_ROUNDS = 8

ESTIMATORS = {
    "AdaBoost": lambda: AdaBoostClassifier(n_estimators=N_ROUNDS),
    "SPLBoost-hard": lambda: SPLBoostClassifier(n_estimators=N_ROUNDS),
    "SPLBoost-linear": lambda: SPLBoostClassifier(n_estimators=N_ROUNDS, regularizer="linear",
                                                  warm_start_rounds=1),
    "SPLBoost-mixture": lambda: SPLBoostClassifier(n_estimators=N_ROUNDS, regularizer="mixture",
                                                   inner_iterations="auto", warm_start_rounds=1),
    "RealBoost": lambda: RealBoostClassifier(n_estimators=N_ROUNDS),
    "GentleBoost": lambda: GentleBoostClassifier(n_estimators=N_ROUNDS),
    "LogitBoost": lambda: LogitBoostClassifier(n_estimators=N_ROUNDS),
    "LogitBoost-shared": lambda: LogitBoostClassifier(
        HistTreeRegressor(grow_policy="symmetric", max_depth=3), n_estimators=N_ROUNDS,
        multiclass_trees="shared"),
    "SPLLogitBoost": lambda: SPLLogitBoostClassifier(n_estimators=N_ROUNDS, warm_start_rounds=1),
    "SPLGentleBoost": lambda: SPLGentleBoostClassifier(n_estimators=N_ROUNDS,
                                                       warm_start_rounds=1),
    "SavageBoost": lambda: SavageBoostClassifier(n_estimators=N_ROUNDS),
    "RBoost": lambda: RBoostClassifier(n_estimators=N_ROUNDS),
    "RobustBoost": lambda: RobustBoostClassifier(n_estimators=N_ROUNDS),
    "RILBoost": lambda: RILBoostClassifier(n_estimators=N_ROUNDS),
    "HistTreeClassifier": lambda: HistTreeClassifier(max_depth=3),
    "HistTreeRegressor": lambda: HistTreeRegressor(max_depth=3),
}

_VALUES = st.sampled_from([0.0, -0.0, 1.0, -1.0, 1e-300, -1e-300, 1e300, -1e300, 0.5, 3.0])
_WEIGHTS = st.sampled_from([0.0, 1.0, 1e308, 1e-320, 1e-300, 1e300, 0.5, 7.0])


@st.composite
def problems(draw):
    """``(X, y, sample_weight)``; ``y`` has 1-5 classes of one label type."""
    n = draw(st.integers(1, 200))
    d = draw(st.integers(1, 10))
    kind = draw(st.sampled_from(["normal", "extreme", "duplicates", "integers"]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    if kind == "normal":
        X = rng.normal(size=(n, d))
    elif kind == "extreme":
        X = rng.choice(np.array([0.0, 1e-300, -1e300, 1e300, 1.0, -5.0]), size=(n, d))
    elif kind == "duplicates":
        X = np.repeat(rng.normal(size=(max(1, n // 4), d)), 4, axis=0)[:n]
        if X.shape[0] < n:
            X = np.vstack([X, X[: n - X.shape[0]]])
    else:
        X = rng.integers(-3, 4, size=(n, d)).astype(np.float64)
    if draw(st.booleans()):  # a constant column
        X[:, draw(st.integers(0, d - 1))] = draw(_VALUES)
    n_classes = draw(st.integers(1, 5))
    codes = rng.integers(0, n_classes, n)
    label = draw(st.sampled_from(["int", "str", "float", "bool"]))
    if label == "int":
        y = codes * 3 - 2
    elif label == "str":
        y = np.array(["a", "b", "c", "d", "e"])[codes]
    elif label == "float":
        y = codes * 0.5 - 1.0
    else:
        y = (codes % 2).astype(bool)
    weights = draw(st.sampled_from(["none", "uniform", "mixed"]))
    if weights == "none":
        sw = None
    elif weights == "uniform":
        sw = np.full(n, draw(_WEIGHTS))
    else:
        sw = np.array(draw(st.lists(_WEIGHTS, min_size=n, max_size=n)))
    return X, y, sw


def _check(make, X, y, sw):
    est = make()
    regressor = isinstance(est, HistTreeRegressor)
    if regressor:
        y = np.asarray(y == y[0], dtype=np.float64) * 2.0 - 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            est.fit(X, y, sample_weight=sw)
        except (ValueError, TypeError):
            return
    pred = est.predict(X)
    assert pred.shape == (X.shape[0],)
    if regressor:
        assert np.all(np.isfinite(pred))
        return
    assert np.all(np.isin(pred, est.classes_))
    proba = est.predict_proba(X)
    assert proba.shape == (X.shape[0], len(est.classes_))
    assert np.all(np.isfinite(proba))
    assert np.all((proba >= 0) & (proba <= 1))
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-9)
    if hasattr(est, "decision_function"):
        assert np.all(np.isfinite(est.decision_function(X)))


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_fuzz_estimator(name):
    """No crash other than ValueError/TypeError, finite outputs, valid probabilities."""

    @settings(settings.get_profile(PROFILE))
    @given(problems())
    def run(problem):
        _check(ESTIMATORS[name], *problem)

    run()
