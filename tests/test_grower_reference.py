"""The one grower in production: the compiled grower against the Python reference.

Every tree is grown by the compiled grower (``trees/_growing.pyx``, through
``trees.batched.grow_batched``): trees with categorical features (set splits, the
per-node rule for rare categories, ``cat_l2``), trees whose histograms exceed any
fixed pool (the candidates' histograms kept under ``_HIST_CACHE_BYTES`` as the Python
grower keeps them) and symmetric trees of any depth. ``_Grower.grow`` and
``_SymmetricGrower.grow`` stay as the test reference: here each tree is compared with
the reference's node for node, bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.base import clone

from robust_boosting import SPLLogitBoostClassifier
from robust_boosting.trees import HistTreeClassifier, HistTreeRegressor, growing
from robust_boosting.trees.batched import grow_batched

GROWER_ARRAYS = ("left", "right", "feature", "split_bin", "missing_left", "gain", "depth",
                 "start", "end", "tot")


def _mixed(rng, n, n_num, n_cat, k, nan=0.1):
    """``n`` rows: ``n_num`` numeric columns (rounded: ties) and ``n_cat`` categorical
    ones of ``k`` categories drawn with skewed frequencies (some rare), NaN here and
    there; and the ``n_categories`` of ``prepare_data``."""
    cols = [np.round(rng.randn(n), 1) for _ in range(n_num)]
    p = rng.dirichlet(np.full(k, 0.3))
    cols += [rng.choice(k, n, p=p).astype(float) for _ in range(n_cat)]
    X = np.column_stack(cols) if cols else np.empty((n, 0))
    X[rng.rand(*X.shape) < nan] = np.nan
    return X, np.array([0] * n_num + [k] * n_cat)


def _target(rng, X, kind):
    score = np.nan_to_num(X).sum(axis=1) + rng.randn(len(X))
    if kind == "regression":
        return score
    n_classes = {"binary": 2, "three": 3, "ten": 10}[kind]
    y = np.digitize(score, np.quantile(score, np.linspace(0, 1, n_classes + 1)[1:-1]))
    y[: n_classes] = np.arange(n_classes)  # every class present
    return y


def _pair(proto, Xb, y, w, n_threads):
    """The reference's grower (``_Grower.grow``) and the compiled one's, same inputs."""
    ref = clone(proto)._prepare_grower(Xb, y, w, n_threads)[0]
    ref.grow(ref.root_tot)
    got = clone(proto)._prepare_grower(Xb, y, w, n_threads)[0]
    grow_batched([got], n_threads)
    return ref, got


def _assert_same_growth(ref, got):
    for name in GROWER_ARRAYS:
        # the reference keeps lists (int64 once converted), the compiled grower arrays
        b = np.asarray(getattr(got, name))
        a = np.asarray(getattr(ref, name)).astype(b.dtype)
        assert a.shape == b.shape and a.tobytes() == b.tobytes(), name  # bit for bit
    assert np.array_equal(ref.idx, got.idx)
    if ref.cat_features.size:
        assert np.array_equal(ref.is_categorical, got.is_categorical)
        assert ref.categories_left.shape == got.categories_left.shape
        assert np.array_equal(ref.categories_left, got.categories_left)


@pytest.fixture
def all_threaded(monkeypatch):
    """Every node's kernels on the threads (the categorical scans in parallel groups)."""
    monkeypatch.setattr(growing, "_PARALLEL_MIN_WORK", 0)


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    n=st.integers(12, 400),
    n_num=st.integers(0, 3),
    n_cat=st.integers(1, 3),
    k=st.integers(2, 40),
    kind=st.sampled_from(["binary", "three", "ten", "regression"]),
    shape=st.sampled_from([(None, None), (3, None), (6, None), (None, 6), (None, 17)]),
    min_leaf=st.integers(1, 3),
    min_cat=st.sampled_from([1, 2, 5, 12]),
    sample_count=st.sampled_from(["exact", "weight"]),
    l2=st.sampled_from([(0.0, 0.0), (0.0, 10.0), (1.0, 3.0)]),
    drop=st.sampled_from([0.0, 0.3]),
    n_threads=st.sampled_from([1, 2]),
    seed=st.integers(0, 2**16),
)
def test_categorical_trees_equal_the_reference(all_threaded, n, n_num, n_cat, k, kind, shape,
                                               min_leaf, min_cat, sample_count, l2, drop,
                                               n_threads, seed):
    """Depth-first and best-first trees with categorical features (two, three and ten
    classes, regression; rare categories at the nodes; missing values; exact or
    estimated counts; ``cat_l2``) are the reference's, node for node, with the same
    left sets and the rows partitioned the same way."""
    rng = np.random.RandomState(seed)
    X, n_categories = _mixed(rng, n, n_num, n_cat, k)
    y = _target(rng, X, kind)
    depth, leaves = shape
    params = dict(max_depth=depth, max_leaf_nodes=leaves, min_samples_leaf=min_leaf,
                  min_category_count=min_cat, sample_count=sample_count)
    if kind == "regression":
        proto = HistTreeRegressor(**params, l2_regularization=l2[0], cat_l2=l2[1])
    else:
        proto = HistTreeClassifier(**params, criterion="entropy" if seed % 2 else "gini")
    Xb = proto.prepare_data(X, n_categories=n_categories)
    w = rng.rand(n) * (rng.rand(n) >= drop)
    w[: 10] = 1.0
    ref, got = _pair(proto, Xb, y, w, n_threads)
    _assert_same_growth(ref, got)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    n=st.integers(12, 400),
    n_cat=st.integers(0, 1),
    kind=st.sampled_from(["binary", "regression"]),
    shape=st.sampled_from([(None, None), (3, None), (6, None), (None, 6), (None, 17)]),
    min_leaf=st.integers(1, 3),
    sample_count=st.sampled_from(["exact", "weight"]),
    l2=st.sampled_from([0.0, 1.0]),
    signs=st.sampled_from([(1, 0, 0), (-1, 1, 0), (0, -1, 1), (1, 1, -1)]),
    n_threads=st.sampled_from([1, 2]),
    seed=st.integers(0, 2**16),
)
def test_constrained_trees_equal_the_reference(all_threaded, n, n_cat, kind, shape, min_leaf,
                                               sample_count, l2, signs, n_threads, seed):
    """Trees with monotone constraints (``monotonic_cst``; missing values, an unconstrained
    categorical feature, depth-first and best-first, two classes and regression) are the
    reference's node for node, the bounds of every node's value included, and those
    bounds nest: a child's lie within its parent's."""
    rng = np.random.RandomState(seed)
    X, n_categories = _mixed(rng, n, 3, n_cat, 6)
    y = _target(rng, X, kind)
    depth, leaves = shape
    params = dict(max_depth=depth, max_leaf_nodes=leaves, min_samples_leaf=min_leaf,
                  sample_count=sample_count, monotonic_cst=list(signs) + [0] * n_cat)
    if kind == "regression":
        proto = HistTreeRegressor(**params, l2_regularization=l2)
    else:
        proto = HistTreeClassifier(**params, criterion="entropy" if seed % 2 else "gini")
    Xb = proto.prepare_data(X, n_categories=n_categories)
    w = rng.rand(n) + 0.1
    ref, got = _pair(proto, Xb, y, w, n_threads)
    _assert_same_growth(ref, got)
    for name in ("lower", "upper"):
        a, b = np.asarray(getattr(ref, name)), np.asarray(getattr(got, name))
        assert a.shape == b.shape and a.tobytes() == b.tobytes(), name
    lo, hi = np.asarray(got.lower), np.asarray(got.upper)
    for node in np.flatnonzero(np.asarray(got.left) >= 0):
        for child in (got.left[node], got.right[node]):
            assert lo[node] <= lo[child] <= hi[child] <= hi[node]


def test_the_rare_category_rule_is_compiled():
    """The per-node rule for rare categories (docs/design/0020) changes these trees,
    and the compiled grower applies it as the reference does, with and without the
    count channel and for ten classes (a bin's weight summed as NumPy sums it)."""
    rng = np.random.RandomState(3)
    X, n_categories = _mixed(rng, 3000, 1, 2, 30, nan=0.05)
    for kind, cls in (("ten", HistTreeClassifier), ("binary", HistTreeClassifier),
                      ("regression", HistTreeRegressor)):
        y = _target(rng, X, kind)
        for sample_count, min_leaf in (("exact", 2), ("weight", 1)):
            trees = {}
            for min_cat in (1, 25):
                proto = cls(max_depth=6, min_category_count=min_cat, min_samples_leaf=min_leaf,
                            sample_count=sample_count)
                Xb = proto.prepare_data(X, n_categories=n_categories)
                # the same bins for both settings: the rule at the nodes is the difference
                Xb = cls(max_depth=6, min_category_count=1).prepare_data(
                    X, n_categories=n_categories)
                ref, got = _pair(proto, Xb, y, rng.uniform(0.5, 2.0, len(y)), 1)
                _assert_same_growth(ref, got)
                assert got.is_categorical.any()
                trees[min_cat] = got
            a, b = trees[1], trees[25]
            assert len(a.left) != len(b.left) or not np.array_equal(
                a.categories_left, b.categories_left), (kind, sample_count)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    n=st.integers(50, 600),
    categorical=st.booleans(),
    regression=st.booleans(),
    shape=st.sampled_from([(None, None), (8, None), (None, 40)]),
    cache=st.sampled_from([0, 1, 2, 3, 6]),
    n_threads=st.sampled_from([1, 2]),
    seed=st.integers(0, 2**16),
)
def test_histogram_cache_policy_equals_the_reference(monkeypatch, n, categorical, regression,
                                                     shape, cache, n_threads, seed):
    """With the histogram cache shrunk to ``cache`` histograms (as a tree whose
    candidates' histograms exceed ``_HIST_CACHE_BYTES``: deep trees on many rows), the
    reference drops candidates' histograms and histograms their children from their
    rows; the compiled grower drops the same ones, so its trees are the reference's."""
    rng = np.random.RandomState(seed)
    X, n_categories = _mixed(rng, n, 3, 2 if categorical else 0, 12)
    y = _target(rng, X, "regression" if regression else "three")
    cls = HistTreeRegressor if regression else HistTreeClassifier
    proto = cls(max_depth=shape[0], max_leaf_nodes=shape[1], min_category_count=3)
    Xb = proto.prepare_data(X, n_categories=n_categories)
    hist_bytes = clone(proto)._prepare_grower(Xb, y, None, 1)[0].hist_bytes
    monkeypatch.setattr(growing, "_HIST_CACHE_BYTES", cache * hist_bytes)
    dropped = []
    keep = growing._Grower._keep_hist

    def counting_keep(self, hist):
        out = keep(self, hist)
        dropped.append(out is None)
        return out

    monkeypatch.setattr(growing._Grower, "_keep_hist", counting_keep)
    ref, got = _pair(proto, Xb, y, rng.uniform(0.2, 2.0, n), n_threads)
    _assert_same_growth(ref, got)
    if cache <= 1 and len(ref.left) > 5:
        assert any(dropped)  # the policy was exercised


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    n=st.integers(2, 300),
    depth=st.integers(1, 14),
    strength=st.sampled_from([0.0, 1.0]),
    n_threads=st.sampled_from([1, 2]),
    seed=st.integers(0, 2**16),
    n_cat=st.sampled_from([0, 0, 1, 2]),
    min_cat=st.sampled_from([1, 4]),
)
def test_symmetric_trees_of_any_depth_equal_the_reference(all_threaded, n, depth, strength,
                                                          n_threads, seed, n_cat, min_cat):
    """Symmetric trees to any depth (the old compiled limit was 10), on few rows too (their
    nodes bounded by ``2 n - 1``, the pool by the nodes), with categorical features (ranked
    at the root, rare ones unranked) or none, are the reference's."""
    rng = np.random.RandomState(seed)
    X, n_categories = _mixed(rng, n, 4, n_cat, 12)
    y = _target(rng, X, "regression")
    proto = HistTreeRegressor(max_depth=depth, grow_policy="symmetric",
                              random_strength=strength, random_state=seed,
                              min_category_count=min_cat)
    Xb = proto.prepare_data(X, n_categories=n_categories)
    ref, got = _pair(proto, Xb, y, rng.uniform(0.0, 2.0, n) + (np.arange(n) == 0), n_threads)
    _assert_same_growth(ref, got)


def test_trees_past_the_old_64_mib_pool_are_compiled_and_equal_the_reference(monkeypatch):
    """An unlimited-depth tree on 40,000 rows (a pool of one histogram per possible node
    would take 2 n - 1 of them, over 2 GB) and a symmetric tree of depth 12 (deeper than
    the old limit of 10) are grown by the compiled grower (the reference's ``grow`` is
    not called by ``fit``), and are the reference's trees."""
    rng = np.random.RandomState(0)
    n = 40_000
    X = np.round(rng.randn(n, 6), 2)
    y = X[:, 0] + np.sin(3 * X[:, 1]) + 0.5 * rng.randn(n)
    deep = HistTreeRegressor(max_depth=None)
    sym = HistTreeRegressor(max_depth=12, grow_policy="symmetric")
    Xb = deep.prepare_data(X)
    g = clone(deep)._prepare_grower(Xb, y, None, 1)[0]
    assert (2 * n - 1) * g.hist_bytes > 64 * 2**20
    refs = {}
    for proto in (deep, sym):
        ref, got = _pair(proto, Xb, y, None, 2)
        _assert_same_growth(ref, got)
        refs[proto.grow_policy] = ref

    def no_reference(self, root_tot):
        raise AssertionError("production called the reference grower")

    monkeypatch.setattr(growing._Grower, "grow", no_reference)
    monkeypatch.setattr(growing._SymmetricGrower, "grow", no_reference)
    for proto in (deep, sym):
        tree = clone(proto).fit(Xb, y).tree_
        ref = refs[proto.grow_policy]
        assert np.array_equal(tree.children_left, np.asarray(ref.left))
        assert np.array_equal(tree.gain, np.asarray(ref.gain))


def test_no_production_fit_calls_the_reference(monkeypatch):
    """Boosting with categorical trees (the per-class regression trees of LogitBoost,
    and classification trees) and the cross-validated default never call
    ``_Grower.grow``."""
    from robust_boosting import SPLBoostClassifier, SPLBoostClassifierCV

    def no_reference(self, root_tot):
        raise AssertionError("production called the reference grower")

    monkeypatch.setattr(growing._Grower, "grow", no_reference)
    monkeypatch.setattr(growing._SymmetricGrower, "grow", no_reference)
    pd = pytest.importorskip("pandas")
    rng = np.random.RandomState(1)
    n = 600
    df = pd.DataFrame({"a": rng.randn(n), "c": pd.Categorical(rng.choice(list("pqrstuv"), n)),
                       "d": pd.Categorical(rng.choice(list("xyz"), n))})
    y = ((df["a"] > 0) ^ df["c"].isin(["p", "q", "r"])).astype(int).to_numpy()
    y3 = y + (df["d"] == "z").to_numpy()
    for model in (SPLLogitBoostClassifier(HistTreeRegressor(max_depth=3), n_estimators=5),
                  SPLBoostClassifier(HistTreeClassifier(max_depth=2), n_estimators=5),
                  SPLBoostClassifierCV(n_jobs=1)):
        for target in (y, y3):
            m = clone(model).fit(df, target)
            assert m.predict(df).shape == (n,)
