"""Bundled data sets, named tasks and synthetic generators."""

from __future__ import annotations

import gzip
import json
import shutil
from collections import Counter
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from robust_boosting.datasets import (
    DatasetChecksumError,
    get_dataset_info,
    list_datasets,
    list_tasks,
    load_dataset,
    load_task,
    make_rilboost_gaussian,
    make_ringnorm,
    make_splboost_gaussian,
    make_twonorm,
    rilboost_gaussian_log_odds,
    small_sample_split,
    splboost_gaussian_log_odds,
)

DATA = Path(str(resources.files("robust_boosting").joinpath("data")))
MANIFEST = json.loads((DATA / "MANIFEST.json").read_text())


def test_every_manifest_set_is_listed():
    assert list_datasets() == sorted(MANIFEST)
    assert len(MANIFEST) == 19
    for info in MANIFEST.values():
        assert (DATA / info["file"]).is_file()
    attribution = (DATA / "README.md").read_text()
    assert "CC BY 4.0" in attribution
    for info in MANIFEST.values():
        assert f"`{info['file']}`" in attribution


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_bundled_set_matches_manifest(name):
    info = MANIFEST[name]
    data = load_dataset(name)
    n, d = info["n_samples"], info["n_features"]
    assert data.data.shape == (n, d) and data.data.dtype == np.float64
    assert np.isfinite(data.data).all()
    assert len(data.feature_names) == d
    assert Counter(data.labels.tolist()) == info["class_counts"]
    assert data.categorical_features == info["categorical_columns"]
    pos = info["positive_class"]
    if pos is None:  # multiclass kept
        assert len(data.target_names) == len(info["class_counts"])
        assert Counter(map(str, data.target.tolist())) == info["class_counts"]
    else:
        assert data.target.dtype == np.int64
        assert (data.target == 1).sum() == info["class_counts"][pos]
        assert (data.target == -1).sum() == n - info["class_counts"][pos]
        np.testing.assert_array_equal(data.target == 1, data.labels == pos)
        assert data.target_names[1] == pos
    assert name in data.DESCR and "CC BY 4.0" in data.DESCR


def test_return_X_y():
    X, y = load_dataset("sonar", return_X_y=True)
    data = load_dataset("sonar")
    np.testing.assert_array_equal(X, data.data)
    np.testing.assert_array_equal(y, data.target)


def test_categorical_ordinal_and_onehot():
    ordinal = load_dataset("german")
    enc = ordinal.categorical_encoding
    assert set(enc) == set(MANIFEST["german"]["categorical_columns"])
    j = ordinal.feature_names.index("x1")
    codes = ordinal.data[:, j]
    assert enc["x1"] == ["A11", "A12", "A13", "A14"]
    np.testing.assert_array_equal(np.array(enc["x1"])[codes.astype(int)], _raw_column("german", 0))
    numeric = ordinal.data[:, ordinal.feature_names.index("x2")]
    assert numeric[:2].tolist() == [6.0, 48.0]

    onehot = load_dataset("german", encoding="onehot")
    n_cat_cols = sum(len(v) for v in enc.values())
    assert onehot.data.shape == (1000, 20 - len(enc) + n_cat_cols)
    block = [onehot.feature_names.index(f"x1={c}") for c in enc["x1"]]
    np.testing.assert_array_equal(onehot.data[:, block].sum(axis=1), 1.0)
    np.testing.assert_array_equal(onehot.data[:, block].argmax(axis=1), codes)
    with pytest.raises(ValueError, match="encoding"):
        load_dataset("german", encoding="binary")


def _raw_column(name: str, j: int) -> np.ndarray:
    lines = gzip.decompress((DATA / f"{name}.csv.gz").read_bytes()).decode().splitlines()[1:]
    return np.array([line.split(",")[j] for line in lines])


def test_multiclass_wine_keeps_labels():
    data = load_dataset("wine")
    assert data.target.dtype == np.int64
    assert Counter(data.target.tolist()) == {1: 59, 2: 71, 3: 48}
    assert data.positive_class is None


def _copy_data(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DATA, target)
    return target


def test_corrupted_copy_is_refused_naming_the_file(tmp_path):
    data_dir = _copy_data(tmp_path)
    path = data_dir / "haberman.csv.gz"
    text = gzip.decompress(path.read_bytes())
    path.write_bytes(gzip.compress(text.replace(b"38,59,2", b"38,59,3", 1)))
    with pytest.raises(DatasetChecksumError, match="haberman.csv.gz") as err:
        load_dataset("haberman", data_dir=data_dir)
    assert MANIFEST["haberman"]["sha256_uncompressed_csv"] in str(err.value)
    # the untouched files of the same copy still load
    assert load_dataset("bupa", data_dir=data_dir).data.shape == (345, 6)


def test_truncated_gzip_is_refused_naming_the_file(tmp_path):
    data_dir = _copy_data(tmp_path)
    path = data_dir / "sonar.csv.gz"
    path.write_bytes(path.read_bytes()[:200])
    with pytest.raises(DatasetChecksumError, match=r"sonar\.csv\.gz.*gzip"):
        load_dataset("sonar", data_dir=data_dir)


def test_unknown_name():
    with pytest.raises(KeyError, match="unknown bundled data set"):
        load_dataset("iris")
    assert get_dataset_info("ecoli")["positive_class"] == "cp"


# --- named tasks -------------------------------------------------------------


def test_rilboost_wine_and_ecoli_tasks():
    wine = load_task("rilboost-wine")
    raw = load_dataset("wine")
    np.testing.assert_array_equal(wine.target == -1, raw.target == 1)
    assert Counter(wine.target.tolist()) == {-1: 59, 1: 119}  # RILBoost Table 1: 59 / 119
    ecoli = load_task("rilboost-ecoli")
    assert Counter(ecoli.target.tolist()) == {-1: 143, 1: 193}  # cp (143) vs rest (193)
    np.testing.assert_array_equal(ecoli.target == -1, ecoli.labels == "cp")
    assert "rilboost-ecoli" in ecoli.DESCR


def test_task_lists():
    spl = list_tasks("splboost")
    assert len(spl) == 17  # SPLBoost Table I
    assert "splboost-st-german-credit" in spl and "splboost-adult" in spl
    offline = list_tasks(offline_only=True)
    assert "splboost-adult" not in offline
    assert len(list_tasks("savageboost")) == 8
    assert "rilboost-yeast" not in list_tasks("rilboost")
    with pytest.raises(ValueError, match="unknown paper"):
        list_tasks("xgboost")
    with pytest.raises(KeyError, match="unknown task"):
        load_task("rilboost-iris")


@pytest.mark.parametrize("name", list_tasks(offline_only=True))
def test_offline_tasks_are_binary(name):
    X, y = load_task(name, return_X_y=True)
    assert set(np.unique(y).tolist()) == {-1, 1}
    assert X.shape[0] == y.shape[0]


# --- synthetic generators ----------------------------------------------------


def test_splboost_gaussian():
    X, y = make_splboost_gaussian(random_state=0)
    assert X.shape == (200, 2) and Counter(y.tolist()) == {-1: 100, 1: 100}
    X2, y2 = make_splboost_gaussian(random_state=0)
    np.testing.assert_array_equal(X, X2)
    Xb, yb = make_splboost_gaussian(20000, random_state=1)
    np.testing.assert_allclose(Xb[yb == -1].mean(0), [2, -2], atol=0.1)
    np.testing.assert_allclose(Xb[yb == 1].mean(0), [-2, 2], atol=0.1)
    np.testing.assert_allclose(np.cov(Xb[yb == -1].T), [[2.5, 1.5], [1.5, 5]], atol=0.2)
    np.testing.assert_allclose(np.cov(Xb[yb == 1].T), [[2.3, -0.7], [-0.7, 2.3]], atol=0.2)
    bayes_acc = np.mean(np.sign(splboost_gaussian_log_odds(Xb)) == yb)
    assert 0.9 < bayes_acc < 0.99
    Xs, ys = make_splboost_gaussian(random_state=0, shuffle=True)
    assert not np.array_equal(ys, y) and sorted(ys.tolist()) == sorted(y.tolist())


def test_rilboost_gaussian():
    X, y = make_rilboost_gaussian(20000, random_state=0)
    np.testing.assert_allclose(X[y == -1].mean(0), [2, 2], atol=0.1)
    np.testing.assert_allclose(X[y == 1].mean(0), [3, 3], atol=0.1)
    np.testing.assert_allclose(X[y == 1].std(0), [3, 3], atol=0.1)
    lo = rilboost_gaussian_log_odds(np.array([[2.5, 2.5], [0.0, 0.0], [6.0, 6.0]]))
    assert abs(lo[0]) < 1e-12 and lo[1] < 0 < lo[2]


@pytest.mark.parametrize("make", [make_twonorm, make_ringnorm])
def test_breiman_sets_any_size(make):
    for n, d in [(1, 20), (57, 3), (500, 50)]:
        X, y = make(n, d, random_state=0)
        assert X.shape == (n, d) and set(y.tolist()) <= {-1, 1}
    X1, y1 = make(100, random_state=3)
    X2, y2 = make(100, random_state=3)
    np.testing.assert_array_equal(X1, X2)
    with pytest.raises(ValueError, match="n_samples"):
        make(0)


def test_twonorm_and_ringnorm_distributions():
    X, y = make_twonorm(20000, random_state=0)
    a = 2 / np.sqrt(20)
    np.testing.assert_allclose(X[y == 1].mean(0), -a, atol=0.05)
    np.testing.assert_allclose(X[y == -1].mean(0), a, atol=0.05)
    # Bayes rule: sign of -sum(x); Breiman's Bayes error is about 2.3 %
    assert np.mean(np.sign(-X.sum(1)) != y) == pytest.approx(0.023, abs=0.006)
    X, y = make_ringnorm(20000, random_state=0)
    np.testing.assert_allclose(X[y == -1].var(0), 4, rtol=0.1)
    np.testing.assert_allclose(X[y == 1].var(0), 1, rtol=0.1)
    np.testing.assert_allclose(X[y == 1].mean(0), a, atol=0.05)
    assert abs(np.mean(y == 1) - 0.5) < 0.02


def test_small_sample_split():
    y = load_task("rilboost-haberman").target
    train, test = small_sample_split(y, 20, random_state=0)
    assert Counter(y[train].tolist()) == {-1: 10, 1: 10}
    assert len(np.intersect1d(train, test)) == 0 and len(train) + len(test) == len(y)
    again, _ = small_sample_split(y, 20, random_state=0)
    np.testing.assert_array_equal(train, again)
    with pytest.raises(ValueError, match="even"):
        small_sample_split(y, 21)
    with pytest.raises(ValueError, match="fewer than"):
        small_sample_split(np.array([1, 1, 1, -1]), 4)


def test_load_xy_resolves_every_kind_of_name():
    from robust_boosting.datasets import load_xy

    X, y = load_xy("rilboost-wine")
    assert set(np.unique(y)) == {-1, 1}  # a task: binary -1/+1
    Xw, yw = load_xy("wine")
    assert len(np.unique(yw)) == 3 and Xw.shape == X.shape  # the bundled set, own labels
    a, _ = load_xy("rilboost-gaussian", random_state=1)
    b, _ = load_xy("rilboost-gaussian", random_state=1)
    c, _ = load_xy("rilboost-gaussian", random_state=2)
    assert a.shape == (200, 2) and np.array_equal(a, b) and not np.array_equal(a, c)
    with pytest.raises(ValueError, match="unknown data set 'nope'.*rilboost-gaussian"):
        load_xy("nope")


def test_loaders_return_scikit_learn_style_bunches():
    """data/target/feature_names/target_names/DESCR/frame as in sklearn.datasets loaders."""
    import pandas as pd

    data = load_dataset("wdbc")
    assert {"data", "target", "feature_names", "target_names", "DESCR", "frame"} <= set(data)
    assert "X" not in data and "y" not in data and data.frame is None
    framed = load_dataset("wdbc", as_frame=True)
    assert isinstance(framed.data, pd.DataFrame) and isinstance(framed.target, pd.Series)
    assert list(framed.frame.columns) == [*data.feature_names, "target"]
    np.testing.assert_array_equal(framed.data.to_numpy(), data.data)
    np.testing.assert_array_equal(framed.frame["target"].to_numpy(), data.target)
    X, y = load_dataset("wdbc", return_X_y=True, as_frame=True)
    assert isinstance(X, pd.DataFrame) and isinstance(y, pd.Series)
    task = load_task("rilboost-wine", as_frame=True)
    assert set(np.unique(task.frame["target"])) == {-1, 1} and "rilboost-wine" in task.DESCR
    Xt, yt = load_task("rilboost-wine", return_X_y=True)
    np.testing.assert_array_equal(Xt, task.data.to_numpy())
    np.testing.assert_array_equal(yt, task.target.to_numpy())
