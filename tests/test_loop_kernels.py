"""The compiled kernels of the boosting loop against their numpy definitions."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from robust_boosting._loop_kernels import (
    active_rows,
    add_scaled_transposed,
    margin_round_stats,
    normalise_log_weights,
    pairwise_sum,
    regression_root,
    regression_roots,
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
    assert weighted_miss(w, pred, y) == np.add.reduce(w * (pred != y))  # its order


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
    zeros_out = np.empty_like(log_w)  # log_w None: zeros (the sum in another order)
    assert normalise_log_weights(None, base, out) == pytest.approx(normalise_log_weights(
        np.zeros_like(log_w), base, zeros_out), rel=1e-14)
    np.testing.assert_allclose(out, zeros_out, rtol=1e-14)
    assert total == np.sum(base * np.exp(log_w - log_w[base > 0].max()))  # NumPy's sum


def _ulps(a, ref):
    return np.abs(a - ref) / np.spacing(np.abs(ref))


def test_xlogx_kernel_matches_the_c_library_log():
    """The split scans' ``x log x`` (its own log reduction) is within 2 ulp of numpy's,
    and the vectorised form (two-class entropy scans) is bit for bit the scalar one."""
    from robust_boosting.trees._splitting import _xlogx_scalar_many, xlogx_many

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


def test_approximate_xlogx_stays_within_its_stated_error():
    """The entropy scans drop a candidate on its approximate score only if it falls
    short by more than the approximation's error, so the error bound must hold: at
    every mantissa and exponent, |approx - x log x| <= err * x (with x log x taken at
    the smallest normal double below it, as the exact kernel does), and the bound
    is not loose by more than 2x (a wrong polynomial would show as a larger error)."""
    from robust_boosting.trees._splitting import xlogx_approx_many

    m = np.linspace(1.0, 2.0, 400_001)[:-1]
    v = np.concatenate([m * 2.0 ** k for k in (-1000, -30, -1, 0, 1, 30, 1000)]
                       + [[0.0, 1e-310, 5e-324, np.finfo(float).tiny, 1.0]])
    out = np.empty_like(v)
    err = xlogx_approx_many(v, out)
    exact = v * np.log(np.maximum(v, np.finfo(float).tiny))
    rel = np.abs(out - exact)[v > 0] / v[v > 0]
    assert rel.max() <= err and rel.max() > err / 2
    assert out[v == 0.0].tolist() == [0.0]


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.integers(0, 300), st.integers(300, 300_000)), st.sampled_from([1e-5, 1.0, 1e8]),
       st.integers(0, 2**32 - 1))
def test_pairwise_sum_is_numpy_sum_bit_for_bit(n, scale, seed):
    """The order of NumPy's pairwise summation (blocks of 8 running sums up to 128 terms,
    halving above), which the regression root's sums follow."""
    a = np.random.default_rng(seed).normal(size=n) * scale
    assert pairwise_sum(a) == np.add.reduce(a) or n == 0


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.integers(0, 300), st.integers(300, 30_000)), st.floats(0, 1),
       st.integers(0, 2**32 - 1))
def test_margin_round_stats_is_numpy_bit_for_bit(n, p_miss, seed):
    """Edge, error and "some sample of positive weight missed" as the NumPy expressions
    they replace, bit for bit, with ties (y f = 0), NaN outputs and zero weights."""
    rng = np.random.default_rng(seed)
    y = rng.choice([-1.0, 1.0], n)
    f = np.abs(rng.normal(size=n)) * np.where(rng.random(n) < p_miss, -y, y)
    f[rng.random(n) < 0.05] = 0.0
    f[rng.random(n) < 0.02] = np.nan
    w = rng.random(n)
    r = rng.normal(size=n)
    sw = np.where(rng.random(n) < 0.3, 0.0, rng.random(n))
    edge, err, missed = margin_round_stats(w, r, f, y, sw)
    miss = y * f <= 0
    ref_edge = np.add.reduce(w * (r * f))
    assert edge == ref_edge or (np.isnan(edge) and np.isnan(ref_edge))
    assert err == w[miss].sum()
    assert missed == bool(np.any(miss[sw > 0]))
    with pytest.raises(ValueError, match="one length"):
        margin_round_stats(w, r, f[:-1] if n else np.ones(1), y, sw)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 400), st.sampled_from([0.0, 0.3, 1.0]), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_regression_root_is_its_numpy_definition(n, p_zero, no_weights, seed):
    """Rows of positive weight, their weights and weighted residuals, and the root's
    sums: bit for bit what NumPy gives from the materialised arrays."""
    rng = np.random.default_rng(seed)
    y = rng.normal(size=n) * 3
    sw = None if no_weights else rng.random(n) * (rng.random(n) >= p_zero)
    idx, ow, owy = np.empty(n, dtype=np.int32), np.empty(n), np.empty(n)
    k, total, ybar, s_owy, tol = regression_root(y, sw, idx, ow, owy)
    w = np.ones(n) if sw is None else sw
    rows = np.flatnonzero(w > 0)
    assert k == rows.size
    np.testing.assert_array_equal(idx[:k], rows)
    np.testing.assert_array_equal(idx[k:], np.flatnonzero(w <= 0)[::-1])
    if k == 0:
        return
    ya, wa = y[rows], w[rows]
    np.testing.assert_array_equal(ow[:k], wa)
    assert total == wa.sum()
    assert ybar == np.add.reduce(wa * ya) / total
    assert tol == np.add.reduce(wa * (ya * ya)) / total
    np.testing.assert_array_equal(owy[:k], wa * (ya - ybar))
    assert s_owy == owy[:k].sum()


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.integers(0, 300), st.integers(1, 3), st.integers(0, 2**32 - 1))
def test_regression_roots_are_each_trees_own_root(k, n, threads, seed):
    """The roots of k trees computed side by side: each tree's rows, weights, weighted
    residuals and sums are those of its own regression_root call, whatever the threads."""
    rng = np.random.default_rng(seed)
    ys = [rng.normal(size=n) * 3 for _ in range(k)]
    sws = [None if j % 3 == 0 else rng.random(n) * (rng.random(n) >= 0.3 * (j % 2))
           for j in range(k)]
    idx, ow, owy = np.empty(k * n, dtype=np.int32), np.empty(k * n), np.empty(k * n)
    res = regression_roots(ys, sws, idx, ow, owy, threads, min_rows=0)  # threads from 0 rows
    assert res.shape == (k, 5)
    for j in range(k):
        i1, w1, r1 = np.empty(n, dtype=np.int32), np.empty(n), np.empty(n)
        ref = regression_root(ys[j], sws[j], i1, w1, r1)
        assert tuple(res[j]) == ref
        m = ref[0]
        part = slice(j * n, (j + 1) * n)
        np.testing.assert_array_equal(idx[part], i1)
        np.testing.assert_array_equal(ow[part][:m], w1[:m])
        np.testing.assert_array_equal(owy[part][:m], r1[:m])
    if k > 1 and n > 0:
        with pytest.raises(ValueError, match="n rows"):
            regression_roots([ys[0][:-1]] + ys[1:], sws, idx, ow, owy)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 20000), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_add_scaled_transposed_is_numpys_sum(n, k, seed):
    """The multiclass score update of a class-major output: NumPy's ``raw + c * F.T``,
    bit for bit."""
    rng = np.random.default_rng(seed)
    raw, f = rng.normal(size=(n, k)), rng.normal(size=(k, n)) * 4
    c = float(rng.random())
    out = np.empty((n, k))
    add_scaled_transposed(raw, c, f, out)
    np.testing.assert_array_equal(out, raw + c * f.T)
    with pytest.raises(ValueError, match="shape"):
        add_scaled_transposed(raw, c, f, np.empty((n + 1, k)))


def test_exp_kernel_matches_the_c_library_exp():
    """The multiclass round's ``exp`` (for arguments <= 0) is within 1 ulp of the C
    library's, down to the subnormals, with NaN kept and -inf and very negative values
    giving 0."""
    import math

    from robust_boosting._loop_kernels import exp_many

    rng = np.random.default_rng(0)
    x = np.concatenate([
        -rng.random(20000) * 40, -rng.random(20000) * 750, -rng.random(2000) * 1e-9,
        [0.0, -0.0, -1e-300, -708.39, -708.4, -744.44, -745.13, -745.14, -746.0, -1e4,
         -np.inf, np.nan],
    ])
    out = np.empty_like(x)
    exp_many(x, out)
    ref = np.array([math.exp(v) if v == v else math.nan for v in x.tolist()])
    nan = np.isnan(x)
    assert np.array_equal(np.isnan(out), nan)
    normal = ~nan & (ref >= 2.2250738585072014e-308)
    assert np.all(np.abs(out - ref)[normal] <= np.spacing(ref[normal]))
    sub = ~nan & ~normal  # subnormal results: within one unit of the smallest subnormal
    assert np.all(np.abs(out - ref)[sub] <= 5e-324)
    assert out[x == -np.inf][0] == 0.0 and out[x == -1e4][0] == 0.0
    assert np.mean(out[normal] == ref[normal]) > 0.8
    inplace = x.copy()
    exp_many(inplace, inplace)
    assert np.array_equal(inplace, out, equal_nan=True)
    with pytest.raises(ValueError, match="one length"):
        exp_many(x, out[:-1])


@settings(max_examples=80, deadline=None)
@given(arrays(np.float64, st.integers(0, 300),
              elements=st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                                 st.floats(-1e300, 1e300))))
def test_finite_range_is_min_max_and_isfinite(a):
    """One compiled pass gives NumPy's min, max and ``isfinite(a).all()``."""
    from robust_boosting._loop_kernels import finite_range

    low, high, finite = finite_range(a)
    assert finite == bool(np.isfinite(a).all())
    if finite and a.size:
        assert (low, high) == (a.min(), a.max())
    elif finite:
        assert (low, high) == (np.inf, -np.inf)
