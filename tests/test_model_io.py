"""Public model I/O: ``robust_boosting.save_model`` / ``robust_boosting.load_model``."""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification

import robust_boosting as rb
from robust_boosting.rilboost import RILBoostClassifier

ESTIMATORS = [
    rb.AdaBoostClassifier(n_estimators=5),
    rb.SPLBoostClassifier(n_estimators=5),
    rb.RealBoostClassifier(n_estimators=5),
    rb.GentleBoostClassifier(n_estimators=5),
    rb.LogitBoostClassifier(n_estimators=5),
    rb.SPLLogitBoostClassifier(n_estimators=5),
    rb.SPLGentleBoostClassifier(n_estimators=5, regularizer="linear", age=5.0),
    rb.SavageBoostClassifier(n_estimators=5),
    rb.RBoostClassifier(n_estimators=5),
    rb.RobustBoostClassifier(n_estimators=5),
    RILBoostClassifier(n_estimators=5),
    rb.SPLBoostClassifierCV(n_estimators=5),
    rb.HistTreeClassifier(max_depth=3),
]


def _data(n_classes):
    X, y = make_classification(n_samples=120, n_features=4, n_informative=3, n_redundant=0,
                               n_classes=n_classes, n_clusters_per_class=1, random_state=0)
    X = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    X["cat"] = pd.Categorical(np.where(X["a"] > 0, "p", "q"))
    return X, y


def _outputs(model, X):
    out = [model.predict(X), model.predict_proba(X)]
    if hasattr(model, "decision_function"):
        out.append(model.decision_function(X))
    return out


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_round_trip_is_bit_identical(est, n_classes, tmp_path):
    X, y = _data(n_classes)
    try:
        est.fit(X, y)
    except ValueError as exc:  # an estimator that is binary only says so
        if n_classes > 2 and "binary" in str(exc):
            pytest.skip(str(exc))
        raise
    path = tmp_path / "m.skops"
    rb.save_model(est, path)
    loaded = rb.load_model(path)
    assert type(loaded) is type(est)
    for a, b in zip(_outputs(est, X), _outputs(loaded, X), strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_symmetric_trees_with_set_splits_round_trip(n_classes, tmp_path):
    """Symmetric trees that split a categorical column into sets (one tree per class
    with three classes) load and predict bit for bit."""
    rng = np.random.RandomState(0)
    X = pd.DataFrame({"a": rng.randn(300), "c": pd.Categorical(rng.choice(list("pqrs"), 300))})
    y = (X["c"].cat.codes.to_numpy() + (X["a"] > 0.5)) % n_classes
    est = rb.SPLBoostClassifierCV(n_estimators=5, grow_policy="symmetric", max_depth=2,
                                  random_state=0).fit(X, y)
    trees = [t for round_ in est.best_estimator_.estimators_
             for t in getattr(round_, "estimators_", [round_])]
    assert any(t.tree_.is_categorical[t.tree_.children_left >= 0].any() for t in trees)
    rb.save_model(est, tmp_path / "m.skops")
    loaded = rb.load_model(tmp_path / "m.skops")
    for a, b in zip(_outputs(est, X), _outputs(loaded, X), strict=True):
        np.testing.assert_array_equal(a, b)


def test_save_model_refuses_an_unfitted_estimator(tmp_path):
    with pytest.raises(ValueError, match="fitted estimator"):
        rb.save_model(rb.AdaBoostClassifier(), tmp_path / "m.skops")


class Foreign:
    """A type that is not robust-boosting's."""


def test_load_model_refuses_foreign_types(tmp_path):
    import skops.io as sio
    from sklearn.linear_model import LogisticRegression

    X, y = _data(2)
    path = tmp_path / "m.skops"
    sio.dump({"model": LogisticRegression().fit(X[["a", "b"]], y), "label": None,
              "feature_columns": ["a", "b"], "extra": Foreign()}, path)
    with pytest.raises(ValueError, match="not robust-boosting's"):
        rb.load_model(path)


def test_trusted_pickles_of_an_estimator_load_and_other_shapes_are_named(tmp_path):
    import joblib

    X, y = _data(2)
    est = rb.AdaBoostClassifier(n_estimators=3).fit(X, y)
    joblib.dump(est, tmp_path / "bare.joblib")
    loaded = rb.load_model(tmp_path / "bare.joblib", trust_pickle=True)
    np.testing.assert_array_equal(loaded.predict_proba(X), est.predict_proba(X))
    joblib.dump([1, 2], tmp_path / "list.joblib")
    with pytest.raises(ValueError, match="holds a list, which is neither an estimator"):
        rb.load_model(tmp_path / "list.joblib", trust_pickle=True)
    joblib.dump(rb.AdaBoostClassifier(), tmp_path / "unfitted.joblib")
    with pytest.raises(ValueError, match="unfitted AdaBoostClassifier"):
        rb.load_model(tmp_path / "unfitted.joblib", trust_pickle=True)


@pytest.mark.parametrize("protocol", [0, 1, 2])
def test_a_pickle_of_any_protocol_is_named_as_a_pickle(tmp_path, protocol):
    """A protocol-0 pickle is text, and was described as "text (a CSV file?)" (issue 56): a
    pickle of any protocol is named, with its protocol, refused without trust_pickle, and
    loads with it. Text that is not a pickle is still "text"."""
    import pickle

    X, y = _data(2)
    est = rb.AdaBoostClassifier(n_estimators=3).fit(X, y)
    path = tmp_path / "model.pkl"
    path.write_bytes(pickle.dumps(est, protocol=protocol))
    with pytest.raises(ValueError, match=rf"a pickle \(protocol {protocol}\) file") as info:
        rb.load_model(path)
    assert "CSV" not in str(info.value)
    assert "skops files, written by robust_boosting.save_model" in str(info.value)
    loaded = rb.load_model(path, trust_pickle=True)
    np.testing.assert_array_equal(loaded.predict_proba(X), est.predict_proba(X))
    csv = tmp_path / "data.csv"
    csv.write_text("a,b,label\n1.0,2.,x\n")
    with pytest.raises(ValueError, match=r"its content is text \(a CSV file\?\)"):
        rb.load_model(csv)


def test_moved_classes_resolve_by_their_old_paths():
    """Classes moved after 0.1.0 still load by the path its pickles and files name."""
    import pickle

    from robust_boosting import learners, robust, steps
    from robust_boosting._model_io import TRUSTED_TYPES

    assert steps.RobustBoostStep is robust.RobustBoostStep
    assert steps.RobustBoostState is robust.RobustBoostState
    assert steps.robustboost_rho is robust.robustboost_rho
    assert steps.PerClassRegressor is learners.PerClassRegressor
    for old, new in [("steps\nRobustBoostStep", robust.RobustBoostStep),
                     ("steps\nPerClassRegressor", learners.PerClassRegressor)]:
        assert pickle.loads(f"crobust_boosting.{old}\n.".encode()) is new
    for name in ("steps.RobustBoostStep", "steps.RobustBoostState", "steps.PerClassRegressor",
                 "robust.RobustBoostStep", "learners.PerClassRegressor"):
        assert f"robust_boosting.{name}" in TRUSTED_TYPES


def _schema_classes(path):
    import json
    import zipfile

    classes = []

    def walk(node):
        if isinstance(node, dict):
            if "__class__" in node:
                classes.append(node["__class__"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads(zipfile.ZipFile(path).read("schema.json")))
    return classes


@pytest.mark.parametrize("est", [
    rb.AdaBoostClassifier(n_estimators=8, random_state=0),
    rb.LogitBoostClassifier(n_estimators=4, random_state=0),  # PerClassRegressor's trees
    rb.LogitBoostClassifier(n_estimators=4, multiclass_trees="shared", random_state=0,
                            estimator=rb.HistTreeRegressor(max_depth=2,
                                                           grow_policy="symmetric")),
], ids=["stumps", "per-class", "shared"])
def test_a_saved_ensemble_stores_its_bins_once(est, tmp_path):
    """The trees of a fit share one bin mapper; the file holds it once (not once per tree,
    nor again for ``estimators_``, a view of ``ensembles_``) and the loaded trees share it
    again: the binned paths (``apply`` on binned data) and the staged predictions work."""
    X, y = _data(3)
    X = X.drop(columns="cat").to_numpy()
    est.fit(X, y)
    path = tmp_path / "m.skops"
    rb.save_model(est, path)
    assert _schema_classes(path).count("BinMapper") == 1
    loaded = rb.load_model(path)
    assert loaded.estimators_ is loaded.ensembles_[0].estimators
    trees = [t for est_ in loaded.estimators_ for t in getattr(est_, "estimators_", [est_])]
    mapper = trees[0].bin_mapper_
    assert all(t.bin_mapper_ is mapper for t in trees)
    for a, b in zip(est.staged_predict_proba(X), loaded.staged_predict_proba(X), strict=True):
        np.testing.assert_array_equal(a, b)
    binned = loaded.estimator_.prepare_data(X)
    for old, new in zip(est.estimators_, loaded.estimators_, strict=True):
        np.testing.assert_array_equal(old.predict(binned), new.predict(binned))
    np.testing.assert_array_equal(est.feature_importances_, loaded.feature_importances_)
    if hasattr(trees[0], "get_depth"):
        assert [t.get_depth() for t in trees] == [
            t.get_depth() for e in est.estimators_ for t in getattr(e, "estimators_", [e])]


def test_pickles_share_the_bins_and_keep_the_model(tmp_path):
    import pickle

    X, y = _data(2)
    est = rb.SPLBoostClassifier(n_estimators=10, random_state=0).fit(X, y)
    loaded = pickle.loads(pickle.dumps(est))
    assert loaded.estimators_ is loaded.ensembles_[0].estimators
    assert len({id(t.bin_mapper_) for t in loaded.estimators_}) == 1
    np.testing.assert_array_equal(est.predict_proba(X), loaded.predict_proba(X))
    assert "n_node_samples" in vars(est.estimators_[0].tree_)  # the fitted model keeps them


def test_a_stump_model_file_is_small(tmp_path):
    """60 stumps on 1,500 rows: 4.8 MB when every tree stored its bin mapper and its own
    node arrays (measured), now about 80 kB (40 kB of it the bin edges)."""
    import zipfile

    X, y = make_classification(n_samples=1500, n_features=20, random_state=0)
    est = rb.AdaBoostClassifier(n_estimators=60, random_state=0).fit(X, y)
    rb.save_model(est, tmp_path / "m.skops")
    assert (tmp_path / "m.skops").stat().st_size < 150_000
    assert "HistTree" not in _schema_classes(tmp_path / "m.skops")  # node tables instead
    assert len(zipfile.ZipFile(tmp_path / "m.skops").namelist()) < 150


def test_a_bin_mapper_keeps_its_edges_once():
    import pickle

    from robust_boosting.trees import BinMapper

    X, _ = make_classification(n_samples=300, n_features=5, random_state=0)
    mapper = BinMapper().fit(X)
    assert "thresholds_" not in mapper.__getstate__()
    loaded = pickle.loads(pickle.dumps(mapper))
    assert loaded.same_bins(mapper)
    for a, b in zip(mapper.thresholds_, loaded.thresholds_, strict=True):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(mapper.transform(X).codes, loaded.transform(X).codes)


def _column_selector_pipeline():
    """A Pipeline whose ColumnTransformer picks columns with ``make_column_selector``."""
    from sklearn.compose import ColumnTransformer, make_column_selector
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    X, y = _data(2)
    columns = ColumnTransformer([
        ("num", StandardScaler(), make_column_selector(dtype_include=np.number)),
        ("cat", OneHotEncoder(), make_column_selector(dtype_include="category", pattern="^c")),
    ], remainder="drop")
    model = make_pipeline(columns, rb.AdaBoostClassifier(n_estimators=5, random_state=0))
    return model.fit(X, y), X


def test_a_pipeline_with_make_column_selector_round_trips(tmp_path):
    """A ColumnTransformer choosing its columns with make_column_selector (plain data: a
    pattern and dtypes) saved without a word, then load_model refused it (issue 70)."""
    model, X = _column_selector_pipeline()
    rb.save_model(model, tmp_path / "pipe.skops")
    loaded = rb.load_model(tmp_path / "pipe.skops")
    for got, expected in zip(_outputs(loaded, X), _outputs(model, X), strict=True):
        np.testing.assert_array_equal(got, expected)


class OwnScaler:
    """A pipeline step of the user's own: not a type a model file trusts by default."""

    def fit(self, X, y=None):
        return self

    def transform(self, X):
        return np.asarray(X, dtype=float) * 2.0


def test_save_model_refuses_up_front_what_load_model_would_refuse(tmp_path):
    """No file is written that load_model cannot read: the refusal names the type and the
    remedy, trusted=[...], which then saves and loads the model (issue 70)."""
    from sklearn.pipeline import make_pipeline

    X, y = _data(2)
    X = X.drop(columns="cat")
    model = make_pipeline(OwnScaler(), rb.AdaBoostClassifier(n_estimators=3)).fit(X, y)
    name = f"{OwnScaler.__module__}.OwnScaler"
    path = tmp_path / "own.skops"
    with pytest.raises(ValueError, match=rf"holds a type that load_model would refuse .*"
                                         rf"{name}; if you trust it, pass trusted=\['{name}'\]"):
        rb.save_model(model, path)
    assert list(tmp_path.iterdir()) == []  # nothing written, no temporary file left
    path.write_bytes(b"an older file")
    with pytest.raises(ValueError, match="load_model would refuse"):
        rb.save_model(model, path)
    assert list(tmp_path.iterdir()) == [path] and path.read_bytes() == b"an older file"
    rb.save_model(model, path, trusted=[name])
    with pytest.raises(ValueError, match=rf"not robust-boosting's: {name}; if you trust "
                                         rf"them, pass trusted=\['{name}'\] to load_model"):
        rb.load_model(path)
    for trusted in ([name], [OwnScaler]):
        loaded = rb.load_model(path, trusted=trusted)
        np.testing.assert_array_equal(loaded.predict_proba(X), model.predict_proba(X))
    with pytest.raises(TypeError, match="trusted must be a list of type names"):
        rb.load_model(path, trusted=name)


def test_files_naming_the_contracts_old_module_load(tmp_path):
    """The loop's contracts moved from ``robust_boosting._interfaces`` to the public
    ``robust_boosting.interfaces`` (issue 70): a file naming the old module still loads."""
    import zipfile

    from robust_boosting import _interfaces, exceptions, interfaces

    assert _interfaces.WeightPolicy is interfaces.WeightPolicy
    assert _interfaces.BoostingStoppedWarning is exceptions.BoostingStoppedWarning \
        is rb.BoostingStoppedWarning
    X, y = _data(2)
    model = rb.AdaBoostClassifier(n_estimators=4, random_state=0).fit(X, y)
    new, old = tmp_path / "new.skops", tmp_path / "old.skops"
    rb.save_model(model, new)
    with zipfile.ZipFile(new) as src, zipfile.ZipFile(old, "w") as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "schema.json":
                assert b'"robust_boosting.interfaces"' in data
                data = data.replace(b'"robust_boosting.interfaces"',
                                    b'"robust_boosting._interfaces"')
            dst.writestr(item, data)
    for got, expected in zip(_outputs(rb.load_model(old), X), _outputs(model, X), strict=True):
        np.testing.assert_array_equal(got, expected)
