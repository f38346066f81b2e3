"""Results store: one SQLite row per finished task (standard library only).

Every finished task is written in its own transaction, in WAL mode, under a
``PRIMARY KEY`` on the task id. A run killed at any moment (even by SIGKILL) leaves
either the whole row or nothing; a restart skips the ids it finds, and a second
insert of the same id is impossible.

Several runs may share one store: before computing a task, a run *claims* it
(:meth:`ResultStore.claim`) in one ``BEGIN IMMEDIATE`` transaction, which either
finds the task finished, finds a live lease of another run, or takes the lease. A
lease ends when its run stores the task, when it expires, or (on the same host) when
the process that holds it is gone, so a killed run's tasks are free at once.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["COLUMNS", "ResultStore"]

#: Columns of the ``results`` table, in order, with their SQL types.
COLUMNS: dict[str, str] = {
    "task_id": "TEXT PRIMARY KEY",
    "experiment": "TEXT",
    "dataset": "TEXT",
    "protocol": "TEXT",
    "split": "TEXT",
    "noise": "TEXT",
    "rate": "REAL",
    "algorithm": "TEXT",
    "variant": "TEXT",
    "params": "TEXT",
    "tune": "TEXT",
    "rounds": "INTEGER",
    "weak_learner": "TEXT",
    "repetition": "INTEGER",
    "seed": "INTEGER",
    "task": "TEXT",
    "test_error": "REAL",
    "train_error": "REAL",
    "cv_error": "REAL",
    "bayes_error": "REAL",
    "n_rounds": "INTEGER",
    "selected": "TEXT",
    "n_train": "INTEGER",
    "n_test": "INTEGER",
    "n_flipped": "INTEGER",
    "fit_time": "REAL",
    "total_time": "REAL",
    "versions": "TEXT",
    "host": "TEXT",
    "finished_at": "TEXT",
}

_JSON_COLUMNS = ("split", "params", "tune", "selected", "versions", "task")


def _alive(pid: int | None) -> bool:
    """Whether a process of this host with id ``pid`` exists."""
    if not pid:
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class ResultStore:
    """SQLite file holding one row per finished task.

    Parameters
    ----------
    path : path-like
        The database file; created (with its directory) if missing.
    readonly : bool, default=False
        Open an existing store for reading only: nothing is created and the file is
        never modified (a committed store stays byte-identical). Writing methods
        then raise ``sqlite3.OperationalError``.

    Notes
    -----
    Each row is written in its own transaction, so several runs (processes or hosts
    sharing the file) may write to one store; :meth:`claim` splits the work between
    them. ``failures`` holds the last error of tasks that raised; they are retried by
    the next run.
    """

    def __init__(self, path: str | os.PathLike[str], *, readonly: bool = False):
        self.path = Path(path)
        self.readonly = readonly
        if readonly:
            self._con = self._connect_readonly()
            return
        if self.path.parent and not self.path.parent.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._con = sqlite3.connect(str(self.path), timeout=60, isolation_level=None)
            self._con.execute("PRAGMA journal_mode=WAL")
            self._con.execute("PRAGMA synchronous=NORMAL")
            cols = ", ".join(f"{k} {v}" for k, v in COLUMNS.items())
            self._con.execute(f"CREATE TABLE IF NOT EXISTS results ({cols})")
            self._con.execute(
                "CREATE TABLE IF NOT EXISTS failures (task_id TEXT PRIMARY KEY, task TEXT, "
                "error TEXT, failed_at TEXT)"
            )
            self._con.execute(
                "CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY AUTOINCREMENT, "
                "name TEXT, config TEXT, n_tasks INTEGER, started_at TEXT)"
            )
            self._con.execute(
                "CREATE TABLE IF NOT EXISTS claims (task_id TEXT PRIMARY KEY, owner TEXT, "
                "host TEXT, pid INTEGER, expires REAL)"
            )
        except sqlite3.DatabaseError as exc:
            raise ValueError(f"{self.path} is not a usable results database: {exc}") from None

    def _connect_readonly(self) -> sqlite3.Connection:
        """A connection that cannot change the file.

        Without a write-ahead log next to it, every committed row is in the file itself,
        so it is opened ``immutable`` (no lock, no ``-wal``/``-shm`` files created). With
        one (a run in progress, or one that was killed), it is opened ``mode=ro`` so the
        rows still in the log are read too.
        """
        if not self.path.is_file():
            raise ValueError(f"results file {str(self.path)!r} not found")
        wal = self.path.with_name(self.path.name + "-wal")
        mode = "ro" if wal.exists() else "ro&immutable=1"
        uri = f"{self.path.resolve().as_uri()}?mode={mode}"
        try:
            con = sqlite3.connect(uri, uri=True, timeout=60, isolation_level=None)
            con.execute("SELECT COUNT(*) FROM results").fetchone()
        except sqlite3.DatabaseError as exc:
            raise ValueError(f"{self.path} is not a usable results database: {exc}") from None
        return con

    def _has_table(self, name: str) -> bool:
        return self._con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                                 "name = ?", (name,)).fetchone() is not None

    # ----------------------------------------------------------------- writing
    def add(self, row: dict[str, Any]) -> bool:
        """Insert one finished task in its own transaction.

        Returns
        -------
        inserted : bool
            False if the task id was already stored (the row is then left unchanged).
        """
        values = {k: row.get(k) for k in COLUMNS}
        for k in _JSON_COLUMNS:
            if values[k] is not None and not isinstance(values[k], str):
                values[k] = json.dumps(values[k], sort_keys=True)
        values["finished_at"] = values["finished_at"] or time.strftime("%Y-%m-%dT%H:%M:%S")
        names = ", ".join(COLUMNS)
        marks = ", ".join("?" for _ in COLUMNS)
        with self._transaction():
            cur = self._con.execute(
                f"INSERT OR IGNORE INTO results ({names}) VALUES ({marks})",
                [values[k] for k in COLUMNS],
            )
            if cur.rowcount:
                self._con.execute("DELETE FROM failures WHERE task_id = ?", (values["task_id"],))
            self._con.execute("DELETE FROM claims WHERE task_id = ?", (values["task_id"],))
        return bool(cur.rowcount)

    def claim(self, task_id: str, owner: str, *, lease: float = 3600.0,
              pid: int | None = None) -> str:
        """Atomically take the lease of a task unless it is finished or leased by a live run.

        Parameters
        ----------
        task_id : str
        owner : str
            Identifies the run (the same run may renew its own lease).
        lease : float, default=3600
            Seconds until the lease expires and another run may take the task.
        pid : int, optional
            The process of the run (default: this one). A lease on this host whose
            process no longer exists is free, so a killed run does not block a restart.

        Returns
        -------
        status : {"claimed", "done", "busy"}
            ``"done"``: the task is in the store; ``"busy"``: another run holds a live lease.
        """
        host = socket.gethostname()
        pid = os.getpid() if pid is None else int(pid)
        now = time.time()
        with self._transaction():
            if self._con.execute("SELECT 1 FROM results WHERE task_id = ?",
                                 (task_id,)).fetchone():
                return "done"
            held = self._con.execute("SELECT owner, host, pid, expires FROM claims "
                                     "WHERE task_id = ?", (task_id,)).fetchone()
            if held is not None and held[0] != owner and held[3] > now and not (
                    held[1] == host and not _alive(held[2])):
                return "busy"
            self._con.execute("INSERT OR REPLACE INTO claims VALUES (?, ?, ?, ?, ?)",
                              (task_id, owner, host, pid, now + float(lease)))
        return "claimed"

    def release(self, task_id: str, owner: str) -> None:
        """Give up ``owner``'s lease of a task (e.g. after it failed)."""
        with self._transaction():
            self._con.execute("DELETE FROM claims WHERE task_id = ? AND owner = ?",
                              (task_id, owner))

    def add_failure(self, task_id: str, task_json: str, error: str) -> None:
        """Record (or replace) the error of a task that raised."""
        with self._transaction():
            self._con.execute(
                "INSERT OR REPLACE INTO failures VALUES (?, ?, ?, ?)",
                (task_id, task_json, error, time.strftime("%Y-%m-%dT%H:%M:%S")),
            )

    def add_run(self, name: str, config: dict, n_tasks: int) -> None:
        """Log the start of a run with its configuration."""
        with self._transaction():
            self._con.execute(
                "INSERT INTO runs (name, config, n_tasks, started_at) VALUES (?, ?, ?, ?)",
                (name, json.dumps(config, sort_keys=True, default=str), n_tasks,
                 time.strftime("%Y-%m-%dT%H:%M:%S")),
            )

    def _transaction(self):
        con = self._con

        class _Tx:
            def __enter__(self):
                con.execute("BEGIN IMMEDIATE")

            def __exit__(self, exc_type, exc, tb):
                con.execute("COMMIT" if exc_type is None else "ROLLBACK")
                return False

        return _Tx()

    # ----------------------------------------------------------------- reading
    def done_ids(self) -> set[str]:
        """Ids of the finished tasks."""
        return {r[0] for r in self._con.execute("SELECT task_id FROM results")}

    def __len__(self) -> int:
        return int(self._con.execute("SELECT COUNT(*) FROM results").fetchone()[0])

    def failures(self) -> list[tuple[str, str, str]]:
        """``(task_id, task_json, error)`` of the tasks whose last attempt raised."""
        if self.readonly and not self._has_table("failures"):
            return []
        return list(self._con.execute("SELECT task_id, task, error FROM failures"))

    def runs(self) -> list[dict]:
        """The logged runs, oldest first."""
        if self.readonly and not self._has_table("runs"):
            return []
        rows = self._con.execute("SELECT name, config, n_tasks, started_at FROM runs ORDER BY id")
        return [{"name": n, "config": json.loads(c), "n_tasks": k, "started_at": s}
                for n, c, k, s in rows]

    def to_frame(self, experiment: str | None = None):
        """All results as a :class:`pandas.DataFrame` (JSON columns decoded)."""
        import pandas as pd

        query = "SELECT * FROM results"
        args: Iterable = ()
        if experiment is not None:
            query += " WHERE experiment = ?"
            args = (experiment,)
        df = pd.read_sql_query(query + " ORDER BY rowid", self._con, params=tuple(args))
        for k in _JSON_COLUMNS:
            df[k] = df[k].map(lambda s: json.loads(s) if isinstance(s, str) else s)
        return df

    def close(self) -> None:
        """Close the connection, leaving no ``-wal``/``-shm`` files beside the store.

        A writable store checkpoints its write-ahead log into the database and switches
        the file back to the rollback journal; if another process still has the store
        open (a run in progress elsewhere), the switch is left to the last one to close.
        """
        if not self.readonly:
            try:
                self._con.execute("PRAGMA busy_timeout=200")
                self._con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                self._con.execute("PRAGMA journal_mode=DELETE")
            except sqlite3.DatabaseError:
                pass  # another connection is open: it keeps the log
        self._con.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
