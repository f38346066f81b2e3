"""RILBoost I and II (issue 5; SPEC §6 and §8D)."""

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_iris
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from robust_boosting.adaboost import AdaBoostClassifier
from robust_boosting.datasets import make_rilboost_gaussian, small_sample_split
from robust_boosting.rilboost import RILBoostClassifier


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _data(seed=0, n_per_class=30):
    return make_rilboost_gaussian(n_per_class, random_state=seed, shuffle=True)


# ------------------------------------------------------------------ epsilon = 0 is AdaBoost
@pytest.mark.parametrize("mixing", [0.0, 0.5, "I"])
def test_epsilon_zero_is_adaboost_with_the_same_svm(mixing):
    X, y = _data(0)
    ril = RILBoostClassifier(epsilon=0.0, mixing=mixing, C=2.0, gamma=0.3, weight_scale=1.0,
                             n_estimators=10).fit(X, y)
    ada = AdaBoostClassifier(estimator=SVC(C=2.0, gamma=0.3), n_estimators=10).fit(X, y)
    np.testing.assert_array_equal(ril.estimator_weights_, ada.estimator_weights_)
    np.testing.assert_array_equal(ril.decision_function(X), ada.decision_function(X))
    np.testing.assert_array_equal(ril.sample_weights_, ada.sample_weights_)
    assert ril.n_svm_solves_.tolist() == [1] * ril.n_estimators_


def test_epsilon_zero_default_scale_is_adaboost_with_C_times_n():
    X, y = _data(1)
    n = len(y)
    ril = RILBoostClassifier(epsilon=0.0, C=1.5, gamma=0.3).fit(X, y)
    ada = AdaBoostClassifier(estimator=SVC(C=1.5 * n, gamma=0.3), n_estimators=10).fit(X, y)
    np.testing.assert_allclose(ril.estimator_weights_, ada.estimator_weights_, rtol=1e-12)
    np.testing.assert_array_equal(ril.predict(X), ada.predict(X))
    # and the first weak learner is exactly SVC(C) on the unweighted data
    plain = SVC(C=1.5, gamma=0.3).fit(X, ril.classes_.searchsorted(y))
    np.testing.assert_allclose(ril.estimators_[0].decision_function(X),
                               plain.decision_function(X), atol=1e-8)


# ------------------------------------------------------------------ shortcut == enumeration
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    n_per_class=st.integers(4, 12),
    eps=st.sampled_from([0.05, 0.2, 0.45]),
    mixing=st.sampled_from([0.0, 0.5, 1.0]),
    strategy=st.sampled_from(["minimax", "minimin"]),
)
def test_shortcut_and_enumeration_give_the_same_model(seed, n_per_class, eps, mixing, strategy):
    X, y = _data(seed, n_per_class)
    params = dict(epsilon=eps, mixing=mixing, strategy=strategy, n_estimators=4, gamma=0.5,
                  random_state=seed)
    fast = RILBoostClassifier(search="shortcut", **params).fit(X, y)
    slow = RILBoostClassifier(search="enumerate", **params).fit(X, y)
    np.testing.assert_array_equal(fast.chosen_extreme_points_, slow.chosen_extreme_points_)
    np.testing.assert_array_equal(fast.estimator_weights_, slow.estimator_weights_)
    X_test, _ = _data(seed + 1, 20)
    np.testing.assert_array_equal(fast.decision_function(X_test), slow.decision_function(X_test))
    assert np.all(fast.n_svm_solves_ <= slow.n_svm_solves_)
    assert np.all(slow.n_svm_solves_ == len(y) + 1)


@pytest.mark.parametrize("strategy", ["minimax", "minimin"])
@pytest.mark.parametrize("mixing", [0.0, 0.5, 1.0])
def test_shortcut_and_enumeration_every_combination(strategy, mixing):
    X, y = _data(11, 10)
    params = dict(epsilon=0.15, mixing=mixing, strategy=strategy, n_estimators=5, random_state=0)
    fast = RILBoostClassifier(search="shortcut", **params).fit(X, y)
    slow = RILBoostClassifier(search="enumerate", **params).fit(X, y)
    np.testing.assert_array_equal(fast.chosen_extreme_points_, slow.chosen_extreme_points_)
    np.testing.assert_array_equal(fast.predict(X), slow.predict(X))
    np.testing.assert_array_equal(fast.estimator_weights_, slow.estimator_weights_)


# ------------------------------------------------------------------ the update rules
def _round_by_hand(X, y, p, eps, mixing, pi_index, estimator):
    """One round of SPEC §6 computed directly from the chosen learner and extreme point."""
    ys = np.where(y == 1, 1.0, -1.0)
    pi = (1 - eps) * p
    pi[pi_index] += eps
    b = mixing * p + (1 - mixing) * pi
    c = np.where(estimator.predict(X) == 1, 1.0, -1.0)
    e = b[c != ys].sum()
    alpha = 0.5 * np.log((1 - e) / e)
    p_new = b * np.exp(-alpha * ys * c)
    return alpha, p_new / p_new.sum()


@pytest.mark.parametrize("mixing", [0.0, 0.3, 1.0])
def test_error_and_update_follow_the_mixing_base(mixing):
    X, y = _data(2, 15)
    eps = 0.25
    model = RILBoostClassifier(epsilon=eps, mixing=mixing, n_estimators=3, gamma=0.5).fit(X, y)
    p = np.full(len(y), 1.0 / len(y))
    for t in range(model.n_estimators_):
        alpha, p = _round_by_hand(X, y, p, eps, mixing, model.chosen_extreme_points_[t],
                                  model.estimators_[t])
        assert model.estimator_weights_[t] == pytest.approx(alpha, rel=1e-10)
    np.testing.assert_allclose(model.sample_weights_, p, rtol=1e-9)


def test_rilboost_one_keeps_adaboost_weights():
    # a = 1: p is updated as in AdaBoost, p ∝ exp(-y F(x)) on the final score
    X, y = _data(3)
    model = RILBoostClassifier(epsilon=0.3, mixing="I", n_estimators=5, gamma=0.5).fit(X, y)
    margin = np.where(y == 1, 1.0, -1.0) * model.decision_function(X)
    w = np.exp(-margin)
    np.testing.assert_allclose(model.sample_weights_, w / w.sum(), rtol=1e-9)


def test_variant_names_and_recorded_rounds():
    X, y = _data(4)
    one = RILBoostClassifier(epsilon=0.2, mixing="I", gamma=0.5, random_state=0).fit(X, y)
    one_num = RILBoostClassifier(epsilon=0.2, mixing=1.0, gamma=0.5, random_state=0).fit(X, y)
    np.testing.assert_array_equal(one.decision_function(X), one_num.decision_function(X))
    two = RILBoostClassifier(epsilon=0.2, mixing="II", gamma=0.5).fit(X, y)
    for model in (one, two):
        rounds = model.n_estimators_
        assert model.chosen_extreme_points_.shape == (rounds,)
        assert model.n_svm_solves_.shape == (rounds,)
        assert model.base_solution_chosen_.dtype == bool
        assert np.all((0 <= model.chosen_extreme_points_) & (model.chosen_extreme_points_ < len(y)))
        assert np.all(model.n_svm_solves_ >= 1)


def test_minimin_mostly_takes_the_base_solution():
    X, y = _data(5)
    model = RILBoostClassifier(epsilon=0.2, strategy="minimin", gamma=0.5,
                               random_state=0).fit(X, y)
    assert model.base_solution_chosen_.all()
    # the ties are visited in a random order: a few solves until the first, far from
    # the n + 1 of the enumeration
    assert model.n_svm_solves_.mean() <= 0.1 * (len(y) + 1)


def test_any_classifier_with_sample_weight():
    X, y = _data(6, 15)
    tree = DecisionTreeClassifier(max_depth=2)
    model = RILBoostClassifier(estimator=tree, epsilon=0.2, n_estimators=3, random_state=0)
    model.fit(X, y)
    assert np.all(model.n_svm_solves_ == len(y))
    zero = RILBoostClassifier(estimator=tree, epsilon=0.0, n_estimators=3, random_state=0).fit(X, y)
    ada = AdaBoostClassifier(estimator=tree, n_estimators=3, random_state=0).fit(X, y)
    np.testing.assert_array_equal(zero.estimator_weights_, ada.estimator_weights_)
    np.testing.assert_array_equal(zero.n_svm_solves_, np.ones(zero.n_estimators_, dtype=int))


def test_multiclass_one_vs_rest():
    X, y = load_iris(return_X_y=True)
    model = RILBoostClassifier(epsilon=0.1, n_estimators=3, gamma=0.5).fit(X, y)
    assert model.score(X, y) > 0.9
    assert len(model.chosen_extreme_points_) == 3
    assert model.predict_proba(X).shape == (150, 3)


@pytest.mark.parametrize(
    ("params", "error", "match"),
    [
        ({"epsilon": 1.0}, ValueError, "epsilon"),
        ({"epsilon": -0.1}, ValueError, "epsilon"),
        ({"epsilon": "0.1"}, TypeError, "epsilon"),
        ({"mixing": 1.5}, ValueError, "mixing"),
        ({"mixing": "III"}, ValueError, "mixing"),
        ({"strategy": "maximax"}, ValueError, "strategy"),
        ({"search": "fast"}, ValueError, "search"),
        ({"C": 0.0}, ValueError, "C"),
        ({"gamma": "big"}, ValueError, "gamma"),
        ({"gamma": -1.0}, ValueError, "gamma"),
        ({"weight_scale": "n"}, ValueError, "weight_scale"),
        ({"weight_scale": 0.0}, ValueError, "weight_scale"),
        ({"n_estimators": 0}, ValueError, "n_estimators"),
        ({"search": "shortcut", "estimator": DecisionTreeClassifier()}, ValueError, "shortcut"),
    ],
)
def test_bad_parameters(params, error, match):
    X, y = _data(7, 5)
    with pytest.raises(error, match=match):
        RILBoostClassifier(**params).fit(X, y)


# ------------------------------------------------------------------ SPEC §8D (Fig. 13)
EPSILONS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)


def epsilon_curve(n_train, mixing, n_draws, epsilons=EPSILONS, seed=0):
    """Mean test accuracy against epsilon on RILBoost's synthetic set (SPEC §8D, Fig. 13).

    Per draw: 100 + 100 points from the two Gaussians, a balanced training set of
    ``n_train``, the rest as test set, standardised on the training part; T = 10
    rounds, RBF kernel parameter 2 (``gamma = 2``), ``C = 1``. Returns the
    ``(n_draws, len(epsilons))`` accuracies (paired: every epsilon sees the same split).
    """
    acc = np.empty((n_draws, len(epsilons)))
    for d in range(n_draws):
        X, y = make_rilboost_gaussian(100, random_state=1000 + seed + d)
        train, test = small_sample_split(y, n_train, random_state=seed + d)
        scaler = StandardScaler().fit(X[train])
        X_train, X_test = scaler.transform(X[train]), scaler.transform(X[test])
        for j, eps in enumerate(epsilons):
            model = RILBoostClassifier(n_estimators=10, epsilon=eps, mixing=mixing, gamma=2.0,
                                       C=1.0, random_state=0).fit(X_train, y[train])
            acc[d, j] = np.mean(model.predict(X_test) == y[test])
    return acc


def test_epsilon_study_reduced():
    acc = epsilon_curve(20, "II", n_draws=4, epsilons=(0.0, 0.1, 0.3))
    mean = acc.mean(axis=0)
    assert np.all((0.35 < mean) & (mean < 0.75))  # Bayes accuracy of the set is about 0.59


@pytest.mark.slow
@pytest.mark.parametrize("n_train", [20, 40])
@pytest.mark.parametrize("mixing", ["I", "II"])
def test_epsilon_study_full(n_train, mixing):
    acc = epsilon_curve(n_train, mixing, n_draws=100)
    mean = acc.mean(axis=0)
    print(f"\n{mixing} n={n_train}: " + " ".join(f"{e:.2f}:{m:.4f}" for e, m in zip(EPSILONS, mean, strict=True)))
    assert np.all((0.45 < mean) & (mean < 0.65))
    if n_train == 20 and mixing == "II" and not mean[1:].max() > mean[0]:
        # the paper's Fig. 13 finding (RILBoost II at its best epsilon beats epsilon = 0)
        # was not reproduced with this protocol (C = 1, gamma = 2 on standardised data):
        # the curve is flat within about one standard error of the paired differences
        pytest.xfail("Fig. 13 finding not reproduced: best epsilon is 0 for RILBoost II, n=20")
