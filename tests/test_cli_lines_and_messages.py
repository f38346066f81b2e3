"""The command line on real exports (issue 56): physical line numbers, output paths checked
before the fit, predict's label column for any model file, help texts that state their
defaults, and the messages (a closed pipe, demo's validation, the quick report)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest

from robust_boosting.cli import build_parser, main


def _export(path, n=90, *, bad_line=None):
    """Write a CSV the way spreadsheets export: blank lines and quoted multi-line notes.

    Returns ``{physical start line: label}`` of the data records. With ``bad_line``, the
    record starting nearest after that line gets a text cell in the numeric column 'a'.
    """
    rng = np.random.RandomState(0)
    text, line, starts, bad = ["a,b,note,target"], 1, {}, None
    for i in range(n):
        if i % 7 == 3:  # a blank line before this record
            text.append("")
            line += 1
        a, b = rng.normal(size=2)
        label = "yes" if a + 0.5 * b > 0 else "no"
        note = f'"first\nsecond {i}"' if i % 5 == 2 else f"n{i}"
        start = line + 1
        cell = f"{a:.4f}"
        if bad_line is not None and bad is None and start >= bad_line:
            cell, bad = "oops", start
        text.append(f"{cell},{b:.4f},{note},{label}")
        line = start + note.count("\n")
        starts[start] = label
    path.write_text("\n".join(text) + "\n")
    return starts if bad_line is None else (starts, bad)


def test_label_issues_lines_are_the_files_physical_lines(tmp_path, capsys):
    """Blank lines and quoted line breaks do not shift the line numbers: each line of the
    --label-issues file is where that record starts, and its given label is that record's."""
    data = tmp_path / "export.csv"
    starts = _export(data)
    issues = tmp_path / "issues.csv"
    assert main(["fit", str(data), "--label", "target", "--rounds", "5", "--param", "n_jobs=1",
                 "--model", str(tmp_path / "m.skops"), "--label-issues", str(issues)]) == 0
    table = pd.read_csv(issues)
    assert sorted(table["line"]) == sorted(starts)
    assert max(starts) > len(starts) + 1  # the file does have blank lines and breaks
    for line, given in zip(table["line"], table["given_label"], strict=True):
        assert given == starts[line]


def test_cell_and_field_errors_name_the_physical_line(tmp_path, capsys):
    data = tmp_path / "export.csv"
    _, bad = _export(data, n=40, bad_line=30)
    assert main(["fit", str(data), "--label", "target", "--rounds", "2",
                 "--model", str(tmp_path / "m.skops")]) == 2
    err = capsys.readouterr().err
    assert f"row {bad} " in err or f"line {bad} " in err, (bad, err)
    # a short record after a quoted two-line field is named by the line it starts on
    short = tmp_path / "short.csv"
    short.write_text('a,b,y\n1,"x\ny",0\n\n2\n3,z,1\n')
    assert main(["fit", str(short), "--label", "y", "--model", str(tmp_path / "m.skops")]) == 2
    assert "line 5 has 1 field" in capsys.readouterr().err


def test_an_unwritable_model_path_fails_before_the_fit(tmp_path, capsys):
    data = tmp_path / "export.csv"
    _export(data, n=3000)  # a fit of this takes seconds
    build_parser()  # the command's imports are not what is timed
    cases = {
        str(tmp_path / "no-such-folder" / "m.skops"): "does not exist",
        str(tmp_path): "is a folder",
        str(data): "is an input of this command",
    }
    for model, message in cases.items():
        start = time.perf_counter()
        code = main(["fit", str(data), "--label", "target", "--model", model])
        seconds = time.perf_counter() - start
        captured = capsys.readouterr()
        assert code == 2 and message in captured.err and "--model" in captured.err, captured
        assert seconds < 1.0, seconds
        assert captured.out == ""  # nothing was fitted
    same = str(tmp_path / "same.csv")
    assert main(["fit", str(data), "--label", "target", "--model", same,
                 "--label-issues", same]) == 2
    assert "name the same file" in capsys.readouterr().err
    assert main(["fit", str(data), "--label", "target", "--model", str(tmp_path / "m.skops"),
                 "--label-issues", str(tmp_path / "nope" / "i.csv")]) == 2
    assert "--label-issues" in capsys.readouterr().err
    assert not (tmp_path / "m.skops").exists()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root writes to read-only folders")
def test_a_read_only_folder_fails_before_the_fit(tmp_path, capsys):
    data = tmp_path / "export.csv"
    _export(data, n=30)
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        assert main(["fit", str(data), "--label", "target",
                     "--model", str(locked / "m.skops")]) == 2
        assert "cannot write in the folder" in capsys.readouterr().err
    finally:
        locked.chmod(0o700)


def test_predict_output_is_checked_and_never_overwrites_the_input(tmp_path, capsys):
    data = tmp_path / "export.csv"
    _export(data, n=30)
    before = data.read_text()
    assert main(["predict", str(data), "--model", str(tmp_path / "m.skops"),
                 "--output", str(data)]) == 2
    assert "--output" in capsys.readouterr().err and data.read_text() == before


@pytest.fixture
def saved(tmp_path):
    """A model fitted in Python on columns a, b, colour and saved by save_model."""
    from robust_boosting import AdaBoostClassifier

    rng = np.random.RandomState(1)
    n = 80
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n),
                      "colour": rng.choice(["red", "blue"], size=n)})
    y = np.where(X["a"] > 0, "yes", "no")
    model = AdaBoostClassifier(n_estimators=5, random_state=0).fit(X, y)
    return model, X, y


@pytest.mark.filterwarnings("ignore::robust_boosting.BoostingStoppedWarning")
def test_predict_ignores_the_label_column_of_a_save_model_file(tmp_path, saved, capsys):
    from robust_boosting import save_model

    model, X, y = saved
    expected = model.predict(X)
    plain, named = tmp_path / "plain.skops", tmp_path / "named.skops"
    save_model(model, plain)  # no label stored
    save_model(model, named, label="target")
    for csv_label, path, extra in [("label", plain, []), ("target", named, []),
                                   ("target", plain, ["--label", "target"])]:
        data = tmp_path / f"{csv_label}.csv"
        # the label column first: the model matches the feature columns by name
        pd.concat([pd.Series(y, name=csv_label), X], axis=1).to_csv(data, index=False)
        out = tmp_path / "pred.csv"
        assert main(["predict", str(data), "--model", str(path), "--output", str(out),
                     *extra]) == 0, capsys.readouterr().err
        assert (pd.read_csv(out)["prediction"].to_numpy() == expected).all()
        err = capsys.readouterr().err
        assert f"error against the {csv_label!r} column" in err, err
    # a label column under another name, with no name stored: the error says --label
    assert main(["predict", str(tmp_path / "target.csv"), "--model", str(plain)]) == 2
    err = capsys.readouterr().err
    assert "'target' not seen at fit" in err and "--label" in err, err
    # --label naming a feature column is an error
    assert main(["predict", str(tmp_path / "label.csv"), "--model", str(plain),
                 "--label", "a"]) == 2
    assert "one of the model's feature columns" in capsys.readouterr().err


@pytest.mark.filterwarnings("ignore::robust_boosting.BoostingStoppedWarning")
def test_a_feature_named_label_stays_a_feature(tmp_path, capsys):
    from robust_boosting import AdaBoostClassifier, save_model

    rng = np.random.RandomState(2)
    X = pd.DataFrame({"label": rng.normal(size=60), "b": rng.normal(size=60)})
    y = np.where(X["label"] > 0, 1, 0)
    path = tmp_path / "m.skops"
    save_model(AdaBoostClassifier(n_estimators=3, random_state=0).fit(X, y), path)
    data = tmp_path / "d.csv"
    X.to_csv(data, index=False)
    assert main(["predict", str(data), "--model", str(path)]) == 0
    assert "error against" not in capsys.readouterr().err


def _options(parser, prefix=""):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _options(sub, f"{prefix} {name}".strip())
        elif action.option_strings and not isinstance(
                action, argparse._HelpAction | argparse._VersionAction
                | argparse._StoreTrueAction | argparse._StoreFalseAction):
            yield prefix, action


def test_every_option_with_a_default_states_it():
    """An option's help says '(default: X' or 'default: X' with X its actual default."""
    checked = 0
    for command, action in _options(build_parser()):
        if action.default is None or action.default is argparse.SUPPRESS:
            continue
        where = f"{command} {action.option_strings[0]}: {action.help!r}"
        assert action.help and "default: " in action.help, where
        stated = action.help.split("default: ", 1)[1]
        if isinstance(action.default, list | tuple):
            continue  # a list is written as a grid ('1:20:0.5') or with commas
        word = stated.replace(")", " ").replace(",", " ").replace(";", " ").split()[0]
        if isinstance(action.default, int | float) and not isinstance(action.default, bool):
            assert float(word) == float(action.default), where
        else:
            assert word == str(action.default), where
        checked += 1
    assert checked >= 20


def test_predict_help_states_the_unknown_category_default(capsys):
    with pytest.raises(SystemExit):
        main(["predict", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "is an error" not in out
    assert "(default: missing)" in out and "--label" in out


def test_a_closed_pipe_ends_quietly():
    """'robust-boosting datasets | head': the reader is gone; no 'Broken pipe' error."""
    import robust_boosting

    src = os.path.dirname(os.path.dirname(robust_boosting.__file__))
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader quit before the first line
    try:
        done = subprocess.run([sys.executable, "-m", "robust_boosting.cli", "datasets"],
                              stdout=write_end, stderr=subprocess.PIPE, timeout=120,
                              env={**os.environ, "PYTHONPATH": src})
    finally:
        os.close(write_end)
    assert done.stderr.decode() == "" and done.returncode == 1, done


@pytest.mark.parametrize("option, value", [("--rounds", "0"), ("--age", "-1"),
                                            ("--noise", "1.5")])
def test_demo_validates_before_printing(option, value, capsys):
    assert main(["demo", option, value]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and option in captured.err, captured


def _grid_results():
    rows = []
    errors = {  # (data set, rate): {variant: error}
        ("d1", 0.0): {"ada": 0.10, "spl": 0.12}, ("d1", 0.2): {"ada": 0.30, "spl": 0.20},
        ("d2", 0.0): {"ada": 0.40, "spl": 0.40}, ("d2", 0.2): {"ada": 0.50, "spl": 0.44},
    }
    for (dataset, rate), by in errors.items():
        for variant, error in by.items():
            for rep in (0, 1):
                rows.append({"dataset": dataset, "rate": rate, "variant": variant,
                             "repetition": rep, "test_error": error})
    return pd.DataFrame(rows)


def test_quick_report_names_the_winner_and_marks_the_best():
    from robust_boosting.experiments.report import _mark_best, _means, _mse_table, _winners

    df = _grid_results()
    text = "\n".join(_winners(df))
    # means over data sets: ada 25 / 40, spl 26 / 32; per set, a tie at d2 0 %
    assert "| mean over data sets | ada (25.00) | spl (32.00) |" in text
    assert "| d2 | ada = spl (40.00) | spl (44.00) |" in text
    cells = _mark_best(_mse_table(df, ["dataset", "variant"], "rate"),
                       _means(df, ["dataset", "variant"], "rate"), within="dataset")
    assert cells.loc[("d1", "ada"), 0.0].startswith("**10.00")
    assert not cells.loc[("d1", "spl"), 0.0].startswith("**")
    assert cells.loc[("d1", "spl"), 0.2].startswith("**20.00")
    # a group whose values all read the same has no best
    assert not cells.loc[("d2", "ada"), 0.0].startswith("**")


def test_rank_figure_has_an_x_axis_label():
    from robust_boosting.plotting.results import plot_rank_fractions

    fig = plot_rank_fractions(_grid_results())
    assert "top k" in fig.axes[0].get_xlabel()
