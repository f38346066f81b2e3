"""The margin losses of SPEC §1: values, derivatives, sample-weight curves and their limits."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robust_boosting.losses import (
    LOSSES,
    ExponentialLoss,
    LogisticLoss,
    Savage2Loss,
    SavageLoss,
    ZeroOneLoss,
    get_loss,
)

SMOOTH = [ExponentialLoss(), LogisticLoss(), SavageLoss(), Savage2Loss()]
IDS = [loss.name for loss in SMOOTH]

# phi(m) written out from SPEC §1's table
FORMULAS = {
    "exponential": lambda m: np.exp(-m),
    "logistic": lambda m: np.log1p(np.exp(-2 * m)),
    "savage": lambda m: 1.0 / (1.0 + np.exp(2 * m)) ** 2,
    "savage2": lambda m: 1.0 / (1.0 + np.exp(m)) ** 2,
}


@pytest.mark.parametrize("loss", SMOOTH, ids=IDS)
def test_values_match_the_spec_table(loss):
    m = np.linspace(-8, 8, 161)
    np.testing.assert_allclose(loss.value(m), FORMULAS[loss.name](m), rtol=1e-12)


@settings(max_examples=60, deadline=None)
@given(m=st.floats(-15, 15), idx=st.integers(0, len(SMOOTH) - 1))
def test_derivative_matches_numerical_differentiation(m, idx):
    loss = SMOOTH[idx]
    h = 1e-5
    numeric = (FORMULAS[loss.name](m + h) - FORMULAS[loss.name](m - h)) / (2 * h)
    scale = max(1.0, abs(float(FORMULAS[loss.name](m))))
    assert float(loss.derivative(m)) == pytest.approx(numeric, rel=1e-6, abs=1e-9 * scale)
    assert float(loss.sample_weight(m)) == pytest.approx(-float(loss.derivative(m)), rel=1e-12)


@pytest.mark.parametrize("loss", SMOOTH, ids=IDS)
def test_log_sample_weight_is_the_log_of_the_weight_and_finite_far_out(loss):
    m = np.linspace(-30, 30, 121)
    np.testing.assert_allclose(np.exp(loss.log_sample_weight(m)), loss.sample_weight(m),
                               rtol=1e-10, atol=0)
    far = np.array([-1e4, -800.0, 800.0, 1e4])
    assert np.all(np.isfinite(loss.log_sample_weight(far)))


def test_savage_weights_are_bounded_and_vanish_for_very_wrong_margins():
    m = np.linspace(-40, 40, 80001)
    for loss, peak, m_peak in [(SavageLoss(), 16 / 27, -0.5 * np.log(2)),
                               (Savage2Loss(), 8 / 27, -np.log(2))]:
        w = loss.sample_weight(m)
        assert w.max() == pytest.approx(peak, rel=1e-6)
        assert m[np.argmax(w)] == pytest.approx(m_peak, abs=1e-3)
        # tends to 0 as m -> -inf (monotonically, left of the peak)
        left = w[m < m_peak]
        assert np.all(np.diff(left) >= 0)
        assert float(loss.sample_weight(-20.0)) < 1e-7
        assert float(loss.sample_weight(-200.0)) < 1e-80
        assert np.exp(float(loss.log_sample_weight(-1e4))) == 0.0


def test_adaboost_and_logitboost_weights_do_not_vanish_for_very_wrong_margins():
    exp_w = ExponentialLoss().sample_weight
    log_w = LogisticLoss().sample_weight
    m = np.array([-1.0, -5.0, -20.0, -200.0])
    # exponential: unbounded, growing as m -> -inf
    assert np.all(np.diff(exp_w(m)) > 0)
    assert float(exp_w(-200.0)) > 1e80
    # logistic: bounded by 2 but tends to 2, its largest value, not to 0
    assert np.all(np.diff(log_w(m)) >= 0)
    assert float(log_w(-20.0)) == pytest.approx(2.0, rel=1e-12)
    assert np.all(log_w(np.linspace(-50, 50, 1001)) <= 2.0)
    # the most wrongly labelled sample gets the *largest* weight of all
    grid = np.linspace(-10, 10, 201)
    assert np.argmax(exp_w(grid)) == 0
    assert np.argmax(log_w(grid)) == 0


def test_zero_one_loss_and_registry():
    np.testing.assert_array_equal(ZeroOneLoss().value([-1.0, 0.0, 0.5]), [1.0, 1.0, 0.0])
    np.testing.assert_array_equal(ZeroOneLoss().sample_weight([-1.0, 1.0]), [0.0, 0.0])
    assert set(LOSSES) == {"exponential", "logistic", "savage", "savage2", "zero-one"}
    assert isinstance(get_loss("savage"), SavageLoss)
    with pytest.raises(ValueError, match="Unknown loss"):
        get_loss("hinge")


@settings(max_examples=80, deadline=None)
@given(
    n=st.integers(1, 40),
    k=st.sampled_from([2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 130]),
    scale=st.sampled_from([1e-3, 1.0, 30.0, 700.0]),
    seed=st.integers(0, 2**16),
)
def test_softmax_rows_is_scipy_softmax_bit_for_bit(n, k, scale, seed):
    """The column-wise softmax the multiclass steps use gives scipy's bits (the row sum
    follows NumPy's pairwise order from 8 columns on)."""
    from scipy.special import softmax

    from robust_boosting.losses import softmax_rows

    rng = np.random.default_rng(seed)
    raw = rng.normal(size=(n, k)) * scale
    raw[rng.random((n, k)) < 0.05] = -np.inf
    raw[:, 0] = rng.normal(size=n)  # every row has a finite score
    assert np.array_equal(softmax_rows(raw), softmax(raw, axis=1))


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 40), k=st.integers(2, 12), scale=st.sampled_from([1e-3, 1.0, 30.0, 700.0]),
       seed=st.integers(0, 2**16))
def test_softmax_loss_is_logsumexp_minus_own_score(n, k, scale, seed):
    """The compiled multiclass log-loss equals ``logsumexp(F) - F_y`` within rounding, ties of
    the row maximum included, and a NaN score gives NaN."""
    from scipy.special import logsumexp

    from robust_boosting.losses import softmax_loss

    rng = np.random.default_rng(seed)
    raw = np.round(rng.normal(size=(n, k)) * scale, 1)  # ties, the maximum among them
    y = rng.integers(0, k, n)
    expected = logsumexp(raw, axis=1) - raw[np.arange(n), y]
    np.testing.assert_allclose(softmax_loss(raw, y), expected, rtol=1e-12, atol=1e-13)
    raw[0, rng.integers(0, k)] = np.nan
    assert np.isnan(softmax_loss(raw, y)[0])
