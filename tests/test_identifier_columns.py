"""Identifier columns of every kind (docs/design/0020, amended for issue 70).

Besides a text column of nearly all distinct values, fit under ``id_columns="drop"``
leaves out, with an :class:`IdentifierColumnWarning` naming the column and the rule:

* a numeric column of at least ``ID_MIN_ROWS`` rows holding each of ``0 .. n - 1`` or
  ``1 .. n`` once (a row index, in any order);
* a first column named ``""``, ``"Unnamed: 0"`` or ``"rownames"`` (row labels written
  by pandas or R).

``id_columns="keep"`` keeps them, the cross-validated estimators' boosters included; no
column of a bundled data set is an identifier; ``robust-boosting fit`` names them.
"""

from __future__ import annotations

import gzip
import warnings
from importlib import resources

import numpy as np
import pandas as pd
import pytest

from robust_boosting import (
    HistTreeClassifier,
    IdentifierColumnWarning,
    LogitBoostClassifier,
    SPLBoostClassifierCV,
    SPLBoostRegressorCV,
)
from robust_boosting._schema import ID_MIN_ROWS, FeatureSchema
from robust_boosting.cli import main
from robust_boosting.datasets import list_datasets, load_dataset


def _frame(n=120, seed=0, **columns):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n)})
    for name, values in columns.items():
        X[name] = values
    y = (X["a"] + 0.5 * X["b"] > 0).astype(int).to_numpy()
    return X, y


def _schema(X, policy="drop"):
    """``(kinds, warning messages)`` of ``FeatureSchema.from_frame``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        schema = FeatureSchema.from_frame(X, policy)
    return schema.kinds, [str(w.message) for w in caught
                          if issubclass(w.category, IdentifierColumnWarning)]


def test_a_numeric_row_index_is_left_out_with_a_warning_naming_it():
    n = 120
    rng = np.random.default_rng(1)
    X, y = _frame(n, idx=rng.permutation(n) + 1, pos=np.arange(n, dtype=float))
    with pytest.warns(IdentifierColumnWarning) as record:
        model = LogitBoostClassifier(n_estimators=5, random_state=0).fit(X, y)
    messages = [str(w.message) for w in record]
    assert any("'idx'" in m and f"each of 1..{n} once (a row index?)" in m for m in messages)
    assert any("'pos'" in m and f"each of 0..{n - 1} once" in m for m in messages)
    assert all("id_columns='keep'" in m for m in messages)
    assert model.feature_schema_.kinds == ["numeric", "numeric", "ignored", "ignored"]
    assert list(model.feature_names_in_) == ["a", "b", "idx", "pos"]
    # the model of the frame without the columns' information; predict ignores them
    ref = LogitBoostClassifier(n_estimators=5, random_state=0).fit(
        X.assign(idx=0.0, pos=0.0), y)
    np.testing.assert_array_equal(model.predict_proba(X),
                                  ref.predict_proba(X.assign(idx=0.0, pos=0.0)))
    np.testing.assert_array_equal(model.predict_proba(X.assign(idx=-5, pos=np.nan)),
                                  model.predict_proba(X))


@pytest.mark.parametrize("name", ["", "Unnamed: 0", "rownames"])
@pytest.mark.parametrize("values", ["numbers", "text"])
def test_an_unnamed_first_column_is_left_out_whatever_its_values(name, values):
    n = 30  # below the numeric rule's rows: the name decides
    X, _ = _frame(n)
    labels = np.arange(n) if values == "numbers" else [f"car {i % 7}" for i in range(n)]
    X.insert(0, name, labels)
    kinds, messages = _schema(X)
    assert kinds == ["ignored", "numeric", "numeric"]
    assert len(messages) == 1 and f"column {name!r} was left out" in messages[0]
    assert "unnamed first column" in messages[0]
    kinds, messages = _schema(X, "keep")
    assert kinds[0] == ("numeric" if values == "numbers" else "categorical") and not messages
    # the same name elsewhere than first is no identifier by its name
    kinds, messages = _schema(X[["a", name, "b"]])
    assert kinds[1] != "ignored" and not messages
    if values == "numbers":  # nor in a frame that scikit-learn takes as an array
        kinds, messages = _schema(X.set_axis([name, 1, 2], axis=1))
        assert kinds == ["numeric"] * 3 and not messages


def test_id_columns_keep_keeps_them():
    n = 120
    X, y = _frame(n, idx=np.arange(1, n + 1))
    X.insert(0, "Unnamed: 0", np.arange(n))
    with warnings.catch_warnings():
        warnings.simplefilter("error", IdentifierColumnWarning)
        tree = HistTreeClassifier(max_depth=2, id_columns="keep").fit(X, y)
    assert tree.feature_schema_.kinds == ["numeric"] * 4


@pytest.mark.parametrize("case", ["short", "duplicate", "gap", "missing", "fractions",
                                  "from 2", "int names"])
def test_near_misses_are_not_row_indexes(case):
    n = 120
    idx = np.random.default_rng(2).permutation(n).astype(float)
    if case == "short":
        n = ID_MIN_ROWS - 1
        idx = np.arange(n, dtype=float)
    elif case == "duplicate":
        idx[idx == 5] = 6  # 5 missing, 6 twice: the range is still 0 .. n - 1
    elif case == "gap":
        idx[idx == 7] = n
    elif case == "missing":
        idx[3] = np.nan
    elif case == "fractions":
        idx = idx * (n - 1.0) / n
        idx[idx.argmax()] = n - 1
    elif case == "from 2":
        idx = idx + 2
    X, _ = _frame(n, idx=idx)
    if case == "int names":  # scikit-learn takes such a frame as an array
        X.columns = range(X.shape[1])
    kinds, messages = _schema(X)
    assert kinds[-1] == "numeric" and not messages, (case, messages)


@pytest.mark.parametrize("cls", [SPLBoostClassifierCV, SPLBoostRegressorCV])
def test_cv_estimators_apply_their_own_policy_to_their_boosters(cls):
    """With ``id_columns="keep"`` the final model keeps the columns (its boosters do not
    apply the rule again to a fold's rows); with ``"drop"`` it sees them as 0."""
    n = 150
    X, y = _frame(n, c=np.where(np.arange(n) % 3, "u", "v"))  # a categorical column
    X.insert(0, "Unnamed: 0", np.arange(n))
    target = y if cls is SPLBoostClassifierCV else X["a"].to_numpy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kept = cls(n_estimators=8, cv=2, random_state=0, id_columns="keep").fit(X, target)
        dropped = cls(n_estimators=8, cv=2, random_state=0).fit(X, target)
    assert kept.feature_schema_.kinds[0] == "numeric"
    assert kept.best_estimator_.feature_schema_.kinds[0] == "numeric"
    assert dropped.feature_schema_.kinds[0] == "ignored"
    assert dropped.best_estimator_.feature_importances_[0] == 0.0


def test_no_column_of_a_bundled_data_set_is_an_identifier(tmp_path):
    """Neither as ``load_dataset`` gives them nor as ``fit`` reads their CSV files."""
    from robust_boosting._cli_files import read_csv

    root = resources.files("robust_boosting").joinpath("data")
    names = list_datasets()
    assert len(names) >= 19
    for name in names:
        kinds, messages = _schema(load_dataset(name, as_frame=True).data)
        assert "ignored" not in kinds and not messages, (name, messages)
        path = tmp_path / f"{name}.csv"
        path.write_bytes(gzip.decompress(root.joinpath(f"{name}.csv.gz").read_bytes()))
        kinds, messages = _schema(read_csv(str(path)))
        assert "ignored" not in kinds and not messages, (name, messages)


def test_fit_command_names_the_identifier_columns_it_left_out(tmp_path, capsys):
    n = 100
    X, y = _frame(n, cust=[f"C-{i:04d}" for i in range(n)])
    csv = tmp_path / "data.csv"
    X.assign(label=y).to_csv(csv)  # with its index: 'Unnamed: 0' when read back
    args = ["fit", str(csv), "--label", "label", "--model", str(tmp_path / "m.skops"),
            "--algorithm", "splboost-hard", "--rounds", "3"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert ("identifier column(s) left out of the model: 'Unnamed: 0', 'cust' "
            "(--param id_columns=keep keeps them)\n") in out
    assert main([*args, "--param", "id_columns=keep"]) == 0
    assert "identifier column" not in capsys.readouterr().out
