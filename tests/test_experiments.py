"""Experiment runner: tasks, store, model selection, resume after SIGKILL, Dask, presets."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import numpy as np
import pytest

from robust_boosting.cli import main
from robust_boosting.experiments import (
    ExperimentConfig,
    ResultStore,
    Task,
    get_preset,
    load_config,
    run_task,
    run_tasks,
    select_model,
)
from robust_boosting.experiments.algorithms import (
    ALGORITHMS,
    available_algorithms,
    make_estimator,
    parse_grid,
)
from robust_boosting.experiments.report import rilboost_deltas, t_test, write_report
from robust_boosting.experiments.runner import load_data

SMALL = {
    "name": "small",
    "datasets": ["savageboost-haberman"],
    "algorithms": ["adaboost", {"name": "splboost-hard", "tune": {"age": [1.5, 3.0]}}],
    "rates": [0.0, 0.2],
    "repetitions": 2,
    "rounds": 8,
    "seed": 3,
}


def _small_tasks(**changes):
    return ExperimentConfig.from_dict({**SMALL, **changes}).tasks()


# --------------------------------------------------------------------- tasks/config
def test_parse_grid():
    assert parse_grid("1:6:0.1") == [round(1 + 0.1 * i, 10) for i in range(51)]
    assert parse_grid("1.5, 2,3") == [1.5, 2.0, 3.0]
    assert parse_grid([1, 2]) == [1.0, 2.0]
    with pytest.raises(ValueError, match="cannot read the grid"):
        parse_grid("1:x:2")
    with pytest.raises(ValueError, match="cannot read the grid"):
        parse_grid("3:1:0.5")


def test_task_ids_are_deterministic_and_distinct():
    a, b = _small_tasks(), _small_tasks()
    assert [t.task_id for t in a] == [t.task_id for t in b]
    assert len({t.task_id for t in a}) == len(a) == 2 * 2 * 2  # reps x rates x algorithms
    t = a[0]
    assert Task.from_json(t.to_json()).task_id == t.task_id
    changed = Task.from_json(t.to_json())
    changed.rate = 0.05
    assert changed.task_id != t.task_id


def test_config_expansion_variants_folds_and_noise_none():
    cfg = ExperimentConfig.from_dict({
        "datasets": ["savageboost-haberman"], "protocol": "kfold", "split": {"n_folds": 3},
        "noise": ["none", "symmetric"], "rates": [0.1],
        "algorithms": [{"name": "splboost-hard", "params": {"age": [1.5, 2.0]}, "tune": {}}],
    })
    tasks = cfg.tasks()
    # 3 folds x (none at rate 0 + symmetric at 0.1) x 2 ages
    assert len(tasks) == 12
    assert {t.split["fold"] for t in tasks} == {0, 1, 2}
    assert {(t.noise, t.rate) for t in tasks} == {("none", 0.0), ("symmetric", 0.1)}
    assert {t.variant for t in tasks} == {"splboost-hard(age=1.5)", "splboost-hard(age=2)"}


@pytest.mark.parametrize("bad, match", [
    ({"algorithms": ["nope"]}, "unknown algorithm 'nope'"),
    ({"noise": ["gaussian"]}, "unknown noise model"),
    ({"rates": [1.5]}, "noise rates must be in"),
    ({"colour": "red"}, "unknown configuration key"),
    ({"datasets": []}, "non-empty 'datasets'"),
])
def test_config_errors(bad, match):
    with pytest.raises(ValueError, match=match):
        ExperimentConfig.from_dict({**SMALL, **bad})


def test_config_files(tmp_path):
    (tmp_path / "g.json").write_text(json.dumps(SMALL))
    assert len(load_config(tmp_path / "g.json").tasks()) == 8
    (tmp_path / "g.toml").write_text(  # tomllib, or tomli on Python 3.10
        'datasets = ["savageboost-haberman"]\nrates = [0.0, 0.2]\nrepetitions = 2\n'
        'rounds = 8\nseed = 3\n[[algorithms]]\nname = "adaboost"\n'
        '[[algorithms]]\nname = "splboost-hard"\ntune = { age = [1.5, 3.0] }\n')
    cfg = load_config(tmp_path / "g.toml")
    assert cfg.name == "g"
    assert [t.task_id for t in cfg.tasks()] == [t.task_id for t in _small_tasks(name="g")]
    (tmp_path / "bad.toml").write_text("rates = [0.0,\n")
    with pytest.raises(ValueError, match="cannot parse"):
        load_config(tmp_path / "bad.toml")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ValueError, match="cannot parse"):
        load_config(tmp_path / "bad.json")
    with pytest.raises(ValueError, match="not found"):
        load_config(tmp_path / "missing.toml")


def test_registry_errors():
    with pytest.raises(ValueError, match="unknown algorithm 'xgboost'"):
        make_estimator("xgboost")
    with pytest.raises(ValueError, match="has no parameter"):
        make_estimator("adaboost", {"age": 2.0})
    assert {"adaboost", "splboost-hard", "svm"} <= set(available_algorithms())
    assert len(ALGORITHMS["splboost-hard"].tune["age"]) == 51


# --------------------------------------------------------------------- model selection
def test_staged_cv_selection_matches_refitting_each_round_count():
    from sklearn.model_selection import StratifiedKFold

    X, y = load_data("savageboost-haberman")
    task = Task(experiment="noise-grid", dataset="x", algorithm="splboost-hard",
                tune={"age": [1.5, 4.0]}, rounds=6, seed=1)
    chosen, rounds, cv_error = select_model(task, X, y)
    # brute force: refit with every (age, rounds) pair
    best = None
    cv = list(StratifiedKFold(5, shuffle=True, random_state=1).split(X, y))
    for age in (1.5, 4.0):
        for t in range(1, 7):
            errs = [np.mean(make_estimator("splboost-hard", {"age": age, "n_estimators": t},
                                           random_state=1).fit(X[tr], y[tr]).predict(X[va])
                            != y[va]) for tr, va in cv]
            if best is None or np.mean(errs) < best[0] - 1e-12:
                best = (float(np.mean(errs)), age, t)
    assert cv_error == pytest.approx(best[0])
    assert (chosen["age"], rounds) == (best[1], best[2])


@pytest.mark.parametrize("algorithm,tune,learner", [
    ("splboost-linear", {"age": [1.0, 2.5, 6.0]}, "hist-3"),
    ("robustboost", {"error_goal": [0.05, 0.2]}, "hist-stump"),
    ("logitboost", {"learning_rate": [1.0, 0.1]}, "hist-3"),
])
def test_the_grid_fitted_in_one_batched_pass_is_every_point_fitted_alone(
        algorithm, tune, learner):
    """select_model fits a fold's grid in one batched pass: each model must decide exactly
    as the same point fitted on its own (every round, every row)."""
    from robust_boosting.experiments.runner import _fit_grid

    X, y = load_data("savageboost-haberman")
    task = Task(experiment="noise-grid", dataset="x", algorithm=algorithm, tune=tune,
                rounds=12, seed=2, weak_learner=learner)
    points = [{k: v} for k, vals in tune.items() for v in vals]
    batched = _fit_grid(task, points, 12, X[:200], y[:200])
    for point, model in zip(points, batched, strict=True):
        alone = make_estimator(algorithm, {**point, "n_estimators": 12}, random_state=2,
                               weak_learner=learner).fit(X[:200], y[:200])
        got = np.array(list(model.staged_decision_function(X[200:])))
        want = np.array(list(alone.staged_decision_function(X[200:])))
        assert got.shape == want.shape and np.array_equal(got, want), point


def test_run_task_is_deterministic_and_pairs_noise():
    tasks = _small_tasks()
    noisy = [t for t in tasks if t.rate == 0.2 and t.repetition == 0]
    rows = [run_task(t) for t in noisy]
    assert all("error" not in r for r in rows)
    again = run_task(noisy[0])
    for key in ("test_error", "cv_error", "selected", "n_rounds", "train_error"):
        assert again[key] == rows[0][key]
    # both algorithms saw the same split and the same 20 % flips
    assert rows[0]["n_flipped"] == rows[1]["n_flipped"] == round(0.2 * rows[0]["n_train"])
    assert rows[0]["n_train"] + rows[0]["n_test"] == len(load_data("savageboost-haberman")[1])
    assert 1 <= rows[0]["n_rounds"] <= 8 and 0 <= rows[0]["test_error"] <= 1
    assert rows[1]["selected"]["age"] in (1.5, 3.0)


def test_small_sample_synthetic_set_is_generated_per_repetition():
    from robust_boosting.experiments.runner import _split

    def task(rep):
        return Task(experiment="rilboost-small-sample", dataset="rilboost-gaussian",
                    algorithm="rilboost-ii", protocol="small-sample",
                    split={"n_train": 20}, repetition=rep)

    first = _split(task(0), 11)
    again, other = _split(task(0), 11), _split(task(1), 12)
    assert first[0].shape == (20, 2) and first[2].shape == (180, 2)
    for a, b in zip(first[:4], again[:4], strict=True):
        np.testing.assert_array_equal(a, b)
    # a fresh 200-point set per repetition, not a resample of the fixed seed-0 set
    fixed = load_data("rilboost-gaussian")[0]
    pool = np.vstack([other[0], other[2]])
    assert not np.isin(pool[:, 0], fixed[:, 0]).any()
    assert not np.isin(pool[:, 0], np.vstack([first[0], first[2]])[:, 0]).any()


def test_failing_task_is_recorded_not_fatal(tmp_path):
    bad = Task(experiment="noise-grid", dataset="no-such-data", algorithm="adaboost")
    good = _small_tasks()[0]
    with ResultStore(tmp_path / "r.sqlite") as store:
        s = run_tasks([bad, good], store, progress=False)
        assert (s.finished, s.failed) == (1, 1)
        assert "unknown data set" in store.failures()[0][2]
        assert store.done_ids() == {good.task_id}


# --------------------------------------------------------------------- store
def test_store_unique_rows_and_frame(tmp_path):
    task = _small_tasks()[0]
    row = run_task(task)
    with ResultStore(tmp_path / "r.sqlite") as store:
        assert store.add(row) is True
        assert store.add({**row, "test_error": 0.99}) is False  # duplicate id ignored
        df = store.to_frame()
        assert len(df) == 1 and df["test_error"][0] == row["test_error"]
        assert df["params"][0] == task.params and df["versions"][0]["robust_boosting"]
        con = sqlite3.connect(tmp_path / "r.sqlite")
        with pytest.raises(sqlite3.IntegrityError):
            con.execute("INSERT INTO results (task_id) VALUES (?)", (task.task_id,))
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        con.close()
    (tmp_path / "junk.sqlite").write_bytes(b"this is not a database" * 100)
    with pytest.raises(ValueError, match="not a usable results database"):
        ResultStore(tmp_path / "junk.sqlite")


def test_sigkill_then_resume_runs_every_task_exactly_once(tmp_path):
    cfg = {**SMALL, "repetitions": 3, "rounds": 15,
           "algorithms": ["adaboost", {"name": "splboost-hard", "tune": {"age": [2.0]}}]}
    path = tmp_path / "grid.json"
    path.write_text(json.dumps(cfg))
    expected = {t.task_id for t in load_config(path).tasks()}
    assert len(expected) == 12
    db = tmp_path / "r.sqlite"
    cmd = [sys.executable, "-m", "robust_boosting.cli", "benchmark", str(path),
           "--results", str(db), "--n-jobs", "1", "--no-report", "--quiet"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    count = 0
    try:
        while time.monotonic() < deadline:
            if db.exists():
                try:
                    con = sqlite3.connect(db, timeout=1)
                    count = con.execute("SELECT COUNT(*) FROM results").fetchone()[0]
                    con.close()
                except sqlite3.OperationalError:
                    count = 0
                if count >= 1:
                    break
            if proc.poll() is not None:
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the run finished before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    with ResultStore(db) as store:
        partial = store.done_ids()
    assert 1 <= len(partial) < len(expected)
    rerun = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert f"{len(partial)} skipped" in rerun.stderr
    with ResultStore(db, readonly=True) as store:  # packed rows included
        ids = store.to_frame()["task_id"].tolist()
    assert len(ids) == len(set(ids)) == len(expected)
    assert set(ids) == expected


def test_dask_localcluster_gives_the_local_results(tmp_path):
    distributed = pytest.importorskip("distributed")
    tasks = _small_tasks(repetitions=1)
    with ResultStore(tmp_path / "local.sqlite") as store:
        run_tasks(tasks, store, n_jobs=1, progress=False)
        local = store.to_frame().sort_values("task_id").reset_index(drop=True)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client, \
            ResultStore(tmp_path / "dask.sqlite") as store:
        summary = run_tasks(tasks, store, client=client, progress=False)
        remote = store.to_frame().sort_values("task_id").reset_index(drop=True)
    assert summary.finished == len(tasks) == len(remote)
    assert list(local["task_id"]) == list(remote["task_id"])
    for col in ("test_error", "train_error", "cv_error", "n_rounds", "n_flipped"):
        assert list(local[col]) == list(remote[col]), col
    assert list(local["selected"]) == list(remote["selected"])


# --------------------------------------------------------------------- presets + reports
def _bench(tmp_path, *argv):
    out = tmp_path / "out"
    code = main(["benchmark", *argv, "--out", str(out), "--n-jobs", "1", "--quiet"])
    assert code == 0
    return (out / "report.md").read_text(), out


def _require(*names):
    missing = [n for n in names if not ALGORITHMS[n].is_available()]
    if missing:
        pytest.skip(f"algorithms not implemented yet: {missing}")


def test_preset_quick_reduced(tmp_path):
    text, out = _bench(tmp_path, "quick", "--repetitions", "1", "--rounds", "8",
                       "--datasets", "savageboost-haberman", "--rates", "0,0.3",
                       "--algorithms", "adaboost,splboost-hard", "--lambda-grid", "2,4")
    assert "Test error (%)" in text and "top1" in text
    assert "± " in text and "(n=1)" in text  # every table of means: ± se and n
    assert "### Protocol:" in text and "histogram stump" in text  # the weak learner named
    assert "T = 1 chosen" in text  # the CV-chosen number of rounds is reported
    assert (out / "error_vs_noise.png").stat().st_size > 1000
    assert (out / "rank_fractions.png").stat().st_size > 1000
    assert "robust-boosting benchmark quick" in text
    # 'report' on the results alone gives the same title (the run's name and description)
    results = next(out.glob("*.sqlite"))
    assert main(["report", str(results), "--out", str(tmp_path / "again")]) == 0
    again = (tmp_path / "again" / "report.md").read_text()
    assert again.splitlines()[0] == text.splitlines()[0] != "# Experiment report"


def test_preset_splboost_uci_reduced(tmp_path):
    _require("savageboost")
    text, _ = _bench(tmp_path, "splboost-uci", "--repetitions", "1", "--rounds", "6",
                     "--datasets", "splboost-pima", "--rates", "0,0.2",
                     "--algorithms", "adaboost,savageboost,splboost-hard",
                     "--lambda-grid", "1.5,3")
    assert "Median age lambda chosen by CV" in text
    assert "SPLBoost paper, Figs. 4 and 5" in text


def test_preset_splboost_synthetic_reduced(tmp_path):
    text, out = _bench(tmp_path, "splboost-synthetic", "--repetitions", "1", "--rounds", "10",
                       "--algorithms", "adaboost,splboost-hard")
    assert "Bayes error" in text and "splboost-hard(age=1.5)" in text
    assert (out / "synthetic_errors.png").exists()


def test_preset_savageboost_table4_reduced(tmp_path):
    _require("savageboost", "logitboost", "realboost")
    text, _ = _bench(tmp_path, "savageboost-table4", "--rounds", "5",
                     "--datasets", "savageboost-haberman,savageboost-heart",
                     "--rates", "0,0.4")
    assert "(6, 25.90)" in text  # the paper's 40 % SavageBoost cell, alongside ours
    assert "40 % ours" in text


def test_preset_rilboost_small_sample_reduced(tmp_path):
    _require("rilboost-i")
    text, out = _bench(tmp_path, "rilboost-small-sample", "--repetitions", "2", "--rounds", "3",
                       "--datasets", "rilboost-ionosphere,rilboost-wine",
                       "--epsilon-grid", "0,0.2", "--n-train", "20")
    assert "2.670" in text and "3.452" in text  # Table 5, alongside ours
    assert "Minimax against minimin" in text and "Mixing parameter a" in text
    assert (out / "rilboost_accuracy_gamma0.25.png").exists()  # one figure per kernel reading
    assert (out / "rilboost_accuracy_gamma2.0.png").exists()


def test_rilboost_deltas_and_t_test():
    import pandas as pd

    rows = []
    for d, gain in (("a", 0.1), ("b", 0.0), ("c", 0.05)):
        for alg in ("rilboost-i", "rilboost-ii"):
            for eps, acc in ((0.0, 0.7), (0.1, 0.7 + gain), (0.2, 0.65)):
                rows.append({"dataset": d, "algorithm": alg, "params": {"epsilon": eps},
                             "split": {"n_train": 20}, "test_error": 1 - acc})
    deltas = rilboost_deltas(pd.DataFrame(rows))
    assert np.allclose(deltas.sort_values("dataset")["I"], [0.1, 0.0, 0.05])
    t, lo, hi, m = t_test([0.1, 0.0, 0.05])
    assert m == 3 and t == pytest.approx(0.05 * np.sqrt(3) / 0.05)
    assert lo < 0.05 < hi


def _rilboost_rows(datasets, gains, reps=4):
    """RILBoost results whose accuracy at epsilon = 0.1 is that at 0 plus a per-draw gain."""
    rows = []
    for d in datasets:
        for rep in range(reps):
            for alg in ("rilboost-i", "rilboost-ii"):
                for eps in (0.0, 0.1):
                    acc = 0.7 + 0.01 * rep + (gains[rep] if eps else 0.0)
                    rows.append({"dataset": d, "algorithm": alg, "params": {"epsilon": eps},
                                 "split": {"n_train": 20}, "test_error": 1 - acc,
                                 "repetition": rep, "rounds": 10})
    return rows


def test_rilboost_deltas_report_best_epsilon_and_paired_se():
    import pandas as pd

    gains = [0.01, 0.03, 0.02, 0.04]  # differences per draw; mean 0.025
    deltas = rilboost_deltas(pd.DataFrame(_rilboost_rows(["a"], gains)))
    row = deltas.iloc[0]
    assert row["I"] == pytest.approx(0.025) and row["eps_II"] == 0.1
    # the paired se sees only the spread of the differences, not the 0.01-per-draw shift
    assert row["se_I"] == pytest.approx(np.std(gains, ddof=1) / 2)
    worse = rilboost_deltas(pd.DataFrame(_rilboost_rows(["a"], [-0.01] * 4)))
    # the maximum runs over epsilon > 0 only: every epsilon > 0 worse gives Delta < 0
    assert worse.iloc[0]["II"] == pytest.approx(-0.01) and worse.iloc[0]["eps_II"] == 0.1


def test_report_errors(tmp_path):
    with pytest.raises(ValueError, match="not found"):
        write_report(tmp_path / "none.sqlite", tmp_path)
    with ResultStore(tmp_path / "empty.sqlite"):
        pass
    with pytest.raises(ValueError, match="no finished task"):
        write_report(tmp_path / "empty.sqlite", tmp_path)


def test_full_presets_are_the_papers_settings():
    uci = get_preset("splboost-uci")
    assert uci.repetitions == 50 and uci.rounds == 200
    assert uci.rates == [0.0, 0.05, 0.1, 0.2, 0.3]
    assert len(uci.algorithms[-1].resolved_tune()["age"]) == 51
    sav = get_preset("savageboost-table4")
    assert sav.rounds == 50 and sav.protocol == "kfold" and 0.4 in sav.rates
    ril = get_preset("rilboost-small-sample")
    assert ril.rounds == 10 and ril.split["n_train"] == [20, 40]
    with pytest.raises(ValueError, match="unknown preset"):
        get_preset("nope")


def test_rilboost_report_states_feature_scaling_and_kernel(tmp_path):
    import pandas as pd

    from robust_boosting.experiments.report import _rilboost_section

    rows = _rilboost_rows(["rilboost-gaussian"], [0.0] * 4)
    for row in rows:
        row["params"] = {**row["params"], "gamma": 2, "C": 1.0}
        row["task"] = {"scale": False}  # as ResultStore.to_frame decodes it
    md = "\n".join(_rilboost_section(pd.DataFrame(rows), tmp_path, ""))
    assert "SVMs on raw (unscaled) features (gamma = 2; C = 1.0)" in md


# ------------------------------------------------------------ shared stores
def test_claim_is_exclusive_expires_and_frees_dead_owners(tmp_path):
    task = _small_tasks()[0]
    with ResultStore(tmp_path / "r.sqlite") as a, ResultStore(tmp_path / "r.sqlite") as b:
        assert a.claim(task.task_id, "run-a") == "claimed"
        assert b.claim(task.task_id, "run-b") == "busy"  # live lease of another run
        assert a.claim(task.task_id, "run-a") == "claimed"  # renewing one's own lease
        assert a.claim("t2", "run-a", lease=0.0) == "claimed"
        assert b.claim("t2", "run-b") == "claimed"  # the lease expired
        dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True).stdout
        assert a.claim("t3", "run-a", pid=int(dead)) == "claimed"
        assert b.claim("t3", "run-b") == "claimed"  # its process is gone
        assert a.add(run_task(task)) is True
        assert b.claim(task.task_id, "run-b") == "done"  # never recomputed


def _run_cmd(path, db, n_jobs="1"):
    return [sys.executable, "-m", "robust_boosting.cli", "benchmark", str(path),
            "--results", str(db), "--n-jobs", n_jobs, "--no-report", "--quiet"]


def _counts(stderr):
    import re

    m = re.search(r"computed (\d+) task\(s\) here .* (\d+) skipped \(already done\), (\d+) "
                  r"done or in progress in another run, (\d+) failed", stderr)
    assert m, stderr
    return tuple(int(v) for v in m.groups())


def test_two_concurrent_runs_share_one_store(tmp_path):
    """Two runs of one grid on one store compute each task once and report honest counts."""
    cfg = {**SMALL, "repetitions": 4, "rounds": 100,
           "algorithms": ["adaboost", {"name": "splboost-hard", "tune": {"age": [1.5, 3.0]}}]}
    path = tmp_path / "grid.json"
    path.write_text(json.dumps(cfg))
    expected = {t.task_id for t in load_config(path).tasks()}
    db = tmp_path / "r.sqlite"
    ResultStore(db).close()
    procs = [subprocess.Popen(_run_cmd(path, db, n), stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True) for n in ("1", "1")]
    errs = [p.communicate(timeout=300)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], errs
    counts = [_counts(e) for e in errs]
    computed = [c[0] for c in counts]
    assert sum(computed) == len(expected), counts  # each task computed exactly once
    for c in counts:
        assert c[0] + c[1] + c[2] == len(expected) and c[3] == 0, counts
    assert all(c[0] > 0 for c in counts), counts  # the work was split
    con = sqlite3.connect(db)
    assert con.execute("SELECT COUNT(*) FROM claims").fetchone()[0] == 0
    con.close()
    with ResultStore(db, readonly=True) as store:  # packed rows included
        ids = store.to_frame()["task_id"].tolist()
    assert len(ids) == len(set(ids)) == len(expected) and set(ids) == expected
    rerun = subprocess.run(_run_cmd(path, db), capture_output=True, text=True, timeout=120)
    assert _counts(rerun.stderr) == (0, len(expected), 0, 0)


def _proc(pid, name, mode="r"):
    try:
        with open(f"/proc/{pid}/{name}", mode) as fh:
            return fh.read()
    except OSError:
        return None


def _state_and_ppid(pid):
    """``(state, ppid)`` of a live process, None once it is gone."""
    stat = _proc(pid, "stat")
    if stat is None:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    return fields[0], int(fields[1])


def _children(pid):
    return [int(d) for d in os.listdir("/proc") if d.isdigit()
            and (info := _state_and_ppid(d)) is not None and info[1] == pid and info[0] != "Z"]


def _loky_workers(pid):
    return [c for c in _children(pid) if b"loky" in (_proc(c, "cmdline", "rb") or b"")]


def _n_claims(db):
    if not db.exists():
        return 0
    con = sqlite3.connect(db, timeout=5)
    try:
        return con.execute("SELECT COUNT(*) FROM claims").fetchone()[0]
    except sqlite3.OperationalError:
        return 0
    finally:
        con.close()


def _kill_when(proc, db, n_workers, n_claims, timeout=90):
    """SIGKILL ``proc`` once it has ``n_workers`` loky workers and ``n_claims`` claimed
    tasks; return the workers (loky's resource tracker, also a child, included)."""
    try:
        deadline = time.monotonic() + timeout
        workers, claims = [], 0
        while time.monotonic() < deadline and (len(workers) < n_workers or claims < n_claims):
            time.sleep(0.2)
            workers, claims = _loky_workers(proc.pid), _n_claims(db)
        assert len(workers) >= n_workers and claims >= n_claims, (workers, claims)
        time.sleep(0.5)
        workers = _loky_workers(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    return workers


def _assert_all_end(workers, timeout=15):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = [w for w in workers if (info := _state_and_ppid(w)) is not None
                 and info[0] != "Z"]
        if not alive:
            break
        time.sleep(0.2)
    assert not alive, f"workers {alive} outlived the killed run"


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads the process table in /proc")
@pytest.mark.parametrize("change, n_jobs", [
    ({"repetitions": 6, "rounds": 60}, 2),  # both workers computing
    # four workers for two tasks: the two that never receive a task end too (3,000 rounds,
    # about 2 s a task: long enough for all four workers to be seen before both tasks end)
    ({"algorithms": ["adaboost"], "rates": [0.2], "repetitions": 2, "rounds": 3000}, 4),
], ids=["busy", "idle"])
def test_sigkill_of_benchmark_leaves_no_worker_alive(tmp_path, change, n_jobs):
    path = tmp_path / "grid.json"
    path.write_text(json.dumps({**SMALL, **change}))
    db = tmp_path / "r.sqlite"
    proc = subprocess.Popen(_run_cmd(path, db, str(n_jobs)), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _assert_all_end(_kill_when(proc, db, n_workers=n_jobs, n_claims=2))


# ------------------------------------------------------------ CLI behaviour
def test_dry_run_rejects_unknown_data_sets_algorithms_and_parameters(tmp_path, capsys):
    cases = {
        "no-such-set": ({"datasets": ["savageboost-haberman", "no-such-set"]},
                        "unknown data set 'no-such-set'"),
        "bad-age": ({"algorithms": [{"name": "splboost-hard", "tune": {"age": [-1.0]}}]},
                    "age must be > 0"),
        "bad-param": ({"algorithms": [{"name": "adaboost", "params": {"nonsense": 1}}]},
                      "has no parameter(s) nonsense"),
    }
    for name, (change, message) in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({**SMALL, **change}))
        assert main(["benchmark", str(path), "--dry-run", "--results",
                     str(tmp_path / "r.sqlite")]) == 2, name
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err, err
    assert not (tmp_path / "r.sqlite").exists()
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(SMALL))
    assert main(["benchmark", str(path), "--dry-run"]) == 0


def _sigint_default():
    """In the child, before it starts: Ctrl-C's default action. A shell starts background
    jobs with SIGINT ignored, and Python keeps an ignored SIGINT ignored, so without this
    the test would depend on how the suite was started."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _started_run(tmp_path, repetitions):
    """A 2-worker benchmark run, returned once its first result is stored (or finished)."""
    cfg = {**SMALL, "repetitions": repetitions, "rounds": 40}
    path = tmp_path / f"grid{repetitions}.json"
    path.write_text(json.dumps(cfg))
    db = tmp_path / f"r{repetitions}.sqlite"
    proc = subprocess.Popen(_run_cmd(path, db, "2"), stdout=subprocess.DEVNULL,
                            preexec_fn=_sigint_default,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.1)
        if db.exists():
            con = sqlite3.connect(db, timeout=1)
            try:
                if con.execute("SELECT COUNT(*) FROM results").fetchone()[0] >= 1:
                    break
            except sqlite3.OperationalError:
                pass
            finally:
                con.close()
    return proc, path, db


def test_ctrl_c_exits_130_with_one_line_and_the_run_resumes(tmp_path):
    # On a loaded machine this process may not be scheduled before a small grid is
    # done; then the same test runs on a grid four times as large.
    for repetitions in (3, 12, 48):
        proc, path, db = _started_run(tmp_path, repetitions)
        if proc.poll() is None:
            break
        proc.communicate()
    expected = {t.task_id for t in load_config(path).tasks()}
    assert proc.poll() is None, "the run finished before it could be interrupted"
    os.killpg(proc.pid, signal.SIGINT)  # like Ctrl-C in a terminal: the whole group
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 130, err
    assert "Traceback" not in err, err
    assert err.strip().splitlines()[-1] == ("robust-boosting benchmark: interrupted; finished "
                                            "tasks are stored, run the same command again "
                                            "to resume"), err
    with ResultStore(db) as store:
        partial = store.done_ids()
    assert 1 <= len(partial) < len(expected)
    rerun = subprocess.run(_run_cmd(path, db), capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    computed, skipped, other, failed = _counts(rerun.stderr)
    assert (skipped, other, failed) == (len(partial), 0, 0) and computed + skipped == len(
        expected)
    with ResultStore(db) as store:
        assert store.done_ids() == expected


def test_progress_is_a_bar_on_a_terminal_and_log_lines_otherwise():
    import io

    from robust_boosting.experiments.runner import Progress

    class Tty(io.StringIO):
        def isatty(self):
            return True

    row = {"task_id": "a", "test_error": 0.25, "total_time": 1.0}
    tty, log = Tty(), io.StringIO()
    bar, lines = Progress(3, stream=tty), Progress(3, stream=log)
    assert bar.bar and not lines.bar
    for p in (bar, lines):
        p.update(row)
        p.update({"task_id": "b", "skipped": "busy"})  # left to another run
        p.update({"task_id": "c", "error": "Traceback\nValueError: boom"})
    assert tty.getvalue().startswith("\r[") and "3/3" in tty.getvalue()
    assert tty.getvalue().endswith("failed 1\n")
    out = log.getvalue().splitlines()
    assert out[0].startswith("[1/3] a: test error 0.2500") and out[1].startswith("[3/3] c: FAILED")
    assert len(out) == 2


def test_closing_the_store_leaves_no_wal_or_shm_files(tmp_path):
    from robust_boosting.experiments import ResultStore

    path = tmp_path / "r.sqlite"
    other = ResultStore(path)  # e.g. a worker's connection, still open
    store = ResultStore(path)
    store.add_run("x", {}, 1)
    store.close()  # another connection is open: no error, the log stays for it
    assert (tmp_path / "r.sqlite-wal").exists()
    other.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.sqlite"]
    with ResultStore(path, readonly=True) as ro:
        assert len(ro._con.execute("SELECT * FROM runs").fetchall()) == 1


def test_progress_gives_no_eta_until_a_task_after_the_first_has_finished(monkeypatch):
    """The first task includes one-off start-up costs (imports, data loading): an ETA from it alone would be far off."""
    import io

    from robust_boosting.experiments import runner

    clock = iter([0.0, 30.0, 30.0, 31.0, 31.0, 32.0])  # start, then (first_done/now) pairs
    monkeypatch.setattr(runner.time, "perf_counter", lambda: next(clock))
    log = io.StringIO()
    progress = runner.Progress(10, stream=log, bar=False)
    row = {"test_error": 0.1, "total_time": 1.0, "task_id": "t"}
    progress.update(row)
    assert progress.eta() == float("inf") and "ETA ?" in log.getvalue()
    progress.update(row)
    assert progress.eta() == pytest.approx((32.0 - 30.0) / 1 * 8)


def test_preset_quick_shows_the_default_against_peers():
    """The README's main job compares SPLBoostClassifierCV with LightGBM (where installed)
    and a random forest, each with its own defaults (no weak learner of ours)."""
    cfg = get_preset("quick")
    algs = {a.name: a for a in cfg.algorithms}
    assert {"splboost-cv", "random-forest", "adaboost", "splboost-hard"} <= set(algs)
    assert ("lightgbm" in algs) == ALGORITHMS["lightgbm"].is_available()
    for peer in ("splboost-cv", "random-forest", "lightgbm"):
        if peer in algs:
            assert algs[peer].weak_learner is None and algs[peer].tune is None
    assert algs["adaboost"].weak_learner == "hist-stump"
    assert algs["splboost-hard"].tune == {"age": [1.5, 2.5, 4.0]}
