"""SavageBoost, RBoost and RobustBoost (SPEC §3, §5)."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import erf
from sklearn.model_selection import StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

from robust_boosting import AdaBoostClassifier, BoostingStoppedWarning
from robust_boosting.losses import SavageLoss
from robust_boosting.noise import flip_labels
from robust_boosting.robust import (
    RobustBoostClassifier,
    RobustBoostStep,
    SavageBoostClassifier,
    robustboost_rho,
)

E = np.e


def _rho_equation(rho, eps, theta, sigma):
    """SPEC §5's equation for rho, written out (its value minus epsilon)."""
    x = (2 * (E - 1) * rho - E * theta) / np.sqrt(E**2 * (sigma**2 + 1) - 1)
    return 1 - 0.5 * (1 + erf(x)) - eps


@settings(max_examples=80, deadline=None)
@given(eps=st.floats(1e-4, 0.45), theta=st.floats(0.0, 2.0), sigma=st.floats(0.01, 1.0))
def test_rho_satisfies_its_equation(eps, theta, sigma):
    rho = robustboost_rho(eps, theta, sigma)
    assert abs(_rho_equation(rho, eps, theta, sigma)) <= 1e-10


def test_rho_matches_known_value_and_bad_goal_is_refused():
    # error goal 0.1, theta 0, sigma 0.1 (MATLAB's defaults)
    rho = robustboost_rho(0.1, 0.0, 0.1)
    assert _rho_equation(rho, 0.1, 0.0, 0.1) == pytest.approx(0.0, abs=1e-12)
    assert rho > 0
    X = np.random.default_rng(0).normal(size=(40, 2))
    y = (X[:, 0] > 0).astype(int)
    with pytest.raises(ValueError, match="too high"):
        RobustBoostClassifier(error_goal=0.6).fit(X, y)


def _matlab_example(seed, n=2000):
    """MATLAB's 'Tune RobustBoost' data: 20 uniform features, label = sum of the first 5 > 2.5,
    10 % of the training labels switched; a clean test set of the same size."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, 20))
    y = (X[:, :5].sum(axis=1) > 2.5).astype(int)
    y_noisy, flipped = flip_labels(y, 0.1, random_state=seed)
    X_test = rng.random((n, 20))
    y_test = (X_test[:, :5].sum(axis=1) > 2.5).astype(int)
    return X, y_noisy, X_test, y_test


def _replay(model, X, y01):
    """Recompute every round's (G, P) residuals from the fitted learners and the recorded steps."""
    step = model._make_step()
    yy = 2.0 * y01 - 1.0
    sw = np.full(len(yy), 1.0 / len(yy))
    s, t = np.zeros(len(yy)), 0.0
    residuals = []
    for est, dm, t_after in zip(model.estimators_, model.margin_steps_, model.times_, strict=True):
        u = yy * step.output(est, X, 2)
        dt = t_after - t
        res, _ = step.equations((dm, dt), s, u, sw, t)
        residuals.append(np.abs(res))
        s = s * np.exp(-dt) + u * dm
        t = t_after
    return np.array(residuals), s


@pytest.mark.parametrize("seed", [0, 1])
def test_robustboost_rounds_solve_their_equations(seed):
    X, y, _, _ = _matlab_example(seed, n=400)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BoostingStoppedWarning)
        model = RobustBoostClassifier(n_estimators=60, error_goal=0.15, max_margin=1.0,
                                      random_state=seed).fit(X, y)
    assert model.n_estimators_ >= 10
    times = np.asarray(model.times_)
    assert np.all(np.diff(times) >= 0) and np.all(times >= 0) and np.all(times <= 1.0)
    assert model.final_time_ <= 1.0
    residuals, margins = _replay(model, X, y)
    last_is_special = "time t reached 1" in model.stopping_reason_
    body = residuals[:-1] if last_is_special else residuals
    assert body.max() <= 1e-8
    if last_is_special:  # only the potential equation can hold at t = 1
        assert residuals[-1, 1] <= 1e-8
        assert model.final_time_ == 1.0
    np.testing.assert_allclose(model.step_residuals_[: len(body)], body.max(axis=1), atol=1e-12)
    # beta_j = dm_j exp(-(t_final - t_j)) makes y F equal the RobustBoost margins
    np.testing.assert_allclose(model.estimator_weights_,
                               model.margin_steps_ * np.exp(-(model.final_time_ - times)))
    np.testing.assert_allclose((2 * y - 1) * model.decision_function(X), margins, atol=1e-9)
    # the average potential stays at the error goal (conserved round after round)
    step = model._make_step()
    assert np.mean(step.potential(margins, model.final_time_)) == pytest.approx(0.15, abs=1e-7)


def test_robustboost_weights_are_the_potential_slope():
    step = RobustBoostStep(0.1, 0.5, 0.2)
    s = np.linspace(-3, 3, 61)
    for t in (0.0, 0.4, 1.0):
        h = 1e-6
        slope = -(step.potential(s + h, t) - step.potential(s - h, t)) / (2 * h)
        np.testing.assert_allclose(step.weight(s, t), slope, rtol=1e-6, atol=1e-10)
    # at t = 1 the target margin distribution is centred on theta with spread sigma
    assert step.mu_sigma(1.0) == pytest.approx((0.5, 0.2))
    # the Jacobian of the two equations matches finite differences
    rng = np.random.default_rng(0)
    s0 = rng.normal(0.2, 0.3, 50)
    u = np.where(rng.random(50) < 0.7, 1.0, -1.0)
    sw = np.full(50, 1 / 50)
    x = np.array([0.3, 0.2])
    _, jac = step.equations(x, s0, u, sw, 0.3)
    for j in range(2):
        d = np.zeros(2)
        d[j] = 1e-6
        fd = (step.equations(x + d, s0, u, sw, 0.3)[0] - step.equations(x - d, s0, u, sw, 0.3)[0])
        np.testing.assert_allclose(jac[:, j], fd / 2e-6, rtol=1e-5, atol=1e-8)


def test_robustboost_easy_data_ends_time_in_few_rounds():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2))
    y = (X[:, 0] > 0.1 * X[:, 1]).astype(int)
    with pytest.warns(BoostingStoppedWarning, match="time t reached 1"):
        model = RobustBoostClassifier(n_estimators=50).fit(X, y)
    assert model.final_time_ == 1.0
    assert model.score(X, y) > 0.9


def test_savageboost_weights_are_the_savage_gradient_and_vanish_far_out(noisy_binary):
    X, y, y_clean, flipped = noisy_binary
    stump = DecisionTreeClassifier(max_depth=1)  # the margins below are those of exact stumps
    sav = SavageBoostClassifier(stump, n_estimators=40, random_state=0).fit(X, y)
    ada = AdaBoostClassifier(stump, n_estimators=40, random_state=0).fit(X, y)
    yy = np.where(y == sav.classes_[1], 1.0, -1.0)
    margins = yy * sav.decision_function(X)
    w = SavageLoss().sample_weight(margins)
    np.testing.assert_allclose(sav.sample_weights_, w / w.sum(), rtol=1e-9)
    assert np.all(sav.sample_weights_ <= (16 / 27) / w.sum() + 1e-12)
    # AdaBoost's heaviest samples are the most wrongly classified, SavageBoost's are not
    ada_margins = yy * ada.decision_function(X)
    assert np.argmax(ada.sample_weights_) == np.argmin(ada_margins)
    assert margins.min() < -1.5  # stumps cannot fit the flipped labels
    assert margins[np.argmax(sav.sample_weights_)] > margins.min() + 0.5
    far = margins < margins.min() + 0.5
    assert sav.sample_weights_[far].max() < 0.5 * sav.sample_weights_.max()


@pytest.mark.slow
def test_robustboost_beats_adaboost_on_matlabs_example():
    """MATLAB's 'Tune RobustBoost' example: error goal 0.15, max margin 1, 300 rounds of trees
    (stumps here), AdaBoost with learning rate 0.1 as in the example; 5 seeds, clean test sets."""
    rb_err, ada_err = [], []
    stump = DecisionTreeClassifier(max_depth=1)
    for seed in range(5):
        X, y, X_test, y_test = _matlab_example(seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", BoostingStoppedWarning)
            rb = RobustBoostClassifier(stump, n_estimators=300, error_goal=0.15, max_margin=1.0,
                                       random_state=seed).fit(X, y)
            ada = AdaBoostClassifier(stump, n_estimators=300, learning_rate=0.1,
                                     random_state=seed).fit(X, y)
        rb_err.append(1 - rb.score(X_test, y_test))
        ada_err.append(1 - ada.score(X_test, y_test))
    assert np.mean(rb_err) < np.mean(ada_err)


SAVAGEBOOST_SETS = ["bupa", "haberman", "heart", "pima", "sonar", "tic-tac-toe", "wdbc",
                    "wisconsin"]


@pytest.mark.slow
@pytest.mark.xfail(
    strict=True,
    reason=(
        "not reproduced: with decision stumps (and with depth-2/3 trees, clip 1e-4..0.15, "
        "learning rate 0.3) AdaBoost's mean 5-fold error at 40 % flips is lower than "
        "SavageBoost's on the 8 available sets (stumps: AdaBoost 0.331, SavageBoost "
        "0.36-0.38); see the issue-4 report"
    ),
)
def test_savageboost_beats_adaboost_at_40_percent_flips():
    datasets = pytest.importorskip("robust_boosting.datasets")
    sav_err, ada_err = [], []
    for name in SAVAGEBOOST_SETS:
        assert "SavageBoost" in datasets.get_dataset_info(name)["papers"]
        X, y = datasets.load_dataset(name, return_X_y=True)
        folds = StratifiedKFold(5, shuffle=True, random_state=0)
        s_e, a_e = [], []
        for k, (tr, te) in enumerate(folds.split(X, y)):
            y_noisy, _ = flip_labels(y[tr], 0.4, random_state=k)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", BoostingStoppedWarning)
                sav = SavageBoostClassifier(n_estimators=50, random_state=k).fit(X[tr], y_noisy)
                ada = AdaBoostClassifier(n_estimators=50, random_state=k).fit(X[tr], y_noisy)
            s_e.append(1 - sav.score(X[te], y[te]))
            a_e.append(1 - ada.score(X[te], y[te]))
        sav_err.append(np.mean(s_e))
        ada_err.append(np.mean(a_e))
    assert np.mean(sav_err) < np.mean(ada_err)
