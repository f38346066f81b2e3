"""RealBoost, GentleBoost and LogitBoost (SPEC §4) against direct transcriptions of FHT 2000."""

import warnings

import numpy as np
import pytest
from scipy.special import expit
from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from robust_boosting import BoostingStoppedWarning
from robust_boosting.classical import (
    GentleBoostClassifier,
    LogitBoostClassifier,
    RealBoostClassifier,
)
from robust_boosting.robust import RBoostClassifier, SavageBoostClassifier


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)


def _noisy(n=300, seed=0, rate=0.15):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = (X[:, 0] + X[:, 1] ** 2 - 1 > 0).astype(int)
    flip = rng.random(n) < rate
    return X, np.where(flip, 1 - y, y)


# ---------------------------------------------------------------- references
def _reference_real(X, y01, T, weight, clip, depth=1):
    """FHT Algorithm 2 / SavageBoost Algorithm 1 written out, with weights weight(m)."""
    y = 2.0 * y01 - 1.0
    F = np.zeros(len(y))
    for t in range(T):
        w = weight(y * F)
        w = w / w.sum()
        tree = DecisionTreeClassifier(max_depth=depth, random_state=t).fit(X, y01, sample_weight=w)
        p = np.clip(tree.predict_proba(X)[:, 1], clip, 1 - clip)
        F = F + 0.5 * np.log(p / (1 - p))
    return F


def _reference_gentle(X, y01, T, weight, depth=1):
    """FHT Algorithm 4 written out: weighted least squares of y, F += f."""
    y = 2.0 * y01 - 1.0
    F = np.zeros(len(y))
    for t in range(T):
        w = weight(y * F)
        w = w / w.sum()
        reg = DecisionTreeRegressor(max_depth=depth, random_state=t).fit(X, y, sample_weight=w)
        F = F + reg.predict(X)
    return F


def _reference_logit(X, y01, T, depth=1, z_max=4.0):
    """FHT Algorithm 3 (two classes) written out."""
    F = np.zeros(len(y01))
    for t in range(T):
        p = expit(2 * F)
        w = np.maximum(p * (1 - p), 2 * np.finfo(float).eps)
        z = np.clip((y01 - p) / (p * (1 - p)), -z_max, z_max)
        reg = DecisionTreeRegressor(max_depth=depth, random_state=t).fit(X, z, sample_weight=w / w.sum())
        F = F + 0.5 * reg.predict(X)
    return F


EXP = lambda m: np.exp(-m)  # noqa: E731
SAV = lambda m: 4 * np.exp(2 * m) / (1 + np.exp(2 * m)) ** 3  # noqa: E731
SAV2 = lambda m: 2 * np.exp(m) / (1 + np.exp(m)) ** 3  # noqa: E731


@pytest.mark.parametrize(
    "make,reference",
    [
        (lambda: RealBoostClassifier(DecisionTreeClassifier(max_depth=2), n_estimators=15,
                                     clip=1e-3),
         lambda X, y: _reference_real(X, y, 15, EXP, 1e-3, depth=2)),
        (lambda: SavageBoostClassifier(DecisionTreeClassifier(max_depth=2), n_estimators=15,
                                       clip=1e-4),
         lambda X, y: _reference_real(X, y, 15, SAV, 1e-4, depth=2)),
        (lambda: GentleBoostClassifier(DecisionTreeRegressor(max_depth=2), n_estimators=15),
         lambda X, y: _reference_gentle(X, y, 15, EXP, depth=2)),
        (lambda: RBoostClassifier(DecisionTreeRegressor(max_depth=2), n_estimators=15),
         lambda X, y: _reference_gentle(X, y, 15, SAV2, depth=2)),
        (lambda: LogitBoostClassifier(DecisionTreeRegressor(max_depth=2), n_estimators=15),
         lambda X, y: _reference_logit(X, y, 15, depth=2)),
    ],
    ids=["real", "savage", "gentle", "rboost", "logit"],
)
def test_matches_a_direct_transcription_of_the_algorithm(make, reference):
    X, y = _noisy(250, seed=3)
    model = make().set_params(random_state=0).fit(X, y)
    assert model.n_estimators_ == 15
    np.testing.assert_allclose(model.decision_function(X), reference(X, y), rtol=1e-9, atol=1e-9)


def test_gentleboost_round_outputs_lie_in_minus_one_one():
    X, y = _noisy(300, seed=1, rate=0.2)
    for estimator in (DecisionTreeRegressor(max_depth=3), LinearRegression()):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", BoostingStoppedWarning)
            model = GentleBoostClassifier(estimator, n_estimators=30, random_state=0).fit(X, y)
        step = model._make_step()
        outputs = np.array([step.output(est, X, 2) for est in model.estimators_])
        assert np.all(np.abs(outputs) <= 1.0)
        if isinstance(estimator, DecisionTreeRegressor):
            assert np.abs(outputs).max() > 0.5  # the bound is not trivially met
        else:  # a linear fit of +-1 overshoots: the step clips it
            raw = np.array([est.predict(X) for est in model.estimators_])
            assert np.abs(raw).max() > 1.0
        np.testing.assert_allclose(model.decision_function(X), outputs.sum(axis=0), atol=1e-12)


@pytest.mark.parametrize("cls", [RealBoostClassifier, SavageBoostClassifier])
@pytest.mark.parametrize("clip", [1e-4, 1e-2])
def test_real_steps_clip_pure_leaves(cls, clip):
    # the left third is pure class 0 and the rest 80 % class 1: the first stump splits
    # at 1/3 and its left leaf has p = 0 exactly
    X = np.linspace(0, 1, 90).reshape(-1, 1)
    rng = np.random.default_rng(0)
    y = np.where(X[:, 0] < 1 / 3, 0, (rng.random(90) < 0.8).astype(int))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BoostingStoppedWarning)
        model = cls(n_estimators=5, clip=clip, random_state=0).fit(X, y)
    bound = 0.5 * np.log((1 - clip) / clip)
    step = model._make_step()
    first = step.output(model.estimators_[0], X, 2)
    assert np.all(np.isfinite(first))
    # the pure leaf gets exactly the clipped value
    assert first[0] == pytest.approx(-bound, rel=1e-12)
    for est in model.estimators_:
        assert np.all(np.abs(step.output(est, X, 2)) <= bound + 1e-12)
    assert np.all(np.isfinite(model.decision_function(X)))
    assert np.all(np.isfinite(model.predict_proba(X)))


def test_logitboost_working_response_and_weights_are_fht():
    X, y = _noisy(200, seed=2)
    model = LogitBoostClassifier(DecisionTreeRegressor(max_depth=3), n_estimators=8,
                                 random_state=0).fit(X, y)
    F = model.decision_function(X)
    p = expit(2 * F)
    state = _state(y, F)
    step = model._make_step()
    z_ref = np.clip((y - p) / (p * (1 - p)), -4, 4)
    np.testing.assert_allclose(step.working_response(state), z_ref, rtol=1e-9)
    np.testing.assert_allclose(np.exp(step.log_weights(state)), p * (1 - p), rtol=1e-9)
    # the weights the loop uses (no log): the same, to rounding (the reference loses
    # digits to 1 - p when p is near 1)
    np.testing.assert_allclose(step.bounded_weights(state), p * (1 - p), rtol=1e-9)
    # far out: z clipped, weights floored, no overflow
    far = _state(np.array([1, 0, 1, 0]), np.array([-500.0, 500.0, 500.0, -500.0]))
    assert np.all(np.abs(step.working_response(far)) <= 4.0)
    assert np.all(np.exp(step.log_weights(far)) >= 2 * np.finfo(float).eps * (1 - 1e-12))
    np.testing.assert_array_equal(step.bounded_weights(far), 2 * np.finfo(float).eps)
    nan = _state(np.array([1]), np.array([np.nan]))
    assert np.isnan(step.bounded_weights(nan)).all() == np.isnan(step.log_weights(nan)).all()
    np.testing.assert_allclose(model.estimator_weights_, 0.5)


def _state(y01, F):
    from robust_boosting._boosting import BoostingState

    y01 = np.asarray(y01)
    return BoostingState(X=None, y=2.0 * y01 - 1.0, y_idx=y01.astype(np.intp), n_classes=2,
                         sample_weight=np.full(len(y01), 1 / len(y01)), raw=np.asarray(F, float))


@pytest.mark.parametrize(
    "cls", [RealBoostClassifier, GentleBoostClassifier, LogitBoostClassifier,
            SavageBoostClassifier, RBoostClassifier]
)
def test_accuracy_on_breast_cancer(cls, cancer):
    # mean over five stratified splits: one 171-sample test set moves by +-3 points
    X, y = load_breast_cancer(return_X_y=True)
    scores = []
    for seed in range(5):
        X_a, X_b, y_a, y_b = train_test_split(X, y, test_size=0.3, random_state=seed, stratify=y)
        scores.append(cls(n_estimators=60, random_state=0).fit(X_a, y_a).score(X_b, y_b))
    assert np.mean(scores) > 0.93
    X_tr, X_te, y_tr, y_te = cancer
    model = cls(n_estimators=60, random_state=0).fit(X_tr, y_tr)
    # staged predictions end at predict, and the proba rows sum to one
    *_, last = model.staged_predict(X_te)
    np.testing.assert_array_equal(last, model.predict(X_te))
    np.testing.assert_allclose(model.predict_proba(X_te).sum(axis=1), 1.0)


@pytest.mark.parametrize(
    "cls", [RealBoostClassifier, GentleBoostClassifier, SavageBoostClassifier, RBoostClassifier]
)
def test_multiclass_uses_the_shared_one_vs_rest_path(cls):
    X, y = load_wine(return_X_y=True)
    model = cls(n_estimators=20, random_state=0).fit(X, y)
    assert model._ovr
    assert len(model.estimators_) == 3 and len(model.stopping_reason_) == 3
    assert model.score(X, y) > 0.95
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(model.classes_[proba.argmax(axis=1)], model.predict(X))
    # each class's ensemble is the binary algorithm on "class k vs rest"
    binary = cls(n_estimators=20, random_state=0)
    k = 1
    # the one-vs-rest loop draws learner seeds from one stream class after class, so
    # with seed-independent stumps the binary fit reproduces the class-k ensemble
    binary.fit(X, (y == k).astype(int))
    np.testing.assert_allclose(model.decision_function(X)[:, k], binary.decision_function(X),
                               atol=1e-10)


def test_sample_weight_scaling_and_random_state_are_respected():
    X, y = _noisy(200, seed=4)
    sw = np.random.default_rng(0).uniform(0.5, 2.0, len(y))
    for cls in (RealBoostClassifier, LogitBoostClassifier, GentleBoostClassifier):
        a = cls(n_estimators=10, random_state=1).fit(X, y, sample_weight=sw)
        b = cls(n_estimators=10, random_state=1).fit(X, y, sample_weight=3 * sw)
        c = cls(n_estimators=10, random_state=1).fit(X, y)
        np.testing.assert_allclose(a.decision_function(X), b.decision_function(X), rtol=1e-10)
        assert not np.allclose(a.decision_function(X), c.decision_function(X))


@pytest.mark.parametrize("cls", [RealBoostClassifier, LogitBoostClassifier,
                                 GentleBoostClassifier, SavageBoostClassifier, RBoostClassifier])
def test_many_rounds_with_deep_trees_stay_finite(cls):
    X, y = _noisy(150, seed=5, rate=0.3)
    deep = (DecisionTreeClassifier(max_depth=6) if cls in (RealBoostClassifier, SavageBoostClassifier)
            else DecisionTreeRegressor(max_depth=6))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BoostingStoppedWarning)
        model = cls(deep, n_estimators=300, random_state=0).fit(X, y)
    assert np.all(np.isfinite(model.decision_function(X)))
    assert np.all(np.isfinite(model.sample_weights_))
    assert model.sample_weights_.sum() == pytest.approx(1.0)
