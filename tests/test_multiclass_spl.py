"""Multiclass self-paced loss: K = 2 is binary SPLBoost, the latent objective is monotone."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification

from robust_boosting import AdaBoostClassifier, SPLBoostClassifier
from robust_boosting._boosting import BoostingState
from robust_boosting.noise import flip_labels


def _state(raw, y_idx):
    k = raw.shape[1]
    return BoostingState(X=None, y=y_idx, y_idx=y_idx, n_classes=k,
                         sample_weight=np.full(raw.shape[0], 1.0 / raw.shape[0]), raw=raw)


def test_two_column_margin_is_the_binary_margin():
    """For K = 2 the multiclass margin 2 (S_y - mean S) + log(K/2) is y F exactly."""
    rng = np.random.default_rng(0)
    raw = rng.normal(size=(50, 2))
    y_idx = rng.integers(0, 2, 50)
    f = raw[:, 1] - raw[:, 0]
    np.testing.assert_allclose(_state(raw, y_idx).margins, np.where(y_idx == 1, f, -f),
                               rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("k", [3, 5])
def test_samme_coefficient_minimises_the_multiclass_loss(k):
    """The SAMME alpha is the exact minimiser of sum_i w_i exp(-margin_i) along the learner."""
    rng = np.random.default_rng(k)
    n = 200
    y_idx = rng.integers(0, k, n)
    raw = rng.normal(size=(n, k))
    pred = np.where(rng.random(n) < 0.6, y_idx, rng.integers(0, k, n))
    w = np.exp(-_state(raw, y_idx).margins)
    w /= w.sum()
    err = w[pred != y_idx].sum()
    alpha = 0.5 * (np.log((1 - err) / err) + np.log(k - 1))
    h = np.eye(k)[pred]

    def risk(a):
        return np.sum(np.exp(-_state(raw + a * h, y_idx).margins))

    assert risk(alpha) <= min(risk(alpha * 0.99), risk(alpha * 1.01))
    assert risk(alpha) < risk(0.0)


def test_binary_splboost_unchanged():
    """Binary SPLBoost never uses the multiclass margin: its fit equals a reference fit."""
    X, y = make_classification(300, 6, random_state=1)
    y, _ = flip_labels(y, 0.2, random_state=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = SPLBoostClassifier(n_estimators=40, regularizer="linear", age=2.0).fit(X, y)
    # the margin of the binary path is y F
    F = a.decision_function(X)
    yy = 2.0 * y - 1.0
    age = a.final_age_  # the age in force at the end (it may have grown, age_growth)
    v = np.where(np.exp(-yy * F) < age, 1.0 - np.exp(-yy * F) / age, 0.0)
    assert a.age_ == 2.0
    np.testing.assert_allclose(a.self_paced_weights_, v, atol=1e-12)


@pytest.mark.parametrize("k", [3, 5])
@pytest.mark.parametrize("regularizer", ["hard", "linear", "mixture"])
def test_latent_objective_monotone_after_warm_start(k, regularizer):
    """SPLBoost paper Theorem 1 carries over to SAMME with the multiclass loss."""
    X, y = make_classification(400, 10, n_informative=6, n_classes=k, n_clusters_per_class=1,
                               random_state=k)
    y, _ = flip_labels(y, 0.2, classes=np.arange(k), random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = SPLBoostClassifier(n_estimators=60, regularizer=regularizer,
                               inner_iterations="auto").fit(X, y)
    obj = m.latent_objective_[m.warm_start_rounds_:]
    assert obj.size > 10
    assert np.all(np.diff(obj) <= 1e-12 * np.abs(obj[:-1]) + 1e-15)


@pytest.mark.parametrize("k", [3, 5])
def test_clean_multiclass_not_excluded(k):
    """Reduced-size acceptance: clean multiclass data stays selected, error near AdaBoost's."""
    from sklearn.model_selection import train_test_split

    X, y = make_classification(900, 20, n_informative=10, n_classes=k, n_clusters_per_class=1,
                               random_state=0)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ada = AdaBoostClassifier(n_estimators=80).fit(Xtr, ytr)
        spl = SPLBoostClassifier(n_estimators=80).fit(Xtr, ytr)
    assert spl.n_estimators_ == 80
    assert spl.excluded_samples_.size < 0.05 * len(ytr)
    assert np.mean(spl.predict(Xte) != yte) <= np.mean(ada.predict(Xte) != yte) + 0.02


@pytest.mark.parametrize("pair", ["logit", "gentle"])
def test_one_vs_rest_spl_variants_behave(pair):
    """SPLLogitBoost (native) / SPLGentleBoost (one-vs-rest) on 3 clean classes: every round is run and
    the error stays near the plain booster's (0.05: 270 test samples, 40 rounds; on the full
    reproducer, 2000 samples and 100 rounds, both are within 0.001 of it)."""
    from sklearn.model_selection import train_test_split

    from robust_boosting import (
        GentleBoostClassifier,
        LogitBoostClassifier,
        SPLGentleBoostClassifier,
        SPLLogitBoostClassifier,
    )

    base, spl = {"logit": (LogitBoostClassifier, SPLLogitBoostClassifier),
                 "gentle": (GentleBoostClassifier, SPLGentleBoostClassifier)}[pair]
    X, y = make_classification(900, 20, n_informative=10, n_classes=3, n_clusters_per_class=1,
                               random_state=0)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        b = base(n_estimators=40).fit(Xtr, ytr)
        s = spl(n_estimators=40).fit(Xtr, ytr)
    assert s.n_estimators_ == (40 if pair == "logit" else [40, 40, 40])
    assert np.mean(s.predict(Xte) != yte) <= np.mean(b.predict(Xte) != yte) + 0.05


def test_auto_warm_start_is_three_per_class_beyond_the_first():
    """warm_start_rounds="auto": 3 rounds for two classes (bit-identical to the former default
    3), 3 (K - 1) for a native K-class step; one-vs-rest problems are binary (3 each)."""
    from robust_boosting import SPLGentleBoostClassifier, SPLLogitBoostClassifier
    from robust_boosting.self_paced import default_warm_start_rounds

    assert [default_warm_start_rounds(k) for k in (2, 3, 5, 7)] == [3, 6, 12, 18]
    X, y = make_classification(300, 8, n_informative=5, n_classes=3, n_clusters_per_class=1,
                               random_state=2)
    y, _ = flip_labels(y, 0.2, classes=np.arange(3), random_state=2)
    yb = (y == 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        auto2 = SPLBoostClassifier(n_estimators=30, random_state=0).fit(X, yb)
        three = SPLBoostClassifier(n_estimators=30, warm_start_rounds=3, random_state=0).fit(X, yb)
        auto3 = SPLBoostClassifier(n_estimators=30, random_state=0).fit(X, y)
        six = SPLBoostClassifier(n_estimators=30, warm_start_rounds=6, random_state=0).fit(X, y)
        ovr = SPLGentleBoostClassifier(n_estimators=8, warm_start_rounds="auto").fit(X, y)
        logit = SPLLogitBoostClassifier(n_estimators=8, warm_start_rounds="auto").fit(X, y)
    assert auto2.warm_start_rounds_ == 3 and auto3.warm_start_rounds_ == 6
    assert ovr.warm_start_rounds_ == [3, 3, 3]
    assert logit.warm_start_rounds_ == 6  # native multiclass LogitBoost
    np.testing.assert_array_equal(auto2.decision_function(X), three.decision_function(X))
    np.testing.assert_array_equal(auto3.decision_function(X), six.decision_function(X))
    # every sample is kept (v = 1) through the warm start, and only then can be dropped
    assert np.all(auto3.n_selected_[:6] == len(y))
    assert auto3.n_selected_[6:].min() < len(y)


@pytest.mark.parametrize("bad", ["auto3", "", 1.5, -1])
def test_warm_start_rounds_must_be_an_integer_or_auto(bad):
    with pytest.raises((ValueError, TypeError), match="warm_start_rounds"):
        SPLBoostClassifier(warm_start_rounds=bad).fit([[0.0], [1.0], [2.0], [3.0]], [0, 1, 0, 1])
