"""The robust-boosting command: subcommands, CSV fit/predict, clear errors."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from robust_boosting import explain_suspects
from robust_boosting.cli import build_parser, main


@pytest.mark.parametrize("cmd", ["demo", "datasets", "fit", "predict", "benchmark", "report"])
def test_subcommand_help(cmd, capsys):
    with pytest.raises(SystemExit) as exc:
        main([cmd, "--help"])
    assert exc.value.code == 0
    assert "usage: robust-boosting" in capsys.readouterr().out


def test_benchmark_help_names_presets_and_formats(capsys):
    with pytest.raises(SystemExit):
        main(["benchmark", "--help"])
    out = capsys.readouterr().out
    for word in ("quick", "splboost-uci", "savageboost-table4", "rilboost-small-sample",
                 "splboost-synthetic", "TOML", "YAML", "--dask-scheduler", "--lambda-grid"):
        assert word in out


def test_plot_command_is_registered_when_available():
    import importlib.util

    names = build_parser()._subparsers._group_actions[0].choices
    has_plot = importlib.util.find_spec("robust_boosting.plotting._cli") is not None
    assert ("plot" in names) == has_plot


def test_datasets_list_and_describe(capsys):
    assert main(["datasets"]) == 0
    out = capsys.readouterr().out
    assert "pima" in out and "rilboost-wine" in out
    assert main(["datasets", "describe", "rilboost-wine"]) == 0
    assert "178 samples x 13 features" in capsys.readouterr().out
    assert main(["datasets", "describe", "nope"]) == 2
    assert "robust-boosting datasets: error: unknown data set" in capsys.readouterr().err


@pytest.fixture
def csv_files(tmp_path):
    rng = np.random.RandomState(0)
    n = 160
    X = rng.normal(size=(n, 3))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] > 0, "yes", "no")
    colour = rng.choice(["red", "green"], size=n)
    df = pd.DataFrame({"a": X[:, 0], "b": X[:, 1], "c": X[:, 2], "colour": colour,
                       "target": y})
    train, test = tmp_path / "train.csv", tmp_path / "test.csv"
    df.iloc[:120].to_csv(train, index=False)
    df.iloc[120:].to_csv(test, index=False)
    return train, test, df


def test_fit_predict_round_trip(tmp_path, csv_files, capsys):
    from robust_boosting._model_io import load_bundle

    train, test, df = csv_files
    model = tmp_path / "m.skops"
    assert main(["fit", str(train), "--label", "target", "--algorithm", "splboost-hard",
                 "--param", "age=3.0", "--rounds", "20", "--model", str(model)]) == 0
    assert "model saved to" in capsys.readouterr().out
    out = tmp_path / "pred.csv"
    # predict on a file without the label column, columns in another order
    df.iloc[120:][["colour", "c", "b", "a"]].to_csv(tmp_path / "nolabel.csv", index=False)
    assert main(["predict", str(tmp_path / "nolabel.csv"), "--model", str(model),
                 "--output", str(out)]) == 0
    pred = pd.read_csv(out)["prediction"].to_numpy()
    bundle = load_bundle(model)
    assert bundle["model"].get_params()["age"] == 3.0
    expected = bundle["model"].predict(df.iloc[120:].drop(columns="target"))
    assert list(pred) == list(expected)
    assert set(pred) <= {"yes", "no"} and np.mean(pred == df["target"][120:].to_numpy()) > 0.7
    assert main(["predict", str(test), "--model", str(model)]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("prediction\n")
    assert "error against the 'target' column" in captured.err


def test_fit_errors(tmp_path, csv_files, capsys):
    train, _, _ = csv_files
    model = str(tmp_path / "m.skops")
    cases = [
        (["fit", str(train), "--label", "nope", "--model", model], "label column 'nope'"),
        (["fit", str(train), "--label", "target", "--algorithm", "xgboost", "--model", model],
         "unknown algorithm 'xgboost'"),
        (["fit", str(tmp_path / "missing.csv"), "--label", "y", "--model", model], "not found"),
        (["fit", str(train), "--label", "target", "--param", "oops", "--model", model],
         "NAME=VALUE"),
        (["fit", str(train), "--label", "target", "--param", "nonsense=1", "--model", model],
         "has no parameter"),
    ]
    bad = tmp_path / "bad.csv"
    bad.write_text('a,b,target\n1,2,yes\n3,"4,no\n5,6,7,8,9\n')
    cases.append((["fit", str(bad), "--label", "target", "--model", model], "cannot read CSV"))
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    cases.append((["fit", str(empty), "--label", "target", "--model", model], "cannot read CSV"))
    for argv, message in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith(f"robust-boosting {argv[0]}: error:"), err
        assert message in err, (message, err)


def test_predict_errors(tmp_path, csv_files, capsys):
    train, _, df = csv_files
    model = tmp_path / "m.skops"
    assert main(["fit", str(train), "--label", "target", "--algorithm", "adaboost",
                 "--rounds", "5", "--model", str(model)]) == 0
    df[["a", "b"]].to_csv(tmp_path / "few.csv", index=False)
    assert main(["predict", str(tmp_path / "few.csv"), "--model", str(model)]) == 2
    assert "X lacks the column(s) 'c', 'colour' seen at fit." in capsys.readouterr().err
    assert main(["predict", str(train), "--model", str(tmp_path / "none.joblib")]) == 2
    assert "model file" in capsys.readouterr().err
    (tmp_path / "junk.joblib").write_bytes(b"junk")
    assert main(["predict", str(train), "--model", str(tmp_path / "junk.joblib")]) == 2
    assert "cannot load model file" in capsys.readouterr().err


def test_benchmark_and_report_errors(tmp_path, capsys):
    assert main(["benchmark", "no-such-preset"]) == 2
    assert "neither a preset" in capsys.readouterr().err
    assert main(["benchmark", "quick", "--lambda-grid", "a:b"]) == 2
    assert "cannot read the grid" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "none.sqlite")]) == 2
    assert "robust-boosting report: error: results file" in capsys.readouterr().err


def test_benchmark_dry_run_lists_tasks(capsys):
    assert main(["benchmark", "splboost-uci", "--dry-run", "--show", "1"]) == 0
    out = capsys.readouterr().out
    assert "splboost-uci: 15750 tasks" in out  # 7 sets x 5 rates x 9 algorithms x 50 reps


# ---------------------------------------------------------------------------
# model files (skops)
# ---------------------------------------------------------------------------
@pytest.fixture
def mixed_csv(tmp_path):
    """A CSV with numeric and categorical columns; the label depends on a set of categories."""
    rng = np.random.RandomState(1)
    n = 300
    shape = rng.choice(["circle", "square", "star", "heart", "moon"], size=n)
    x = rng.normal(size=n)
    size = rng.choice(["S", "M", "L"], size=n)
    score = x + 2.0 * np.isin(shape, ["square", "heart"]) + 0.3 * rng.normal(size=n)
    df = pd.DataFrame({"x": np.round(x, 3), "shape": shape, "size": size,
                       "z": rng.randint(0, 10, size=n),
                       "target": np.where(score > 1.0, "pos", "neg")})
    train, test = tmp_path / "mixed_train.csv", tmp_path / "mixed_test.csv"
    df.iloc[:200].to_csv(train, index=False)
    df.iloc[200:].to_csv(test, index=False)
    return train, test, df


def test_skops_round_trip_is_bit_identical(tmp_path, mixed_csv, capsys):
    """fit -> save -> load -> predict through the CLI equals the in-memory model bit for bit
    (on a CSV with a categorical column: the schema and the categorical splits survive)."""
    from robust_boosting._model_io import load_bundle
    from robust_boosting.experiments.algorithms import make_estimator

    train, test, df = mixed_csv
    model = tmp_path / "m.skops"
    assert main(["fit", str(train), "--label", "target", "--algorithm", "savageboost",
                 "--rounds", "15", "--seed", "3", "--model", str(model)]) == 0
    out = tmp_path / "pred.csv"
    assert main(["predict", str(test), "--model", str(model), "--output", str(out)]) == 0
    loaded = load_bundle(model)["model"]
    train_df = pd.read_csv(train)
    fresh = make_estimator("savageboost", {"n_estimators": 15}, random_state=3)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fresh.fit(train_df.drop(columns="target"), train_df["target"].to_numpy())
    assert loaded.feature_schema_.kinds == ["numeric", "categorical", "categorical", "numeric"]
    assert loaded.feature_schema_.categories[2] == ["L", "M", "S"]
    assert any(t.tree_.has_categorical for t in loaded.estimators_)
    X_test = pd.read_csv(test).drop(columns="target")
    a, b = loaded.decision_function(X_test), fresh.decision_function(X_test)
    assert a.tobytes() == b.tobytes()
    assert list(pd.read_csv(out)["prediction"]) == list(fresh.predict(X_test))


def test_trusted_types_cover_every_registry_model():
    """Every fitted algorithm of the registry saves with only skops defaults + TRUSTED_TYPES."""
    import importlib
    import warnings

    import skops.io as sio
    from sklearn.datasets import make_classification

    from robust_boosting._model_io import TRUSTED_TYPES
    from robust_boosting.experiments.algorithms import ALGORITHMS, make_estimator

    X, y = make_classification(60, 4, random_state=0)
    for name, spec in ALGORITHMS.items():
        if spec.peer:
            continue  # another library's model, run for comparison: saved by its own means
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est = make_estimator(name, {"n_estimators": 3} if spec.boosting else {},
                                 random_state=0).fit(X, y)
        types = set(sio.get_untrusted_types(data=sio.dumps({"model": est})))
        assert types <= set(TRUSTED_TYPES), (name, types - set(TRUSTED_TYPES))
    for qual in TRUSTED_TYPES:  # every entry names a real class
        module, _, cls = qual.rpartition(".")
        assert isinstance(getattr(importlib.import_module(module), cls), type), qual


def test_broken_model_files_fail_in_one_line(tmp_path, csv_files, capsys):
    """Empty, truncated, corrupted, CSV, pickle, bundles without label / with a non-estimator."""
    import joblib
    import skops.io as sio

    from robust_boosting._model_io import load_bundle

    train, _, _ = csv_files
    good = tmp_path / "m.skops"
    assert main(["fit", str(train), "--label", "target", "--algorithm", "adaboost",
                 "--rounds", "5", "--model", str(good)]) == 0
    capsys.readouterr()
    data = good.read_bytes()
    files = {
        "empty.skops": (b"", "the file is empty"),
        "truncated.skops": (data[: len(data) // 2], "truncated or corrupted"),
        "corrupted.skops": (data[:40] + b"\x00" * 200 + data[240:], "truncated or corrupted"),
        "train.csv": (train.read_bytes(), "not a model file"),
    }
    for name, (content, cause) in files.items():
        path = tmp_path / name
        if name != "train.csv":
            path.write_bytes(content)
        assert main(["predict", str(train), "--model", str(path)]) == 2, name
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err, err
        assert repr(str(path)) in err and cause in err, (name, err)
        assert not err.rstrip().endswith(":"), err
    bundle = load_bundle(good)
    no_label = {k: v for k, v in bundle.items() if k != "label"}
    sio.dump(no_label, tmp_path / "nolabel.skops")
    sio.dump({**bundle, "model": [1, 2]}, tmp_path / "notest.skops")
    joblib.dump(bundle, tmp_path / "m.joblib")
    for name, cause in [("nolabel.skops", "no 'label' entry"),
                        ("notest.skops", "'model' entry is a list, not an estimator"),
                        ("m.joblib", "a pickle (protocol")]:
        assert main(["predict", str(train), "--model", str(tmp_path / name)]) == 2, name
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and cause in err and name in err, err
    # a trusted pickle loads and predicts the same as the skops file
    out1, out2 = tmp_path / "p1.csv", tmp_path / "p2.csv"
    assert main(["predict", str(train), "--model", str(tmp_path / "m.joblib"),
                 "--trust-pickle", "--output", str(out1)]) == 0
    assert main(["predict", str(train), "--model", str(good), "--output", str(out2)]) == 0
    assert out1.read_text() == out2.read_text()


# ---------------------------------------------------------------------------
# the estimator's column schema behind fit/predict (never a silent wrong answer)
# ---------------------------------------------------------------------------
def _fit_mixed(tmp_path, train, capsys):
    model = tmp_path / "mixed.skops"
    assert main(["fit", str(train), "--label", "target", "--algorithm", "adaboost",
                 "--rounds", "20", "--model", str(model)]) == 0
    capsys.readouterr()
    return model


def _one_line_error(capsys, command="predict"):
    err = capsys.readouterr().err
    assert err.startswith(f"robust-boosting {command}: error:"), err
    assert err.count("\n") == 1, err
    return err


def test_text_cell_in_numeric_column_at_predict_is_an_error(tmp_path, mixed_csv, capsys):
    """Failure 1: a '?' in a numeric column used to turn that column into dummies and the
    fitted column into zeros, with exit status 0; now one line names the column and line."""
    train, test, df = mixed_csv
    model = _fit_mixed(tmp_path, train, capsys)
    bad = df.iloc[200:].astype({"x": object})
    bad.iloc[4, 0] = "?"
    bad.iloc[7, 0] = "unknown"  # (pandas reads "n/a", "NA", "" ... as missing values)
    bad.to_csv(tmp_path / "bad.csv", index=False)
    assert main(["predict", str(tmp_path / "bad.csv"), "--model", str(model)]) == 2
    err = _one_line_error(capsys)
    assert "column 'x' is numeric but rows 6, 9 hold text ('?', 'unknown')" in err


def test_category_absent_at_predict_is_fine(tmp_path, mixed_csv, capsys):
    """Failure 2: a file lacking a category seen at fit (no 'L' sizes) used to fail with a
    misleading "lacks the model's feature column(s)"; now it predicts, as the model does."""
    from robust_boosting._model_io import load_bundle

    train, test, df = mixed_csv
    model = _fit_mixed(tmp_path, train, capsys)
    part = df.iloc[200:]
    part = part[part["size"] != "L"]
    part.to_csv(tmp_path / "noL.csv", index=False)
    out = tmp_path / "pred.csv"
    assert main(["predict", str(tmp_path / "noL.csv"), "--model", str(model),
                 "--output", str(out)]) == 0
    expected = load_bundle(model)["model"].predict(part.drop(columns="target"))
    assert list(pd.read_csv(out)["prediction"]) == list(expected)


def test_stray_string_at_fit_is_an_error(tmp_path, mixed_csv, capsys):
    """Failure 3: one stray string in a numeric column at fit used to one-hot encode the
    whole column; now it is one line naming the column, the line and the value."""
    train, _, df = mixed_csv
    bad = df.iloc[:200].astype({"x": object})
    bad.iloc[10, 0] = "oops"
    bad.to_csv(tmp_path / "stray.csv", index=False)
    model = tmp_path / "never.skops"
    assert main(["fit", str(tmp_path / "stray.csv"), "--label", "target",
                 "--model", str(model)]) == 2
    err = _one_line_error(capsys, "fit")
    assert "column 'x' holds numbers but also text in row 12 ('oops')" in err
    assert not model.exists()


def test_end_to_end_categorical_csv(tmp_path, mixed_csv, capsys):
    """Fit on numeric + categorical columns, then predict on files with a bad cell, an
    unseen category, a reordered column and a missing value."""
    from robust_boosting._model_io import load_bundle

    train, test, df = mixed_csv
    model = _fit_mixed(tmp_path, train, capsys)
    fitted = load_bundle(model)["model"]
    assert list(fitted.feature_names_in_) == ["x", "shape", "size", "z"]
    part = df.iloc[200:].drop(columns="target")
    expected = fitted.predict(part)
    assert np.mean(expected == df["target"].iloc[200:].to_numpy()) > 0.8

    # reordered columns: matched by name, the same predictions
    part[["z", "size", "x", "shape"]].to_csv(tmp_path / "reordered.csv", index=False)
    out = tmp_path / "pred.csv"
    assert main(["predict", str(tmp_path / "reordered.csv"), "--model", str(model),
                 "--output", str(out)]) == 0
    assert list(pd.read_csv(out)["prediction"]) == list(expected)
    capsys.readouterr()

    # a bad cell in a numeric column: one line, non-zero exit
    bad = part.astype({"z": object})
    bad.iloc[0, 3] = "?"
    bad.to_csv(tmp_path / "badcell.csv", index=False)
    assert main(["predict", str(tmp_path / "badcell.csv"), "--model", str(model)]) == 2
    assert "column 'z' is numeric but row 2 holds text ('?')" in _one_line_error(capsys)

    # a category no training row had: a missing value by default ...
    unseen = part.copy()
    unseen.iloc[3, 1] = "hexagon"
    unseen.to_csv(tmp_path / "unseen.csv", index=False)
    assert main(["predict", str(tmp_path / "unseen.csv"), "--model", str(model),
                 "--output", str(out)]) == 0
    missing = part.copy()
    missing.iloc[3, 1] = np.nan
    assert list(pd.read_csv(out)["prediction"]) == list(fitted.predict(missing))
    capsys.readouterr()
    # ... or one line naming the column, the value and the line
    assert main(["predict", str(tmp_path / "unseen.csv"), "--model", str(model),
                 "--unknown-categories", "error"]) == 2
    assert ("column 'shape' has the category 'hexagon', which no training row had, in row 5"
            in _one_line_error(capsys))

    # an extra column: one line
    part.assign(extra=1).to_csv(tmp_path / "extra.csv", index=False)
    assert main(["predict", str(tmp_path / "extra.csv"), "--model", str(model)]) == 2
    assert "X has the column(s) 'extra' not seen at fit" in _one_line_error(capsys)

    # missing values (empty cells) in both kinds of column: predicted, as the trees route them
    holes = part.copy()
    holes.iloc[0, 0] = np.nan
    holes.iloc[1, 1] = np.nan
    holes.to_csv(tmp_path / "holes.csv", index=False)
    assert main(["predict", str(tmp_path / "holes.csv"), "--model", str(model),
                 "--output", str(out)]) == 0
    assert list(pd.read_csv(out)["prediction"]) == list(fitted.predict(holes))


def test_rows_with_too_few_or_too_many_fields_are_errors_naming_the_line(
        tmp_path, csv_files, capsys):
    """A short row is not padded with missing values, a long one not shifted: both name the line."""
    train, test, df = csv_files
    model = tmp_path / "m.skops"
    assert main(["fit", str(train), "--label", "target", "--algorithm", "splboost-hard",
                 "--rounds", "5", "--model", str(model)]) == 0
    capsys.readouterr()
    lines = test.read_text().splitlines()
    short = lines[:3] + ["0.1,red"] + lines[3:]            # line 4: 2 of 5 fields
    long_ = lines[:1] + [lines[1] + ",7"] + lines[1:]      # line 2: 6 of 5 fields
    both = short[:6] + ["1,2,3,red,yes,9"] + short[6:]     # line 7 too long as well
    for name, rows, expected in [("short.csv", short, "line 4 has 2 fields"),
                                 ("long.csv", long_, "line 2 has 6 fields"),
                                 ("both.csv", both, "line 4 has 2 fields; line 7 has 6 fields")]:
        path = tmp_path / name
        path.write_text("\n".join(rows) + "\n")
        for argv in (["predict", str(path), "--model", str(model)],
                     ["fit", str(path), "--label", "target", "--rounds", "5",
                      "--algorithm", "splboost-hard", "--model", str(tmp_path / "x.skops")]):
            assert main(argv) == 2, argv
            err = capsys.readouterr().err
            assert "the header (line 1) has 5 fields" in err and expected in err, err


def test_missing_labels_at_fit_name_the_lines(tmp_path, csv_files, capsys):
    train, _, df = csv_files
    part = df.iloc[:40].copy()
    part.loc[[2, 5], "target"] = np.nan  # file lines 4 and 7
    path = tmp_path / "nolabels.csv"
    part.to_csv(path, index=False)
    assert main(["fit", str(path), "--label", "target", "--algorithm", "splboost-hard",
                 "--model", str(tmp_path / "m.skops")]) == 2
    err = capsys.readouterr().err
    assert "label column 'target' has missing values in lines 4, 7" in err, err


def test_benchmark_help_has_no_sphinx_markup(capsys):
    with pytest.raises(SystemExit):
        main(["benchmark", "--help"])
    out = capsys.readouterr().out
    assert "SPLBOOST_WEAK_LEARNER" in out
    assert ":data:" not in out and "`" not in out, out


def test_duplicated_header_is_reported_with_the_name_in_the_file(tmp_path, capsys):
    path = tmp_path / "dup.csv"
    path.write_text("x1,x2,x2,target\n1,2,3,a\n4,5,6,b\n")
    assert main(["fit", str(path), "--label", "target", "--model",
                 str(tmp_path / "m.skops")]) == 2
    err = capsys.readouterr().err
    assert "names column 'x2' more than once" in err and "x2.1" not in err, err


def test_mixed_column_error_gives_cli_advice_and_lists_a_value_once(tmp_path, capsys):
    path = tmp_path / "mixed.csv"
    rows = ["x,target"] + [f"{i},{'a' if i % 2 else 'b'}" for i in range(20)] \
        + ["abc,a"] * 5
    path.write_text("\n".join(rows) + "\n")
    assert main(["fit", str(path), "--label", "target", "--algorithm", "splboost-hard",
                 "--model", str(tmp_path / "m.skops")]) == 2
    err = capsys.readouterr().err
    assert "column 'x'" in err and "rows 22, 23, 24, 25, 26" in err, err
    assert err.count("'abc'") == 1, err
    assert "cast" not in err and "category'" not in err, err
    assert "none of its cells is a number" in err, err


def test_fit_of_a_numeric_only_algorithm_names_the_text_column(tmp_path, capsys):
    path = tmp_path / "text.csv"
    path.write_text("a,c,target\n" + "".join(f"{i},{'xy'[i % 2]},{'ab'[i % 2]}\n"
                                              for i in range(12)))
    assert main(["fit", str(path), "--label", "target", "--algorithm", "svm", "--model",
                 str(tmp_path / "m.skops")]) == 2
    err = capsys.readouterr().err
    assert "column 'c'" in err and "SVC" in err and "could not convert" not in err, err


def test_fit_defaults_to_splboost_cv_and_writes_label_issues(tmp_path, csv_files, capsys):
    """No --algorithm fits SPLBoostClassifierCV; --label-issues writes every row, most
    suspect first, with its line, given label, suggested label and score."""
    from robust_boosting import SPLBoostClassifierCV
    from robust_boosting._model_io import load_bundle

    _, _, df = csv_files
    noisy = df.copy()
    flipped = [5, 17, 40, 77, 101]
    noisy.loc[flipped, "target"] = np.where(noisy.loc[flipped, "target"] == "yes", "no", "yes")
    train = tmp_path / "noisy.csv"
    noisy.to_csv(train, index=False)
    model, issues = tmp_path / "m.skops", tmp_path / "issues.csv"
    assert main(["fit", str(train), "--label", "target", "--model", str(model),
                 "--rounds", "30", "--label-issues", str(issues)]) == 0
    out = capsys.readouterr().out
    est = load_bundle(model)["model"]
    assert isinstance(est, SPLBoostClassifierCV)
    assert f"{len(est.label_issues_)} suspect label(s) of {len(df)}" in out
    table = pd.read_csv(issues)
    assert list(table.columns) == ["line", "given_label", "suggested_label", "score", "suspect",
                                   "why"]
    assert len(table) == len(df) and sorted(table["line"]) == list(range(2, len(df) + 2))
    assert (np.diff(table["score"].to_numpy()) <= 0).all()
    row = table.set_index("line").loc[np.arange(len(df)) + 2]
    assert (row["given_label"].to_numpy() == noisy["target"].to_numpy()).all()
    assert np.array_equal(row["score"].to_numpy(), est.label_issue_scores_)
    assert (row["suggested_label"].to_numpy() == est.suggested_labels_).all()
    assert sorted(np.flatnonzero(row["suspect"].to_numpy())) == sorted(est.label_issues_)
    # the flipped rows are among the most suspect, and the suggestion undoes the flip
    top = set(table["line"].head(15) - 2)
    assert len(top & set(flipped)) >= 4
    for i in flipped:
        if i in top:
            assert row["suggested_label"].iloc[i] == df["target"].iloc[i]
    # why: a suspect's (at most) 3 features pushing from its label to the suggested one,
    # "name=value (+push)" with the file's own values; nothing for the other rows
    why = row["why"].fillna("").to_numpy()
    assert (why[~row["suspect"].to_numpy()] == "").all()
    reason = r"(a|b|c)=-?\d[\d.e+-]* \(\+[\d.e+-]+\)|colour=(red|green) \(\+[\d.e+-]+\)"
    pattern = re.compile(rf"({reason})(; ({reason})){{0,2}}")
    assert all(pattern.fullmatch(w) for w in why[est.label_issues_] if w), why
    assert (why[est.label_issues_] != "").mean() >= 0.9
    expected = explain_suspects(est, noisy.drop(columns="target"), noisy["target"].to_numpy())
    assert (why[expected.index] == expected["why"].to_numpy()).all()
    # the label depends on a (and less on b): the first reason of a flipped suspect
    assert all(why[i].startswith(("a=", "b=")) for i in flipped if why[i]), why[flipped]


def test_label_issues_needs_an_algorithm_that_ranks_labels(tmp_path, csv_files, capsys):
    train, _, _ = csv_files
    assert main(["fit", str(train), "--label", "target", "--algorithm", "adaboost",
                 "--model", str(tmp_path / "m.skops"),
                 "--label-issues", str(tmp_path / "i.csv")]) == 2
    assert "--label-issues needs an algorithm" in capsys.readouterr().err
    assert not (tmp_path / "i.csv").exists()


def test_fit_help_lists_the_algorithms(capsys):
    from robust_boosting.experiments.algorithms import ALGORITHMS

    with pytest.raises(SystemExit):
        main(["fit", "--help"])
    out = "".join(capsys.readouterr().out.split())  # argparse wraps lines at hyphens
    assert "default:splboost-cv" in out
    for name, spec in ALGORITHMS.items():
        assert (name in out) != spec.peer, name  # peers are for 'benchmark' only


def test_fit_refuses_a_peer_with_a_clear_error(tmp_path, capsys):
    """'fit' saves this library's models; a peer (random forest) is for 'benchmark'."""
    csv = tmp_path / "d.csv"
    csv.write_text("a,b,y\n" + "".join(f"{i},{i % 3},{i % 2}\n" for i in range(20)))
    assert main(["fit", str(csv), "--label", "y", "--algorithm", "random-forest",
                 "--model", str(tmp_path / "m.skops")]) == 2
    assert "another library's model" in capsys.readouterr().err
