"""The typed column schema of every estimator, native categorical splits, missing values."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

import robust_boosting as rb
from robust_boosting._schema import FeatureSchema
from robust_boosting.trees import HistTreeClassifier, HistTreeRegressor

BOOSTERS = [
    rb.AdaBoostClassifier, rb.SPLBoostClassifier, rb.RealBoostClassifier,
    rb.GentleBoostClassifier, rb.LogitBoostClassifier, rb.SavageBoostClassifier,
    rb.RBoostClassifier, rb.RobustBoostClassifier, rb.SPLLogitBoostClassifier,
    rb.SPLGentleBoostClassifier, rb.RILBoostClassifier,
]
TREES = [HistTreeClassifier, HistTreeRegressor]
SHAPES = ["circle", "square", "star", "heart", "moon", "sun"]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rb.BoostingStoppedWarning)
        yield


def mixed_frame(n=240, seed=0):
    """Numeric, categorical (object and category dtypes) and boolean columns; the label
    depends on a set of shapes that is not an interval of their sorted order."""
    rng = np.random.default_rng(seed)
    shape = rng.choice(SHAPES, n)
    x = rng.normal(size=n)
    flag = rng.random(n) < 0.5
    df = pd.DataFrame({
        "x": x,
        "shape": shape,
        "size": pd.Categorical(rng.choice(["S", "M", "L"], n), categories=["S", "M", "L"]),
        "flag": flag,
        "k": rng.integers(0, 5, n),
    })
    y = (np.isin(shape, ["heart", "square", "sun"]) ^ (x > 1.2)).astype(int)
    return df, y


def _fit(cls, X, y, **kw):
    if cls in TREES:
        return cls(max_depth=3, **kw).fit(X, y)
    return cls(n_estimators=8, random_state=0, **kw).fit(X, y)


@pytest.mark.parametrize("cls", BOOSTERS + TREES)
def test_every_estimator_takes_a_typed_frame(cls):
    df, y = mixed_frame()
    model = _fit(cls, df, y)
    schema = model.feature_schema_
    assert list(model.feature_names_in_) == ["x", "shape", "size", "flag", "k"]
    assert model.n_features_in_ == 5
    assert schema.kinds == ["numeric", "categorical", "categorical", "bool", "numeric"]
    assert schema.categories[1] == sorted(SHAPES)
    assert schema.categories[2] == ["S", "M", "L"]  # a category dtype keeps its declared order
    assert schema.dtypes[2] == "category" and schema.dtypes[3] == "bool"
    out = model.predict(df)
    assert out.shape == (len(df),)
    # the same data as another dtype of the same kind gives the same predictions
    same = df.astype({"shape": "category", "size": object})
    np.testing.assert_array_equal(model.predict(same), out)


@pytest.mark.parametrize("cls", BOOSTERS + TREES)
def test_predict_errors_name_the_column_and_rows(cls):
    df, y = mixed_frame()
    model = _fit(cls, df, y)
    model.set_params(unknown_categories="error")
    cases = []
    unseen = df.copy()
    unseen.loc[[4, 9], "shape"] = "hexagon"
    cases.append((unseen, "column 'shape' has the category 'hexagon', which no training row "
                  "had, in rows 4, 9 ("))
    text = df.astype({"x": object})
    text.loc[7, "x"] = "?"
    cases.append((text, "column 'x' is numeric but row 7 holds text ('?')"))
    cases.append((df.astype({"x": "category"}), "column 'x' was numeric (float64) at fit but is "
                  "category here"))
    cases.append((df.assign(shape=np.arange(len(df)) % 3), "column 'shape' was categorical"))
    cases.append((df.astype({"flag": int}), "column 'flag' was bool (bool) at fit"))
    cases.append((df.drop(columns="size"), "X lacks the column(s) 'size' seen at fit."))
    cases.append((df.assign(extra=0.0), "X has the column(s) 'extra' not seen at fit."))
    cases.append((df[["shape", "x", "size", "flag", "k"]],
                  "column 'shape' is at position 0 but was at position 1 at fit"))
    cases.append((df.to_numpy(), "pass a DataFrame with those columns"))
    for X, message in cases:
        with pytest.raises(ValueError) as exc:
            model.predict(X)
        assert message in str(exc.value), (message, str(exc.value))
        assert "\n" not in str(exc.value)


@pytest.mark.parametrize("cls", [rb.AdaBoostClassifier, HistTreeClassifier])
def test_text_in_a_numeric_column_at_fit_is_an_error(cls):
    df, y = mixed_frame()
    df = df.astype({"k": object})
    df.loc[[3, 5, 8], "k"] = ["?", "n/a", "?"]
    with pytest.raises(ValueError, match=r"column 'k' holds numbers but also text in rows 3, 5, 8 "
                       r"\('\?', 'n/a'\): .*cast the column to 'category'"):  # each value once
        cls().fit(df, y)
    # an object column of numbers (every cell parses) is numeric; one of text is categorical
    df.loc[[3, 5, 8], "k"] = ["1", 2, "3.5"]
    assert cls().fit(df, y).feature_schema_.kinds[-1] == "numeric"


def test_numeric_input_is_unchanged():
    """Arrays and numeric frames go through scikit-learn's validation exactly as before:
    the same model from an array, a float frame and an int/float frame."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 4))
    X[:, 3] = rng.integers(0, 4, 200)
    y = (X[:, 0] + X[:, 3] > 1).astype(int)
    frame = pd.DataFrame(X, columns=list("abcd")).astype({"d": int})
    for cls in (rb.SPLBoostClassifier, rb.GentleBoostClassifier):
        a = cls(n_estimators=10, random_state=0).fit(X, y)
        b = cls(n_estimators=10, random_state=0).fit(frame, y)
        assert a.decision_function(X).tobytes() == b.decision_function(frame).tobytes()
        assert a.feature_schema_.all_numeric and b.feature_schema_.names == list("abcd")
        assert not any(t.tree_.has_categorical for t in b.estimators_)


def test_categorical_stump_finds_a_set_split():
    """A stump splits a categorical feature into any set of categories: here the label is
    a non-contiguous set of shapes, which one threshold on codes cannot separate."""
    df, y = mixed_frame(n=600)
    X = df[["shape"]]
    y = np.isin(df["shape"], ["heart", "square", "sun"]).astype(int)
    stump = HistTreeClassifier(max_depth=1).fit(X, y)
    assert stump.tree_.has_categorical
    assert stump.score(X, y) == 1.0
    codes = X["shape"].map({s: i for i, s in enumerate(sorted(SHAPES))}).to_frame()
    assert DecisionTreeClassifier(max_depth=1).fit(codes, y).score(codes, y) < 0.9
    # the documented encoder for other weak learners: the same codes, ordinal
    ada = rb.AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=3).fit(X, y)
    np.testing.assert_array_equal(ada.estimators_[0].predict(codes.to_numpy(float)),
                                  ada.estimators_[0].predict(ada._check_X(X)))


def _brute_best_gain(codes, w, y, k, crit, min_leaf=1):
    """Largest impurity decrease over every split of the categories into two sets
    with at least ``min_leaf`` samples on each side."""
    def score(mask):
        if crit == "squared_error":
            W = w[mask].sum()
            ybar = np.sum(w * y) / w.sum()
            S = np.sum(w[mask] * (y[mask] - ybar))
            return S * S / W
        ws = np.array([w[mask & (y == c)].sum() for c in (0, 1)])
        W = ws.sum()
        if crit == "gini":
            return np.sum(ws**2) / W
        return sum(v * np.log(v) for v in ws if v > 0) - W * np.log(W)

    present = [c for c in range(k) if np.any(codes == c)]
    parent = score(np.ones(len(codes), bool))
    best = 0.0
    for r in range(1, len(present)):
        for left in itertools.combinations(present, r):
            m = np.isin(codes, left)
            if min(m.sum(), (~m).sum()) >= min_leaf:
                best = max(best, score(m) + score(~m) - parent)
    return best


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), k=st.integers(2, 6), n=st.integers(8, 60),
       crit=st.sampled_from(["gini", "entropy", "squared_error"]),
       min_leaf=st.sampled_from([1, 1, 4]))
def test_categorical_split_is_the_best_of_all_subsets(seed, k, n, crit, min_leaf):
    """Ordering the categories by their class-1 share (or mean target) and scanning prefixes
    finds the best of all 2**(k-1) - 1 splits, for two classes and for least squares
    (with ``min_samples_leaf`` = 1; with more, the best prefix split that respects it;
    every category its own bin: ``min_category_count=1``)."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, k, n)
    y = rng.integers(0, 2, n)
    w = rng.uniform(0.1, 2.0, n)
    X = pd.DataFrame({"c": pd.Categorical.from_codes(codes, [f"v{i}" for i in range(k)])})
    if crit == "squared_error":
        y = rng.normal(size=n)
        tree = HistTreeRegressor(max_depth=1, min_samples_leaf=min_leaf, min_category_count=1)
    else:
        tree = HistTreeClassifier(criterion=crit, max_depth=1, min_samples_leaf=min_leaf,
                                  min_category_count=1)
    tree.fit(X, y, sample_weight=w)
    best = _brute_best_gain(codes, w, y, k, crit, min_leaf)
    got = tree.tree_.gain[0]
    if min_leaf == 1:
        assert got == pytest.approx(best, rel=1e-9, abs=1e-9) or (got == 0 and best < 1e-9)
    else:  # a prefix of the order may not be the best subset once sides need 4 samples
        assert got <= best * (1 + 1e-9) + 1e-9
        if got > 0:
            leaves = tree.apply(X)
            assert np.bincount(leaves)[leaves].min() >= min_leaf


def test_categorical_trees_are_deterministic_and_cached_leaves_agree():
    """The same tree whatever n_jobs; a tree fitted on binned data with zero weights
    routes every training row (cached leaves) as prediction on the raw codes does."""
    df, y = mixed_frame(n=3000, seed=5)
    y3 = (y + (df["k"] > 2)).to_numpy()
    a = HistTreeClassifier(max_depth=4, n_jobs=1).fit(df, y3)
    b = HistTreeClassifier(max_depth=4, n_jobs=2).fit(df, y3)
    assert a.tree_.has_categorical
    assert a.predict_proba(df).tobytes() == b.predict_proba(df).tobytes()
    X = FeatureSchema.from_frame(df).encode(df)
    tree = HistTreeClassifier(max_depth=4)
    Xp = tree.prepare_data(X, n_categories=FeatureSchema.from_frame(df).n_categories)
    w = np.ones(len(y3))
    w[::3] = 0.0
    tree.fit(Xp, y3, sample_weight=w)
    assert tree.tree_.has_categorical
    np.testing.assert_array_equal(tree.apply(Xp), tree.apply(X))


@pytest.mark.parametrize("cls", [rb.SPLBoostClassifier, rb.GentleBoostClassifier])
def test_boosters_learn_from_categories(cls):
    df, y = mixed_frame(n=800, seed=2)
    model = cls(n_estimators=30, random_state=0).fit(df.iloc[:600], y[:600])
    assert any(t.tree_.has_categorical for t in model.estimators_)
    assert model.score(df.iloc[600:], y[600:]) > 0.9


def test_missing_values_fit_and_predict_agree():
    """NaN (numeric) and missing cells (categorical) are one more value the trees route by a
    learned direction, at fit and at predict alike."""
    rng = np.random.default_rng(7)
    n = 400
    x = rng.normal(size=n)
    shape = rng.choice(SHAPES, n).astype(object)
    y = (x > 0).astype(int)
    miss = rng.random(n) < 0.2
    x[miss] = np.nan
    y[miss] = 1  # missing means positive: only a learned missing direction gets this right
    shape[rng.random(n) < 0.1] = None
    df = pd.DataFrame({"x": x, "shape": shape})
    for model in (rb.AdaBoostClassifier(n_estimators=5, random_state=0),
                  HistTreeClassifier(max_depth=2)):
        model.fit(df, y)
        assert model.score(df, y) == 1.0
        assert model.predict(df.iloc[np.flatnonzero(miss)]).tolist() == [1] * miss.sum()
    arr = rb.AdaBoostClassifier(n_estimators=5, random_state=0).fit(x[:, None], y)
    assert arr.score(x[:, None], y) == 1.0


def test_missing_values_with_a_learner_that_cannot_take_them():
    df, y = mixed_frame()
    df.loc[[2, 11], "x"] = np.nan
    model = rb.AdaBoostClassifier(LinearSVC(), n_estimators=3)
    assert not model.__sklearn_tags__().input_tags.allow_nan
    with pytest.raises(ValueError, match=r"^column 'x' has missing values \(NaN\) in rows 2, 11, "
                       r"which AdaBoostClassifier with the weak learner LinearSVC does not take"):
        model.fit(df, y)
    fitted = model.fit(df.dropna(), y[df["x"].notna().to_numpy()])
    with pytest.raises(ValueError, match="column 'x' has missing values"):
        fitted.predict(df)
    X = df[["x", "k"]].to_numpy(float)
    with pytest.raises(ValueError, match="column 0 has missing values .NaN. in rows 2, 11"):
        rb.AdaBoostClassifier(LinearSVC(), n_estimators=3).fit(X, y)
    assert rb.AdaBoostClassifier().__sklearn_tags__().input_tags.allow_nan


def test_many_categories_for_the_trees():
    """More than 255 categories is not an error: the trees group the rare ones
    (tests/test_categorical_columns.py checks which)."""
    n = 600
    df = pd.DataFrame({"c": [f"v{i % 300}" for i in range(n)]})
    y = np.arange(n) % 2
    model = rb.AdaBoostClassifier(n_estimators=2).fit(df, y)
    assert model.predict(df).shape == (n,)
    # a learner without native categorical splits takes the codes as one ordinal feature
    rb.AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=2).fit(df, y)


def test_unsupported_dtypes_and_names():
    y = np.array([0, 1] * 5)
    with pytest.raises(TypeError, match="column 't' has dtype datetime64"):
        HistTreeClassifier().fit(pd.DataFrame({"t": pd.date_range("2020", periods=10)}), y)
    with pytest.raises(TypeError, match="needs string column names"):
        HistTreeClassifier().fit(pd.DataFrame({0: list("abababab") + ["a", "b"]}), y)
    with pytest.raises(TypeError, match="prepare_data takes numeric data"):
        HistTreeClassifier().prepare_data(pd.DataFrame({"c": list("ab") * 5}))


def test_csv_shapes_of_the_same_kinds():
    """What a CSV reader gives for a column with empty cells is the same kind: True/False with
    empty cells (object) is boolean; an all-empty column (float NaN) is all missing."""
    df, y = mixed_frame()
    model = rb.AdaBoostClassifier(n_estimators=5, random_state=0).fit(df, y)
    holes = df.astype({"flag": object})
    holes.loc[3, "flag"] = None
    got = model.predict(holes)
    assert got.shape == (len(df),)
    empty = df.assign(shape=np.nan, flag=np.nan)
    assert model.predict(empty).shape == (len(df),)
    obj = df.astype({"flag": object})
    obj.loc[3, "flag"] = None
    assert HistTreeClassifier().fit(obj, y).feature_schema_.kinds[3] == "bool"


def test_refit_with_another_learner_rechecks_missing_values():
    df, y = mixed_frame()
    df.loc[2, "x"] = np.nan
    model = rb.AdaBoostClassifier(n_estimators=3).fit(df, y)
    model.set_params(estimator=LinearSVC())
    with pytest.raises(ValueError, match="column 'x' has missing values"):
        model.fit(df, y)


def test_numeric_frame_schema_keeps_dtypes_and_checks_kinds():
    df, y = mixed_frame()
    num = df[["x", "k"]]
    model = rb.AdaBoostClassifier(n_estimators=3).fit(num, y)
    assert model.feature_schema_.dtypes == ["float64", "int64"]
    assert model.feature_schema_.all_numeric
    text = num.astype({"k": object})
    text.loc[[1, 4], "k"] = "?"
    with pytest.raises(ValueError, match=r"^column 'k' is numeric but rows 1, 4 hold text"):
        model.predict(text)
    arr = rb.AdaBoostClassifier(n_estimators=3).fit(num.to_numpy(), y)
    assert arr.feature_schema_.names == ["x0", "x1"] and arr.feature_schema_.all_numeric


def _takes_missing(model) -> bool:
    return model._allows_nan(fitted=True) if hasattr(model, "_allows_nan") else True


@pytest.mark.parametrize("cls", BOOSTERS + TREES)
def test_unknown_categories_are_missing_by_default(cls):
    """A category no training row had, undeclared or declared by the dtype but unused, is
    predicted as a missing value (bit for bit); with unknown_categories='error', or a model
    that cannot take missing values, it is an error naming the column and rows."""
    df, y = mixed_frame()
    train = df.assign(size=df["size"].where(df["size"] != "L", "M"))  # "L" declared, unused
    model = _fit(cls, train, y)
    assert model.feature_schema_.observed[2] == [True, True, False]
    assert model.unknown_categories == "missing"
    assert not hasattr(model.feature_schema_, "unknown_categories")  # a parameter, not state
    new = df.copy()
    new.loc[[4, 9], "shape"] = "hexagon"  # undeclared
    as_missing = new.copy()
    as_missing.loc[[4, 9], "shape"] = np.nan
    as_missing.loc[df["size"] == "L", "size"] = np.nan
    if not _takes_missing(model):  # RILBoost's SVMs
        with pytest.raises(ValueError, match="does not handle missing values"):
            model.predict(new)
        return
    for method in ("predict", "predict_proba", "decision_function"):
        if hasattr(model, method):
            np.testing.assert_array_equal(getattr(model, method)(new),
                                          getattr(model, method)(as_missing))
    model.set_params(unknown_categories="error")
    with pytest.raises(ValueError, match=r"column 'shape' has the category 'hexagon', which no "
                                         r"training row had, in rows 4, 9"):
        model.predict(new)
    with pytest.raises(ValueError, match=r"column 'size' has the category 'L'"):
        model.predict(df)
    model.set_params(unknown_categories="ignore")
    with pytest.raises(ValueError, match="unknown_categories must be one of"):
        model.predict(df)
    with pytest.raises(ValueError, match="unknown_categories must be one of"):
        clone(model).fit(train, y)
    # the policy given at construction is the one predict follows
    strict = _fit(cls, train, y, unknown_categories="error")
    with pytest.raises(ValueError, match=r"column 'shape' has the category 'hexagon'"):
        strict.predict(new)


def test_cross_validation_with_a_rare_category_gives_finite_scores():
    """A category in one fold only: cross_val_score and GridSearchCV score every fold."""
    from sklearn.model_selection import GridSearchCV, KFold, cross_val_score

    df, y = mixed_frame(n=120)
    df.loc[[7], "shape"] = "comet"  # in one row, hence one test fold, only
    df["size"] = df["size"].cat.add_categories(["XL"])
    df.loc[[30, 31], "size"] = "XL"  # a category dtype: declared in every fold's training part
    cv = KFold(3, shuffle=True, random_state=0)
    scores = cross_val_score(rb.AdaBoostClassifier(n_estimators=5, random_state=0), df, y,
                             cv=cv, error_score="raise")
    assert np.all(np.isfinite(scores)) and scores.mean() > 0.6
    search = GridSearchCV(rb.SPLBoostClassifier(n_estimators=5, random_state=0),
                          {"age": [1.5, 3.0]}, cv=cv).fit(df, y)
    assert np.all(np.isfinite(search.cv_results_["mean_test_score"]))
    assert search.best_params_["age"] in (1.5, 3.0)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fit_cats=st.lists(st.sampled_from(SHAPES), min_size=1, max_size=12),
       cats=st.lists(st.sampled_from(SHAPES + ["cloud", "rain"]), unique=True, max_size=8),
       rows=st.lists(st.integers(-1, 7), min_size=1, max_size=30),
       policy=st.sampled_from(["missing", "error"]))
def test_a_categorical_column_encodes_as_its_values_do(fit_cats, cats, rows, policy):
    # a pandas categorical is encoded through its categories and codes; the same values
    # as text are looked up row by row: the same array, or the same error
    schema = FeatureSchema.from_frame(
        pd.DataFrame({"c": pd.Categorical(fit_cats), "x": np.arange(len(fit_cats))}), "keep")
    codes = [r if r < len(cats) else -1 for r in rows]
    col = pd.Categorical.from_codes(codes, categories=cats)
    as_cat = pd.DataFrame({"c": col, "x": np.arange(len(rows))})
    as_text = pd.DataFrame({"c": pd.Series(np.asarray(col, dtype=object)),
                            "x": np.arange(len(rows))})
    results = []
    for frame in (as_cat, as_text):
        try:
            results.append(schema.encode(frame, unknown_categories=policy))
        except ValueError as e:
            results.append(str(e))
    if isinstance(results[0], str):
        assert results[0] == results[1]
    else:
        np.testing.assert_array_equal(results[0], results[1])
