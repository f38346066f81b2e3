"""High-cardinality and identifier columns (docs/design/0020).

* a category with fewer than ``min_category_count`` training rows shares the bin
  "other" with the other rare ones; a column of more than 255 categories keeps the most
  frequent and groups the rest (not an error);
* a text or category column of nearly all distinct values is left out of the model
  with an :class:`IdentifierColumnWarning` naming it, unless ``id_columns="keep"``;
* an unrelated text column does not make the robust default much worse.
"""

import inspect
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import train_test_split

import robust_boosting as rb
from robust_boosting import (
    HistTreeClassifier,
    IdentifierColumnWarning,
    LogitBoostClassifier,
    SPLBoostClassifierCV,
    load_model,
    save_model,
)
from robust_boosting.datasets import load_dataset
from robust_boosting.trees import BinMapper


def german_frame():
    """The bundled German credit set with its categorical columns as text."""
    b = load_dataset("german")
    X = pd.DataFrame(b.data, columns=b.feature_names)
    for col, cats in b.categorical_encoding.items():
        X[col] = pd.Series([str(cats[int(c)]) for c in X[col]], dtype=object)
    return X, np.asarray(b.target)


def with_text_column(X, levels, seed, name="noise"):
    rng = np.random.default_rng(1000 + seed)
    return X.assign(**{name: [f"t{v}" for v in rng.integers(0, levels, len(X))]})


def test_every_estimator_takes_id_columns():
    for name in rb.__all__:
        cls = getattr(rb, name)
        if isinstance(cls, type) and hasattr(cls, "fit"):
            params = inspect.signature(cls).parameters
            assert params["id_columns"].default == "drop", name
            assert cls().get_params()["id_columns"] == "drop"


def test_identifier_column_is_left_out_with_a_warning_naming_it():
    X, y = german_frame()
    X = X.iloc[:300].assign(customer=[f"C-{i:05d}" for i in range(300)])
    y = y[:300]
    with pytest.warns(IdentifierColumnWarning, match="'customer'"):
        model = LogitBoostClassifier(n_estimators=20, random_state=0).fit(X, y)
    assert model.feature_schema_.kinds[-1] == "ignored"
    assert list(model.feature_names_in_) == list(X.columns)
    # the same model as one fitted without the column's information
    ref = LogitBoostClassifier(n_estimators=20, random_state=0).fit(X.assign(customer=0.0), y)
    np.testing.assert_array_equal(model.predict_proba(X), ref.predict_proba(X.assign(customer=0.0)))
    # predict ignores the column: new identifiers (or missing ones) change nothing
    other = X.assign(customer=[f"new{i}" for i in range(300)])
    np.testing.assert_array_equal(model.predict_proba(other), model.predict_proba(X))
    with pytest.raises(ValueError, match="lacks the column"):
        model.predict(X.drop(columns="customer"))


def test_id_columns_keep_keeps_it_and_bad_values_are_refused():
    X, y = german_frame()
    X = X.iloc[:200].assign(customer=[f"C-{i:05d}" for i in range(200)])
    y = y[:200]
    with warnings.catch_warnings():
        warnings.simplefilter("error", IdentifierColumnWarning)
        tree = HistTreeClassifier(max_depth=2, id_columns="keep").fit(X, y)
    assert tree.feature_schema_.kinds[-1] == "categorical"
    with pytest.raises(ValueError, match="id_columns must be one of"):
        HistTreeClassifier(id_columns="yes").fit(X, y)


def test_few_distinct_values_or_numbers_are_not_identifiers():
    n = 200
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"small": [f"s{i}" for i in range(19)] + ["s0"] * (n - 19),
                      "half": [f"h{i // 2}" for i in range(n)],  # 100 of 200: kept
                      "num": rng.normal(size=n)})  # numbers are never identifiers
    y = rng.integers(0, 2, n)
    with warnings.catch_warnings():
        warnings.simplefilter("error", IdentifierColumnWarning)
        tree = HistTreeClassifier().fit(X, y)
    assert tree.feature_schema_.kinds == ["categorical", "categorical", "numeric"]


def test_rare_categories_share_one_bin_and_more_than_255_are_taken():
    rng = np.random.default_rng(0)
    n = 5000
    codes = np.concatenate([np.repeat(np.arange(300), 12), rng.integers(300, 2000, n - 3600)])
    X = pd.DataFrame({"c": [f"v{c:04d}" for c in codes]})
    y = rng.integers(0, 2, n)
    tree = HistTreeClassifier(max_depth=3).fit(X, y)  # 1,700+ categories: not an error
    mapper = tree.bin_mapper_
    assert mapper.n_bins_[0] == 255  # the 254 most frequent, then "other"
    lut = mapper.category_bins_[0]
    counts = X["c"].value_counts()[tree.feature_schema_.categories[0]].to_numpy()
    kept = lut < 254
    assert kept.sum() == 254 and counts[kept].min() >= counts[~kept].max()
    # rare categories grouped: 20 categories of 12 rows, 30 of 3 rows -> 20 bins + "other"
    codes = np.concatenate([np.repeat(np.arange(20), 12), np.repeat(np.arange(20, 50), 3)])
    m = BinMapper(min_category_count=10).fit(codes[:, None].astype(float), n_categories=[50])
    assert m.n_bins_[0] == 21
    binned = m.transform(codes[:, None].astype(float)).codes[:, 0]
    np.testing.assert_array_equal(binned, np.where(codes < 20, codes, 20))
    assert BinMapper(min_category_count=1).fit(codes[:, None].astype(float),
                                               n_categories=[50]).category_bins_ is None


def test_2000_level_column_fits_predicts_and_round_trips(tmp_path):
    X, y = german_frame()
    X = with_text_column(X, 2000, seed=0)  # 1,000 rows: about 790 distinct levels
    with warnings.catch_warnings():
        warnings.simplefilter("error", IdentifierColumnWarning)
        model = LogitBoostClassifier(n_estimators=10, random_state=0).fit(X, y)
    assert model.feature_schema_.kinds[-1] == "categorical"
    new = X.assign(noise=["never-seen"] * len(X))
    proba = model.predict_proba(new)
    assert np.all(np.isfinite(proba))
    with pytest.raises(ValueError, match="column 'noise' has the category 'never-seen'"):
        model.set_params(unknown_categories="error").predict(new)
    model.set_params(unknown_categories="missing")
    path = tmp_path / "m.skops"
    save_model(model, path)
    np.testing.assert_array_equal(load_model(path).predict_proba(X), model.predict_proba(X))


def _error_increase(fit, levels, n_splits):
    X0, y = german_frame()
    diffs = []
    for seed in range(n_splits):
        X = with_text_column(X0, levels, seed)
        tr, te = train_test_split(np.arange(len(y)), test_size=0.3, stratify=y,
                                  random_state=seed)
        errs = []
        for cols in (list(X0.columns), list(X.columns)):
            Xs = X[cols]
            pred = fit(Xs.iloc[tr], y[tr], seed).predict(Xs.iloc[te])
            errs.append(100 * np.mean(pred != y[te]))
        diffs.append(errs[1] - errs[0])
    return float(np.mean(diffs))


def test_unrelated_150_level_column_costs_little_logitboost():
    """The boosted trees themselves (fast): a 150-level text column unrelated to the
    label raises the test error of 50 rounds of LogitBoost by at most 1.5 points."""
    def fit(X, y, seed):
        return LogitBoostClassifier(n_estimators=50, learning_rate=0.1,
                                    random_state=seed).fit(X, y)
    assert _error_increase(fit, 150, 3) <= 1.5


@pytest.mark.slow
def test_unrelated_150_level_column_costs_little_splboost_cv():
    """The acceptance of issue 56: SPLBoostClassifierCV() on the German credit set, mean
    of 3 splits, at most 1.5 points more test error with the unrelated column."""
    def fit(X, y, seed):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return SPLBoostClassifierCV(random_state=seed).fit(X, y)
    assert _error_increase(fit, 150, 3) <= 1.5


def test_splboost_cv_leaves_an_identifier_out_and_predicts():
    X, y = german_frame()
    X = X.iloc[:240].assign(when=[f"2024-01-01 10:{i // 60:02d}:{i % 60:02d}"
                                  for i in range(240)])
    y = y[:240]
    with pytest.warns(IdentifierColumnWarning, match="'when'"):
        model = SPLBoostClassifierCV(random_state=0, n_estimators=20).fit(X, y)
    pred = model.predict(X.assign(when="later"))
    np.testing.assert_array_equal(pred, model.predict(X))
    assert len(np.unique(model.predict(X))) == 2
