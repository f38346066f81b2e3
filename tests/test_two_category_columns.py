"""A categorical column of two categories splits as its codes 0 and 1 do
(docs/design/0043-two-category-columns.md): a set split of two categories is the threshold
between them, so the frame and the frame with those columns as their codes (missing:
NaN) give the same model, and the classifier's ``"auto"`` search treats such a frame as
numeric data (symmetric trees join; shared multiclass trees)."""

import warnings

import numpy as np
import pandas as pd
import pytest

from robust_boosting import (
    HistTreeClassifier,
    LogitBoostClassifier,
    SPLBoostClassifierCV,
    SPLBoostRegressorCV,
)


def _frames(n=360, k=3, seed=0):
    rng = np.random.default_rng(seed)
    num = rng.normal(size=(n, 3))
    sex = rng.integers(0, 2, n)
    smoker = rng.integers(0, 2, n).astype(float)
    smoker[rng.random(n) < 0.1] = np.nan
    score = num[:, 0] + 1.5 * sex - np.nan_to_num(smoker) * 0.8 + rng.normal(scale=0.7, size=n)
    y = np.digitize(score, np.quantile(score, [1 / k, 2 / k][:k - 1]))
    frame = pd.DataFrame({"x0": num[:, 0], "sex": pd.Categorical.from_codes(sex, ["f", "m"]),
                          "x1": num[:, 1],
                          "smoker": pd.Categorical.from_codes(
                              np.where(np.isnan(smoker), -1, smoker).astype(int), ["no", "yes"]),
                          "x2": num[:, 2]})
    codes = frame.assign(sex=sex.astype(float), smoker=smoker)
    return frame, codes, y, score


def _fit(est, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return est.fit(X, y)


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("make", [
    lambda: SPLBoostClassifierCV(random_state=0, n_estimators=20),
    lambda: LogitBoostClassifier(n_estimators=15, random_state=0),
    lambda: HistTreeClassifier(max_depth=4, random_state=0),
])
def test_two_category_columns_give_the_model_of_their_codes(make, k):
    frame, codes, y, _ = _frames(k=k)
    a, b = _fit(make(), frame, y), _fit(make(), codes, y)
    np.testing.assert_array_equal(a.predict_proba(frame), b.predict_proba(codes))


def test_regressor_two_category_columns_give_the_model_of_their_codes():
    frame, codes, _, score = _frames(n=300, seed=1)
    make = lambda: SPLBoostRegressorCV(random_state=0, n_estimators=20)  # noqa: E731
    a, b = _fit(make(), frame, score), _fit(make(), codes, score)
    np.testing.assert_array_equal(a.predict(frame), b.predict(codes))


def test_search_takes_a_frame_of_two_category_columns_as_numeric_data():
    frame, _, y, _ = _frames()
    est = _fit(SPLBoostClassifierCV(random_state=0, n_estimators=20), frame, y)
    table = est.cv_results_
    trees = dict(zip(table["param_grow_policy"], table["param_multiclass_trees"], strict=True))
    assert trees == {"depthwise": "per_class", "symmetric": "shared"}
    # above 5,000 rows: the symmetric trees of numeric data
    assert {c["grow_policy"] for c in est._search_space(5001, 3)} == {"symmetric"}
    # a third category makes the column one of sets of categories: depth-wise only
    three = frame.assign(sex=pd.Categorical.from_codes(np.arange(len(frame)) % 3, list("fmx")))
    est3 = _fit(SPLBoostClassifierCV(random_state=0, n_estimators=20), three, y)
    assert set(est3.cv_results_["param_grow_policy"]) == {"depthwise"}
    with pytest.raises(ValueError, match="more than two categories"):
        _fit(SPLBoostClassifierCV(grow_policy="symmetric", multiclass_trees="shared",
                                  n_estimators=5), three, y)
