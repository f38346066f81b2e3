"""The robust-boosting command: subcommands, CSV fit/predict, clear errors."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

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
    import joblib

    train, test, df = csv_files
    model = tmp_path / "m.joblib"
    assert main(["fit", str(train), "--label", "target", "--algorithm", "splboost-hard",
                 "--param", "age=3.0", "--rounds", "20", "--model", str(model)]) == 0
    assert "model saved to" in capsys.readouterr().out
    out = tmp_path / "pred.csv"
    # predict on a file without the label column, columns in another order
    df.iloc[120:][["colour", "c", "b", "a"]].to_csv(tmp_path / "nolabel.csv", index=False)
    assert main(["predict", str(tmp_path / "nolabel.csv"), "--model", str(model),
                 "--output", str(out)]) == 0
    pred = pd.read_csv(out)["prediction"].to_numpy()
    bundle = joblib.load(model)
    assert bundle["model"].get_params()["age"] == 3.0
    expected = bundle["model"].predict(
        pd.get_dummies(df.iloc[120:].drop(columns="target"), dtype=float)
        .reindex(columns=bundle["feature_columns"], fill_value=0.0).to_numpy())
    assert list(pred) == list(expected)
    assert set(pred) <= {"yes", "no"} and np.mean(pred == df["target"][120:].to_numpy()) > 0.7
    assert main(["predict", str(test), "--model", str(model)]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("prediction\n")
    assert "error against the 'target' column" in captured.err


def test_fit_errors(tmp_path, csv_files, capsys):
    train, _, _ = csv_files
    model = str(tmp_path / "m.joblib")
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
    model = tmp_path / "m.joblib"
    assert main(["fit", str(train), "--label", "target", "--algorithm", "adaboost",
                 "--rounds", "5", "--model", str(model)]) == 0
    df[["a", "b"]].to_csv(tmp_path / "few.csv", index=False)
    assert main(["predict", str(tmp_path / "few.csv"), "--model", str(model)]) == 2
    assert "lacks the model's feature column(s): c, colour" in capsys.readouterr().err
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
