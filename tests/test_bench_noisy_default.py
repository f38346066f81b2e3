"""The noisy-label benchmark's table: time ratios pair rows of the same run."""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_noisy_default.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_noisy_default", _PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look the module up
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop(spec.name, None)


def _row(run, model, time, dataset="pima", error=10.0):
    return dict(run=run, dataset=dataset, split=0, kind="sym", rate=0.2, model=model,
                time=time, error=error)


def test_ratios_pair_rows_of_the_same_run(bench):
    # cleanlab ran twice: 1 s in a loaded run "a", 0.25 s in run "b"
    df = pd.DataFrame([_row("a", "cleanlab", 1.0), _row("a", "lgbm", 0.5),
                       _row("b", "cleanlab", 0.25), _row("b", "splcv", 0.2),
                       _row("c", "xgb", 0.3)])
    ratios = bench.same_run_ratios(df)
    np.testing.assert_allclose(ratios[:4], [1.0, 0.5, 1.0, 0.8])
    assert np.isnan(ratios[4])  # run "c" has no cleanlab fit: no ratio


def test_rows_without_a_run_column_are_one_run(bench):
    df = pd.DataFrame([_row("x", "cleanlab", 0.5), _row("x", "lgbm", 0.1)]).drop(columns="run")
    np.testing.assert_allclose(bench.same_run_ratios(df), [1.0, 0.2])


def test_table_of_merged_runs(bench, tmp_path):
    # two saved runs, the second without a run column (an older file): each file is one run
    pd.DataFrame([_row("a", "cleanlab", 1.0, error=20.0),
                  _row("a", "lgbm", 0.5, error=30.0)]).to_csv(tmp_path / "a.csv", index=False)
    pd.DataFrame([_row("b", "cleanlab", 0.25, error=20.0), _row("b", "splcv", 0.2, error=10.0)]
                 ).drop(columns="run").to_csv(tmp_path / "b.csv", index=False)
    rows = pd.concat([bench._read_rows(tmp_path / f) for f in ("a.csv", "b.csv")])
    models = {k: bench.Model(k, None) for k in ("splcv", "lgbm", "cleanlab")}
    lines = bench.table(rows.to_dict("records"), models, [0.2]).splitlines()[2:]
    cells = {line.split(" | ")[0].strip("| "): line.split(" | ") for line in lines}
    assert cells["splcv"][-2] == "0.80" and cells["lgbm"][-2] == "0.50"  # same-run ratios
    assert cells["cleanlab"][-1] == "0 |"  # two runs of one task, none failed
    # cleanlab counted once per task in the ranks: 10 < 20 < 30
    assert cells["splcv"][1] == "10.0 (1.00)"
    assert cells["cleanlab"][1] == "20.0 (2.00)" and cells["lgbm"][1] == "30.0 (3.00)"
