"""Target-noise generators for regression (:func:`robust_boosting.noise.corrupt_targets`)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robust_boosting.noise import TARGET_NOISE_KINDS, corrupt_targets, n_flips


def _targets(n=400, seed=0):
    return np.random.default_rng(seed).normal(50.0, 10.0, size=n)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 300), rate=st.floats(0.0, 0.99), kind=st.sampled_from(TARGET_NOISE_KINDS),
       seed=st.integers(0, 2**16))
def test_exact_count_only_chosen_rows_change_input_untouched(n, rate, kind, seed):
    y = _targets(n, seed)
    before = y.copy()
    y_noisy, corrupted = corrupt_targets(y, rate, kind=kind, random_state=seed)
    assert corrupted.sum() == n_flips(rate, n)
    np.testing.assert_array_equal(y_noisy[~corrupted], y[~corrupted])
    np.testing.assert_array_equal(y, before)
    assert y_noisy.dtype == np.float64 and np.isfinite(y_noisy).all()


@pytest.mark.parametrize("kind", TARGET_NOISE_KINDS)
def test_deterministic_under_random_state(kind):
    y = _targets()
    a = corrupt_targets(y, 0.2, kind=kind, random_state=3)
    b = corrupt_targets(y, 0.2, kind=kind, random_state=3)
    c = corrupt_targets(y, 0.2, kind=kind, random_state=4)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    assert not np.array_equal(a[1], c[1])


def test_replace_draws_from_the_targets_range_unrelated_to_the_row():
    y = _targets(20_000)
    y_noisy, corrupted = corrupt_targets(y, 0.3, kind="replace", random_state=0)
    new = y_noisy[corrupted]
    assert new.min() >= y.min() and new.max() <= y.max()
    # uniform over the range: its mean is the range's midpoint, and unrelated to the old value
    assert abs(new.mean() - (y.min() + y.max()) / 2) < 0.02 * (y.max() - y.min())
    assert abs(np.corrcoef(new, y[corrupted])[0, 1]) < 0.05


def test_shift_moves_by_three_to_six_standard_deviations_both_ways():
    y = _targets(10_000)
    y_noisy, corrupted = corrupt_targets(y, 0.2, kind="shift", random_state=1)
    moved = (y_noisy - y)[corrupted] / y.std()
    assert np.all(np.abs(moved) >= 3.0) and np.all(np.abs(moved) <= 6.0)
    assert 0.45 < np.mean(moved > 0) < 0.55
    y2, c2 = corrupt_targets(y, 0.2, kind="shift", shift=(8.0, 8.0), random_state=1)
    np.testing.assert_allclose(np.abs(y2 - y)[c2] / y.std(), 8.0)


def test_unit_multiplies_by_one_of_the_factors():
    y = _targets(5_000)
    y_noisy, corrupted = corrupt_targets(y, 0.2, kind="unit", random_state=2)
    ratio = y_noisy[corrupted] / y[corrupted]
    assert set(np.round(ratio, 6)) == {10.0, 1000.0}
    y2, c2 = corrupt_targets(y, 0.2, kind="unit", factors=(0.001,), random_state=2)
    np.testing.assert_allclose(y2[c2], y[c2] * 0.001)


def test_rate_zero_changes_nothing():
    y = _targets()
    y_noisy, corrupted = corrupt_targets(y, 0.0, kind="shift", random_state=0)
    assert not corrupted.any()
    np.testing.assert_array_equal(y_noisy, y)


@pytest.mark.parametrize("y, kwargs, error, match", [
    (np.ones((3, 2)), {}, ValueError, "1-D"),
    (np.array(["a", "b"]), {}, TypeError, "numbers"),
    (np.array([True, False]), {}, TypeError, "numbers"),
    (np.array([1.0, np.nan, 2.0]), {}, ValueError, "row 1"),
    (np.arange(5.0), {"rate": 1.0}, ValueError, r"\[0, 1\)"),
    (np.arange(5.0), {"kind": "swap"}, ValueError, "kind"),
    (np.arange(5.0), {"shift": (6.0, 3.0)}, ValueError, "shift"),
    (np.arange(5.0), {"shift": (0.0, 3.0)}, ValueError, "shift"),
    (np.arange(5.0), {"factors": (1.0,)}, ValueError, "factors"),
    (np.arange(5.0), {"factors": (-10.0,)}, ValueError, "factors"),
])
def test_bad_input_is_named(y, kwargs, error, match):
    kwargs = {"rate": 0.2, **kwargs}
    with pytest.raises(error, match=match):
        corrupt_targets(y, kwargs.pop("rate"), **kwargs)
