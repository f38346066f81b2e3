"""matplotlib is the ``plot`` extra (issue 70): the estimators, model files and the
``fit``/``predict``/``datasets`` commands work without it, and whatever draws says which
extra to install."""

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"
INSTALL = 'pip install "robust-boosting[plot]"'


def _pyproject() -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    return tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))


def _names(requirements: list[str]) -> set[str]:
    return {re.match(r"[A-Za-z0-9_.-]+", r).group(0).lower() for r in requirements}


@pytest.mark.skipif(not PYPROJECT.is_file(), reason="pyproject.toml not beside the tests")
def test_matplotlib_is_an_extra_not_a_dependency():
    project = _pyproject()["project"]
    assert "matplotlib" not in _names(project["dependencies"])
    extras = project["optional-dependencies"]
    assert "matplotlib" in _names(extras["plot"])
    # the test suite and the site's gallery draw: their extras bring the plot extra
    for extra in ("test", "docs"):
        assert any(r.startswith("robust-boosting[") and "plot" in r for r in extras[extra]) \
            or "matplotlib" in _names(extras[extra]), extra


#: run in a fresh interpreter where ``import matplotlib`` fails as if it were not installed
WITHOUT_MATPLOTLIB = textwrap.dedent('''
    import contextlib, importlib.abc, io, os, sys

    class NoMatplotlib(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "matplotlib" or name.startswith("matplotlib."):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)

    sys.meta_path.insert(0, NoMatplotlib())
    import numpy as np
    import pandas as pd
    import robust_boosting as rb
    from robust_boosting.cli import main

    os.chdir(sys.argv[1])
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 3))
    y = (X[:, 0] + X[:, 1] + 0.3 * rng.normal(size=150) > 0).astype(int)
    model = rb.SPLBoostClassifierCV(n_estimators=10, random_state=0).fit(X, y)
    rb.save_model(model, "model.skops")
    assert (rb.load_model("model.skops").predict_proba(X) == model.predict_proba(X)).all()
    rb.SPLBoostRegressor(n_estimators=5).fit(X, X[:, 0])
    pd.DataFrame(X, columns=["a", "b", "c"]).assign(label=y).to_csv("train.csv", index=False)

    def run(*argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
        print(f"{argv[0]}\\t{code}\\t{(out.getvalue() + err.getvalue()).strip()!r}")

    run("datasets")
    run("datasets", "describe", "wdbc")
    run("fit", "train.csv", "--label", "label", "--model", "cli.skops", "--algorithm",
        "adaboost", "--rounds", "5")
    run("predict", "train.csv", "--model", "cli.skops", "--output", "pred.csv")
    run("plot", "weights", "--out", "weights.png")
    run("report", "results.sqlite")
    run("benchmark", "quick", "--out", "bench")
    try:
        import robust_boosting.plotting  # noqa: F401
    except ImportError as exc:
        print(f"import\\t{exc.name}\\t{str(exc)!r}")
    assert "matplotlib" not in sys.modules
    print("written\\t" + ",".join(sorted(os.listdir("."))))
''')


def test_the_library_and_cli_work_without_matplotlib(tmp_path):
    proc = subprocess.run([sys.executable, "-c", WITHOUT_MATPLOTLIB, str(tmp_path)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = [line.split("\t") for line in proc.stdout.splitlines()]
    codes = {}
    for parts in lines:
        codes.setdefault(parts[0], []).append(parts[1:])
    assert [c for c, _ in codes["datasets"]] == ["0", "0"], codes["datasets"]
    assert codes["fit"][0][0] == "0" and "model saved to cli.skops" in codes["fit"][0][1]
    assert codes["predict"][0][0] == "0", codes["predict"]
    for command in ("plot", "report", "benchmark"):
        code, text = codes[command][0]
        assert code == "2", (command, text)
        assert f"robust-boosting {command}: error:" in text and "matplotlib" in text
        assert "robust_boosting.plotting" not in text, text
        assert INSTALL in text, (command, text)
    assert "pass --no-report" in codes["benchmark"][0][1]
    name, message = codes["import"][0]
    assert name == "matplotlib" and INSTALL in message
    # nothing drawn, and the benchmark stopped before its first task
    assert codes["written"][0][0].split(",") == ["cli.skops", "model.skops", "pred.csv",
                                                 "train.csv"]
