"""No collapse: learners perfect only on the selected samples neither end nor dominate a model;
extreme but finite sample weights give finite outputs."""

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import make_classification

from robust_boosting import (
    AdaBoostClassifier,
    GentleBoostClassifier,
    HistTreeClassifier,
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
from robust_boosting._boosting import ERROR_FLOOR
from robust_boosting.self_paced import AGE_REGULARIZER_NAMES

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from reliability_tables import regularizer_table  # noqa: E402

BOOSTERS = [AdaBoostClassifier, SPLBoostClassifier, RealBoostClassifier, GentleBoostClassifier,
            LogitBoostClassifier, SPLLogitBoostClassifier, SPLGentleBoostClassifier,
            SavageBoostClassifier, RBoostClassifier, RobustBoostClassifier, RILBoostClassifier]


def _fit(est, X, y, sw=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return est.fit(X, y, sample_weight=sw)


def test_perfect_only_on_selected_samples_gets_a_bounded_coefficient():
    """A stump exact on the samples of positive boosting weight but not on every sample."""
    X = np.arange(10.0).reshape(-1, 1)
    y = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1, 0])  # the last sample breaks the threshold
    # hard self-paced weights with a tiny age exclude it after the warm start
    m = _fit(SPLBoostClassifier(n_estimators=50, age=1.0, warm_start_rounds=1), X, y)
    alpha_floor = 0.5 * np.log((1 - ERROR_FLOOR) / ERROR_FLOOR)
    assert np.all(m.estimator_weights_ < 0.5 * alpha_floor)
    if "perfect" in m.stopping_reason_:
        assert "perfect only on the samples" in m.stopping_reason_


def test_genuinely_perfect_learner_still_decides():
    """AdaBoost keeps a learner exact on every sample at alpha(ERROR_FLOOR) and stops."""
    X = np.arange(10.0).reshape(-1, 1)
    y = (X[:, 0] > 4).astype(int)
    m = _fit(AdaBoostClassifier(n_estimators=10), X, y)
    assert m.n_estimators_ == 1
    assert m.stopping_reason_.startswith("perfect weak learner")
    assert m.estimator_weights_[0] > 10


@pytest.mark.parametrize("regularizer", ["linear", "polynomial", "mixture", "lowerconvex"])
def test_soft_regularizers_do_not_collapse_binary_noise(regularizer):
    """Reduced version of the issue's reproducer: no coefficient from the error floor."""
    X, y = make_classification(600, 20, n_informative=10, random_state=0)
    rng = np.random.default_rng(0)
    flip = rng.random(600) < 0.3
    y = np.where(flip, 1 - y, y)
    m = _fit(SPLBoostClassifier(n_estimators=60, regularizer=regularizer), X, y)
    assert np.max(m.estimator_weights_) < 5.0


@pytest.mark.parametrize("w", [1e308, 1e300, 1e-300, 1e-320, 5e-324])
@pytest.mark.parametrize("cls", BOOSTERS + [HistTreeClassifier])
def test_extreme_uniform_weights_equal_unit_weights(cls, w):
    """Only weight ratios matter: uniform huge or tiny weights act as no weights."""
    X = np.arange(20.0).reshape(-1, 1)
    y = np.arange(20) % 2
    kw = {} if cls is HistTreeClassifier else {"n_estimators": 5}
    ref = _fit(cls(**kw), X, y)
    m = _fit(cls(**kw), X, y, np.full(20, w))
    proba = m.predict_proba(X)
    assert np.all(np.isfinite(proba))
    np.testing.assert_array_equal(m.predict(X), ref.predict(X))
    np.testing.assert_allclose(proba, ref.predict_proba(X), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("cls", [AdaBoostClassifier, HistTreeClassifier])
def test_mixed_extreme_weights_are_finite(cls):
    X, y = make_classification(100, 4, random_state=0)
    sw = np.where(np.arange(100) % 3 == 0, 1e308, np.where(np.arange(100) % 3 == 1, 1e-320, 0.0))
    m = _fit(cls(), X, y, sw)
    assert np.all(np.isfinite(m.predict_proba(X)))


@pytest.mark.parametrize("bad", [np.inf, np.nan, -1.0])
def test_non_finite_or_negative_weights_are_refused(bad):
    X = np.arange(20.0).reshape(-1, 1)
    y = np.arange(20) % 2
    sw = np.ones(20)
    sw[3] = bad
    for cls in (AdaBoostClassifier, HistTreeClassifier):
        with pytest.raises(ValueError):
            cls().fit(X, y, sample_weight=sw)


def _check_table(rows, strict):
    """``strict`` cells: mean SPLBoost error <= AdaBoost's + 0.01; the others: not
    significantly above it (the paired difference's excess over 0.01 is below 2 se)."""
    bad = []
    for reg, k, noise, ada, spl, _, _, diff_se in rows:
        excess = spl - ada - 0.01
        if excess > 0 and (strict(k, noise) or excess > 2 * diff_se):
            bad.append((reg, k, noise, round(ada, 4), round(spl, 4), round(diff_se, 4)))
    assert not bad, bad


def test_regularizer_table_reduced():
    """Every regularizer at its default age, binary and K = 3, 0 and 30 % flips (reduced
    size: 1 seed, 60 rounds, n = 700): no regularizer is more than 0.03 worse than
    AdaBoost on two classes (at the former common age 2 the soft ones collapsed and were
    up to 0.24 worse), nor 0.05 on three (one seed: SAMME's path varies by about 0.03)."""
    rows = regularizer_table(seeds=[0], n_estimators=60, n_samples=700)
    assert {r[0] for r in rows} == set(AGE_REGULARIZER_NAMES)
    bad = [r[:5] for r in rows if r[4] > r[3] + (0.03 if r[1] == 2 else 0.05)]
    assert not bad, bad


@pytest.mark.slow
def test_regularizer_table_full():
    """The acceptance table (5 seeds, 200 rounds, n = 2000): every binary cell and every
    cell with 30 % flips within AdaBoost's error + 0.01; the clean three-class cells,
    where a 1 % perturbation of AdaBoost's own weights moves its error by up to 0.03 per
    seed, not significantly above it (docs/reliability.md)."""
    _check_table(regularizer_table(), strict=lambda k, noise: k == 2 or noise > 0)


@pytest.mark.slow
def test_regularizer_table_three_classes_20_seeds():
    """The verdict rule of docs/reliability.md: on 20 seeds (0-19) every three-class cell,
    clean or with 30 % flips, is within AdaBoost's error + 0.01. With the former warm start
    of 3 rounds for every K (``warm_start_rounds=3``) hard and upperconvex were at +0.011."""
    _check_table(regularizer_table(classes=(3,), seeds=range(20)), strict=lambda k, noise: True)


class NotSensible(AssertionError):
    """A long run stayed finite but stopped predicting well."""


_RIL_DRIFT = pytest.mark.xfail(
    raises=NotSensible, strict=True,
    reason="the published algorithm, not an implementation error: RILBoost II at its "
           "default epsilon = 0.1 drifts to a constant prediction as rounds accumulate "
           "(agreement with the clean labels 0.87 after 10 rounds, 0.58 after 100, 0.50 "
           "after 500; 0.94 throughout with epsilon = 0). Utkin & Zhuk (2014) Alg. 5 "
           "scores the learner on pi = (1 - eps) p + eps e_k0, the distribution it was "
           "fitted on; it classifies k0 correctly (500 of 500 rounds), so e = (1 - eps) "
           "e_p and a chance-level learner gets alpha = artanh(eps) = 0.1003 and never "
           "triggers the stop e > 1/2. From round 11 the concentrated weights (effective "
           "sample size 9-38) give constant learners (435 of 500), each with "
           "alpha = 0.1003, whose votes (net 19.1) outweigh all others (8.0); "
           "docs/reliability.md. The paper runs about 10 rounds")


@pytest.mark.slow
@pytest.mark.parametrize("cls", [
    pytest.param(c, marks=_RIL_DRIFT) if c is RILBoostClassifier else c for c in BOOSTERS])
def test_5000_rounds(cls):
    """A long run of every booster stays finite and sensible (binary, 20 % flips)."""
    X, y = make_classification(300, 5, random_state=0)
    flipped = np.random.default_rng(0).random(300) < 0.2
    y = np.where(flipped, 1 - y, y)
    m = _fit(cls(n_estimators=5000), X, y)
    proba = m.predict_proba(X)
    assert np.all(np.isfinite(proba)) and np.all((proba >= 0) & (proba <= 1))
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert np.all(np.isfinite(m.decision_function(X)))
    assert np.all(np.isfinite(np.asarray(m.estimator_weights_, dtype=float)))
    assert set(np.unique(m.predict(X))) <= set(m.classes_)
    # sensible: the model agrees with the clean labels on most training samples
    clean = np.where(flipped, 1 - y, y)
    agreement = np.mean(m.predict(X) == clean)
    if not agreement > 0.75:
        raise NotSensible(f"agreement with the clean labels {agreement:.3f} <= 0.75")


@pytest.mark.slow
@pytest.mark.parametrize("regularizer", AGE_REGULARIZER_NAMES)
def test_5000_rounds_three_classes_with_flips(regularizer):
    """SPLBoost (SAMME) on 3 classes with 30 % flips keeps learning for 5,000 rounds: the
    training error falls well below chance (it stayed at 0.49 with the former multiclass
    loss) and the scores stay finite and moderate."""
    from robust_boosting.noise import flip_labels

    X, y = make_classification(600, 20, n_informative=10, n_classes=3,
                               n_clusters_per_class=1, random_state=0)
    y_noisy, _ = flip_labels(y, 0.3, classes=np.arange(3), random_state=0)
    m = _fit(SPLBoostClassifier(n_estimators=5000, regularizer=regularizer), X, y_noisy)
    scores = m.decision_function(X)
    assert np.all(np.isfinite(scores)) and np.all(np.isfinite(m.predict_proba(X)))
    assert np.mean(m.predict(X) != y_noisy) < 0.4
    assert np.mean(m.predict(X) == y) > 0.6  # agrees with the clean labels
