"""Self-paced LogitBoost and GentleBoost (SPEC §2, last paragraphs)."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.tree import DecisionTreeRegressor

from robust_boosting import BoostingStoppedWarning
from robust_boosting.classical import (
    GentleBoostClassifier,
    LogitBoostClassifier,
    SPLGentleBoostClassifier,
    SPLLogitBoostClassifier,
)
from robust_boosting.self_paced import get_regularizer

PAIRS = [(SPLLogitBoostClassifier, LogitBoostClassifier),
         (SPLGentleBoostClassifier, GentleBoostClassifier)]
IDS = ["logit", "gentle"]


@pytest.mark.parametrize("spl_cls,plain_cls", PAIRS, ids=IDS)
@pytest.mark.parametrize("loader", [load_breast_cancer, load_wine], ids=["binary", "3-class"])
def test_infinite_age_is_the_plain_algorithm(spl_cls, plain_cls, loader):
    X, y = loader(return_X_y=True)
    tree = DecisionTreeRegressor(max_depth=2)
    spl = spl_cls(tree, n_estimators=30, age=np.inf, random_state=0).fit(X, y)
    plain = plain_cls(tree, n_estimators=30, random_state=0).fit(X, y)
    np.testing.assert_array_equal(spl.predict(X), plain.predict(X))
    np.testing.assert_array_equal(spl.decision_function(X), plain.decision_function(X))
    if loader is load_breast_cancer:
        np.testing.assert_array_equal(spl.self_paced_weights_, 1.0)
        np.testing.assert_array_equal(spl.sample_weights_, plain.sample_weights_)
    else:
        for v in spl.self_paced_weights_:
            np.testing.assert_array_equal(v, 1.0)


def _noisy(seed=0, n=300, rate=0.2):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] - 0.5 * X[:, 1] > 0).astype(int)
    flipped = rng.random(n) < rate
    return X, np.where(flipped, 1 - y, y), flipped


@pytest.mark.parametrize("spl_cls", [SPLLogitBoostClassifier, SPLGentleBoostClassifier], ids=IDS)
@pytest.mark.parametrize("regularizer", ["hard", "linear", "lowerconvex"])
def test_finite_age_reports_the_latent_objective(spl_cls, regularizer):
    X, y, flipped = _noisy()
    age = 1.5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BoostingStoppedWarning)
        model = spl_cls(DecisionTreeRegressor(max_depth=3), n_estimators=40, age=age,
                        regularizer=regularizer, random_state=0).fit(X, y)
    objective = model.latent_objective_
    assert objective.shape == (model.n_estimators_,)
    assert np.all(np.isfinite(objective))
    # the last value is sum_i s_i F_age(loss_i) at the final scores, with the algorithm's loss
    step = model._make_step()
    margins = np.where(y == 1, 1.0, -1.0) * model.decision_function(X)
    latent = get_regularizer(regularizer).latent_loss(step.sample_loss(margins), age)
    assert objective[-1] == pytest.approx(latent.mean(), rel=1e-10)
    # the loss is the wrapped algorithm's own: logistic for LogitBoost, exponential for Gentle
    expected = (np.log1p(np.exp(-2 * margins)) if spl_cls is SPLLogitBoostClassifier
                else np.exp(-margins))
    np.testing.assert_allclose(step.sample_loss(margins), expected, rtol=1e-10)
    # self-paced weighting drops samples, mostly flipped ones
    if regularizer == "hard":
        excluded = model.excluded_samples_
        assert excluded.size > 0
        assert flipped[excluded].mean() > 0.6
    assert np.all((model.self_paced_weights_ >= 0) & (model.self_paced_weights_ <= 1))


def test_self_paced_weights_multiply_the_algorithms_own_weights():
    X, y, _ = _noisy(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BoostingStoppedWarning)
        model = SPLLogitBoostClassifier(n_estimators=15, age=1.0, random_state=0).fit(X, y)
    F = model.decision_function(X)
    p = 1 / (1 + np.exp(-2 * F))
    w = model.self_paced_weights_ * p * (1 - p)
    np.testing.assert_allclose(model.sample_weights_, w / w.sum(), rtol=1e-9)


@pytest.mark.parametrize("spl_cls", [SPLLogitBoostClassifier, SPLGentleBoostClassifier], ids=IDS)
@pytest.mark.parametrize(
    "params,error,match",
    [
        ({"age": 0.0}, ValueError, "age must be > 0"),
        ({"age": "old"}, TypeError, "age must be a real number"),
        ({"regularizer": "soft"}, ValueError, "Unknown SP-regularizer"),
        ({"inner_iterations": 0}, ValueError, "inner_iterations must be >= 1"),
        ({"warm_start_rounds": -1}, ValueError, "warm_start_rounds must be >= 0"),
        ({"warm_start_age": np.nan}, ValueError, "warm_start_age must be finite"),
    ],
)
def test_shared_self_paced_parameter_validation(spl_cls, params, error, match):
    X, y, _ = _noisy(2, n=50)
    with pytest.raises(error, match=match):
        spl_cls(**params).fit(X, y)
