"""The compiled kernels of the boosting loop against their numpy definitions."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from robust_boosting._loop_kernels import (
    active_rows,
    exp_many,
    normalise_log_weights,
    small_int_codes,
    weighted_miss,
)

from robust_boosting.trees import _encode_classes

labels = arrays(np.int64, st.integers(1, 60), elements=st.integers(-5, 9))


@settings(max_examples=60, deadline=None)
@given(labels)
def test_small_int_codes_is_unique_inverse(y):
    lo, present, codes = small_int_codes(y, 2**16)
    classes, inverse = np.unique(y, return_inverse=True)
    np.testing.assert_array_equal(np.flatnonzero(present) + lo, classes)
    np.testing.assert_array_equal(codes, inverse)
    assert codes.dtype == np.int32


def test_encode_classes_wide_range_and_floats():
    for y in (np.array([3, -(2**40), 3, 7]), np.array([2.0, 0.0, 2.0]),
              np.array(["b", "a", "b"])):
        classes, codes = _encode_classes(y)
        ref_classes, ref_codes = np.unique(y, return_inverse=True)
        np.testing.assert_array_equal(classes, ref_classes)
        np.testing.assert_array_equal(codes, ref_codes)
    assert small_int_codes(np.array([0, 2**20]), 2**16)[1].size == 0  # caller sorts


@settings(max_examples=60, deadline=None)
@given(labels, st.integers(0, 2**32 - 1))
def test_weighted_miss(y, seed):
    rng = np.random.default_rng(seed)
    pred = rng.integers(-5, 10, size=y.shape[0])
    w = rng.random(y.shape[0])
    assert weighted_miss(w, pred, y) == pytest.approx(np.sum(w[pred != y]), rel=1e-13, abs=0)


@settings(max_examples=60, deadline=None)
@given(arrays(np.float64, st.integers(1, 50), elements=st.floats(-50, 50)),
       st.integers(0, 2**32 - 1))
def test_normalise_log_weights_and_active_rows(log_w, seed):
    rng = np.random.default_rng(seed)
    base = rng.random(log_w.shape[0]) * (rng.random(log_w.shape[0]) < 0.7)
    out = np.empty_like(log_w)
    total = normalise_log_weights(log_w, base, out)
    if not base.any():
        assert total == 0.0 and not out.any()
        return
    ref = base * np.exp(log_w - log_w[base > 0].max())
    np.testing.assert_allclose(out, ref / ref.sum(), rtol=1e-12, atol=1e-300)
    rows = np.empty(log_w.shape[0], dtype=np.int32)
    w = np.empty(log_w.shape[0])
    k = active_rows(base, rows, w)
    np.testing.assert_array_equal(rows[:k], np.flatnonzero(base > 0))
    np.testing.assert_array_equal(rows[k:], np.flatnonzero(base <= 0)[::-1])
    np.testing.assert_array_equal(w[:k], base[base > 0])


def _ulps(a, ref):
    return np.abs(a - ref) / np.spacing(np.abs(ref))


def test_exp_many_within_one_ulp_of_numpy_and_special_values():
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.uniform(-750, 712, 200_000), rng.uniform(-1, 1, 100_000),
                        rng.normal(0, 1e-9, 1000)])
    out = np.empty_like(x)
    exp_many(x, out)
    with np.errstate(over="ignore", under="ignore"):
        ref = np.exp(x)
    normal = np.isfinite(ref) & (ref >= np.finfo(float).tiny)
    assert _ulps(out[normal], ref[normal]).max() <= 1.0
    sub = (ref > 0) & (ref < np.finfo(float).tiny)  # subnormal: within one unit of the last place
    assert sub.any() and np.all(np.abs(out[sub] - ref[sub]) <= np.spacing(0.0))
    np.testing.assert_array_equal(out[~normal & ~sub], ref[~normal & ~sub])  # inf and 0
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 709.79, -745.2, 1e-300])
    got = np.empty_like(special)
    exp_many(special, got)
    np.testing.assert_array_equal(got, [1.0, 1.0, np.inf, 0.0, np.nan, np.inf, 0.0, 1.0])


def test_xlogx_kernel_matches_the_c_library_log():
    """The split scans' ``x log x`` (its own log reduction) is within 2 ulp of numpy's,
    and the vectorised form (two-class entropy scans) is bit for bit the scalar one."""
    from robust_boosting._tree_kernels import _xlogx_scalar_many, xlogx_many

    rng = np.random.default_rng(1)
    v = np.concatenate([np.exp(rng.uniform(-700, 700, 100_000)), rng.uniform(0, 3, 100_000),
                        [0.0, -1.0, 1.0, 2.0, 0.5, np.sqrt(2.0), np.sqrt(0.5), 1e-310]])
    out = np.empty_like(v)
    xlogx_many(v, out)
    twin = np.empty_like(v)
    _xlogx_scalar_many(v, twin)
    np.testing.assert_array_equal(out.view(np.int64), twin.view(np.int64))  # bit for bit
    normal = v >= np.finfo(float).tiny
    ref = v[normal] * np.log(v[normal])
    nz = ref != 0
    assert _ulps(out[normal][nz], ref[nz]).max() <= 2.0
    assert np.all(out[~normal] <= 0) and out[v == 1.0][0] == 0.0 and out[v <= 0].tolist() == [0, 0]
