"""Packed result stores (``ResultStore.pack``): lossless, resumable, reported identically."""

from __future__ import annotations

import math
import shutil
import sqlite3

import pandas as pd
import pytest

from robust_boosting.cli import main
from robust_boosting.experiments import ExperimentConfig, ResultStore, run_tasks
from robust_boosting.experiments.report import write_report

SMALL = {
    "name": "small",
    "datasets": ["savageboost-haberman"],
    "algorithms": ["adaboost", {"name": "splboost-hard", "tune": {"age": [1.5, 3.0]}}],
    "rates": [0.0, 0.2],
    "repetitions": 2,
    "rounds": 4,
    "seed": 3,
}


def _tasks():
    return ExperimentConfig.from_dict(SMALL).tasks()


def _rows(n, start=0):
    """Rows with values of every kind a store holds: text, integers, awkward floats, NULL,
    JSON and non-ASCII text."""
    floats = [0.1 + 0.2, 1e-300, 2.0 ** 0.5, math.inf, -0.0, 123456789.123456789]
    return [{"task_id": f"id{i:04d}", "experiment": "e", "dataset": "d\u00e9j\u00e0",
             "rate": floats[i % len(floats)], "rounds": i, "repetition": i % 3,
             "params": {"age": i / 7, "x": None}, "test_error": i / 3 if i % 4 else None,
             "fit_time": 1 / (i + 1), "versions": {"numpy": "2"}, "host": "h",
             "task": "{}", "finished_at": "2026-01-01T00:00:00"}
            for i in range(start, start + n)]


def _typed(rows):
    return [tuple((type(v), v) for v in r) for r in rows]


def test_pack_round_trip_keeps_every_row_value_and_type(tmp_path):
    path = tmp_path / "r.sqlite"
    with ResultStore(path) as store:
        for row in _rows(300):
            assert store.add(row)
        before, ids = store.to_frame(), store.done_ids()
    con = sqlite3.connect(path)
    raw_before = _typed(con.execute("SELECT * FROM results ORDER BY rowid"))
    con.close()
    with ResultStore(path) as store:
        assert store.pack() == 300
        assert store.pack() == 0  # nothing new
        assert store.sizes() == {"rows": 300, "packed_rows": 300,
                                 "bytes": path.stat().st_size}
        pd.testing.assert_frame_equal(store.to_frame(), before, check_exact=True)
        assert store.done_ids() == ids and len(store) == 300
    con = sqlite3.connect(path)
    assert con.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 0  # all moved
    con.close()
    with ResultStore(path, readonly=True) as store:  # a reader sees the same rows
        assert _typed(store._packed_rows()[1]) == raw_before  # SQLite's values and types
        pd.testing.assert_frame_equal(store.to_frame(), before, check_exact=True)
        pd.testing.assert_frame_equal(store.to_frame("e"), before, check_exact=True)
        assert store.to_frame("other").empty


def test_rows_appended_after_a_pack_follow_the_packed_ones(tmp_path):
    path = tmp_path / "r.sqlite"
    with ResultStore(path) as store:
        for row in _rows(5):
            store.add(row)
        store.pack()
        assert not store.add(_rows(1, start=2)[0])  # a packed id stays unique
        for row in _rows(4, start=5):
            assert store.add(row)
        assert store.to_frame()["task_id"].tolist() == [f"id{i:04d}" for i in range(9)]
        store.pack()  # a second block
        for row in _rows(2, start=9):
            store.add(row)
        frame = store.to_frame()
    assert frame["task_id"].tolist() == [f"id{i:04d}" for i in range(11)]
    reference = tmp_path / "plain.sqlite"
    with ResultStore(reference) as store:
        for row in _rows(11):
            store.add(row)
        pd.testing.assert_frame_equal(store.to_frame(), frame, check_exact=True)


def test_a_run_resumes_from_a_packed_store(tmp_path):
    tasks = _tasks()
    path = tmp_path / "r.sqlite"
    with ResultStore(path) as store:
        first = run_tasks(tasks[:3], store, progress=False)  # packs at the end
        assert first.finished == 3
        assert store.sizes()["packed_rows"] == 3
        assert store.claim(tasks[0].task_id, "someone") == "done"
        again = run_tasks(tasks, store, progress=False)
        assert (again.skipped, again.finished) == (3, len(tasks) - 3)
        assert store.sizes()["packed_rows"] == len(tasks) == len(store)
        ids = store.to_frame()["task_id"].tolist()
    assert sorted(ids) == sorted(t.task_id for t in tasks)


def test_a_packed_store_reports_identically(tmp_path):
    plain = tmp_path / "plain" / "results.sqlite"
    with ResultStore(plain) as store:
        run_tasks(_tasks(), store, progress=False, pack=False)
        n = len(store)
    packed = tmp_path / "packed" / "results.sqlite"
    packed.parent.mkdir()
    shutil.copy(plain, packed)
    assert main(["results", "compact", str(packed)]) == 0
    assert packed.stat().st_size < plain.stat().st_size
    reports = []
    for path in (plain, packed):
        out = write_report(path, path.parent, title="t", command="c", name="report")
        reports.append(out.read_text())
    with ResultStore(packed, readonly=True) as store:
        assert len(store) == n == store.sizes()["packed_rows"]
    assert reports[0] == reports[1]


def test_compact_refuses_a_missing_store(tmp_path, capsys):
    assert main(["results", "compact", str(tmp_path / "none.sqlite")]) == 2
    assert "not found" in capsys.readouterr().err
    assert not (tmp_path / "none.sqlite").exists()


def test_a_block_of_an_unknown_format_is_refused(tmp_path):
    path = tmp_path / "r.sqlite"
    with ResultStore(path) as store:
        store.add(_rows(1)[0])
        store.pack()
    con = sqlite3.connect(path)
    con.execute("UPDATE packed SET format = 'zstd/9'")
    con.commit()
    con.close()
    with ResultStore(path, readonly=True) as store, pytest.raises(ValueError,
                                                                  match="unknown format"):
        store.to_frame()
