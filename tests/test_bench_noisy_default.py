"""The noisy-label benchmark's table: time ratios pair rows of the same run."""

import io

import numpy as np
import pandas as pd

#: the script the ``bench`` fixture (conftest) imports
BENCHMARK = "bench_noisy_default"


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


def test_paired_differences_against_the_best_other_model(bench):
    # 3 data sets x 2 splits; "a" beats "c" by 4 / 5 / 6 points (one per data set), "b" is
    # always last; at rate 0.4 "a" is 1 point better on two data sets and 1 worse on one
    rows = []
    for i, ds in enumerate(("d1", "d2", "d3")):
        for split in (0, 1):
            for rate, gap in ((0.2, 4.0 + i), (0.4, 1.0 if i < 2 else -1.0)):
                for model, err in (("a", 20.0 - gap), ("c", 20.0), ("b", 40.0)):
                    rows.append(dict(dataset=ds, split=split, kind="sym", rate=rate,
                                     model=model, error=err, time=1.0))
    models = {k: bench.Model(k.upper(), None) for k in ("a", "b", "c")}
    lines = bench.paired_differences(rows, models, [0.2, 0.4]).splitlines()[2:]
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in lines]
    # error diff -5 +- std(4, 5, 6) / sqrt(3) = 0.58; rank 1 against 2 on every task: -1 +- 0
    assert cells[0] == ["20 %", "C (2.00)", "3", "-5.00 ± 0.58", "-1.00 ± 0.00", "lower",
                        "lower"]
    # error and rank: mean (-1 - 1 + 1) / 3 = -0.33, SE std(-1, -1, 1) / sqrt(3) = 0.67
    assert cells[1][1] == "C (1.67)"
    assert cells[1][3:] == ["-0.33 ± 0.67", "-0.33 ± 0.67", "within noise", "within noise"]


def test_runs_with_another_seed_are_new_splits(bench):
    from sklearn.dummy import DummyClassifier
    models = {"dummy": bench.Model("dummy", lambda seed: DummyClassifier())}
    rows = bench.run(models, ["pima"], [0.2], ["sym"], 2, 0.3, 100, log=io.StringIO())
    assert [r["split"] for r in rows] == [100, 101]
    assert all(np.isfinite(r["error"]) for r in rows)
