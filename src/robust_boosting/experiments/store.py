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

Finished rows may be *packed* (:meth:`ResultStore.pack`): moved, losslessly, into
LZMA-compressed blocks of the ``packed`` table of the same file, about 20 times
smaller than the rows. Every reader (:meth:`ResultStore.to_frame`,
:meth:`ResultStore.done_ids`, :meth:`ResultStore.claim`, ``len``) sees a packed row
exactly as the row it was, so a packed store still resumes and takes new rows.
"""

from __future__ import annotations

import json
import lzma
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

#: Layout of a packed block: the task ids and the other columns, each an LZMA-compressed
#: JSON document (the ids: a list; the columns: ``{name: [value per row]}``).
PACK_FORMAT = "json-columns-lzma/1"
_LZMA_PRESET = 9 | lzma.PRESET_EXTREME


def _compress(raw: bytes) -> bytes:
    """LZMA (``.xz``) at preset 9e, with a dictionary no larger than the data: the same
    ratio, without the preset's 64 MiB dictionary (about 670 MiB of encoder memory)."""
    dict_size = min(max(len(raw), 4096), 64 * 2**20)
    return lzma.compress(raw, filters=[{"id": lzma.FILTER_LZMA2, "preset": _LZMA_PRESET,
                                        "dict_size": dict_size}])


def _encode_block(columns: list[str], rows: list[tuple]) -> tuple[bytes, bytes]:
    """``(task_ids, data)`` blobs of rows whose columns are ``columns`` (``task_id`` first).

    JSON keeps every value SQLite returns exactly: text, integers, floats (Python writes
    the shortest representation that reads back to the same double) and NULL.
    """
    ids = json.dumps([r[0] for r in rows], separators=(",", ":"))
    data = json.dumps({c: [r[i] for r in rows] for i, c in enumerate(columns) if i},
                      separators=(",", ":"))
    return _compress(ids.encode()), _compress(data.encode())


def _decode_ids(blob: bytes) -> list[str]:
    return json.loads(lzma.decompress(blob))


def _decode_block(columns: list[str], ids_blob: bytes, data_blob: bytes) -> list[tuple]:
    """The rows of a block, as tuples in the order of ``columns`` (inverse of _encode_block)."""
    data = json.loads(lzma.decompress(data_blob))
    values = [_decode_ids(ids_blob)] + [data[c] for c in columns[1:]]
    return list(zip(*values, strict=True))


def _same_rows(a: list[tuple], b: list[tuple]) -> bool:
    """Whether two row lists hold the same values of the same types (1 and 1.0 differ)."""
    return len(a) == len(b) and all(
        len(x) == len(y) and all(type(u) is type(v) and u == v for u, v in zip(x, y, strict=True))
        for x, y in zip(a, b, strict=True))


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
        self._packed_cache: tuple[tuple, frozenset[str]] | None = None
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
            self._con.execute(
                "CREATE TABLE IF NOT EXISTS packed (block INTEGER PRIMARY KEY, format TEXT "
                "NOT NULL, n_rows INTEGER NOT NULL, columns TEXT NOT NULL, task_ids BLOB "
                "NOT NULL, data BLOB NOT NULL)"
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
            inserted = values["task_id"] not in self._packed_ids() and bool(self._con.execute(
                f"INSERT OR IGNORE INTO results ({names}) VALUES ({marks})",
                [values[k] for k in COLUMNS],
            ).rowcount)
            if inserted:
                self._con.execute("DELETE FROM failures WHERE task_id = ?", (values["task_id"],))
            self._con.execute("DELETE FROM claims WHERE task_id = ?", (values["task_id"],))
        return inserted

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
            if task_id in self._packed_ids() or self._con.execute(
                    "SELECT 1 FROM results WHERE task_id = ?", (task_id,)).fetchone():
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

    def pack(self, *, vacuum: bool = True) -> int:
        """Move the unpacked rows into one compressed block of the ``packed`` table.

        The rows are moved losslessly (checked by decoding the block before the rows are
        deleted, in the same transaction): every reader sees them as before, in the same
        order, and the store still resumes and takes new rows, which a later call packs
        into a block of their own. ``failures``, ``runs`` and ``claims`` are left as they
        are.

        Parameters
        ----------
        vacuum : bool, default=True
            Afterwards, ``VACUUM`` the file so that it shrinks (skipped, without error,
            while another connection keeps the database busy).

        Returns
        -------
        n_rows : int
            The number of rows packed (0: nothing to pack; the file is left unchanged).
        """
        with self._transaction():
            cur = self._con.execute("SELECT * FROM results ORDER BY rowid")
            columns = [d[0] for d in cur.description]
            rows = cur.fetchall()
            if not rows:
                return 0
            if columns[0] != "task_id":
                raise ValueError(f"{self.path}: the results table does not start with task_id")
            ids_blob, data_blob = _encode_block(columns, rows)
            if not _same_rows(_decode_block(columns, ids_blob, data_blob), rows):
                raise RuntimeError(f"{self.path}: packing would change rows; nothing packed")
            self._con.execute(
                "INSERT INTO packed (format, n_rows, columns, task_ids, data) "
                "VALUES (?, ?, ?, ?, ?)",
                (PACK_FORMAT, len(rows), json.dumps(columns), ids_blob, data_blob))
            self._con.execute("DELETE FROM results")
        if vacuum:
            try:
                self._con.execute("VACUUM")
                self._con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.OperationalError:
                pass  # another connection is busy: the file shrinks at a later pack
        return len(rows)

    def _packed_blocks(self, what: str) -> list[tuple]:
        """``(format, columns, <what>...)`` of every packed block, oldest first."""
        if not self._has_table("packed"):
            return []
        rows = self._con.execute(f"SELECT format, columns, {what} FROM packed ORDER BY block")
        out = []
        for fmt, columns, *blobs in rows:
            if fmt != PACK_FORMAT:
                raise ValueError(f"{self.path}: packed block of unknown format {fmt!r}; "
                                 "a newer robust-boosting wrote it")
            out.append((json.loads(columns), *blobs))
        return out

    def _packed_ids(self) -> frozenset[str]:
        """Ids of the packed rows (cached until a pack, in any process, adds a block)."""
        if not self._has_table("packed"):
            return frozenset()
        key = tuple(self._con.execute("SELECT COUNT(*), MAX(block), SUM(n_rows) FROM packed")
                    .fetchone())
        if self._packed_cache is None or self._packed_cache[0] != key:
            ids = frozenset(i for _, blob in self._packed_blocks("task_ids")
                            for i in _decode_ids(blob))
            self._packed_cache = (key, ids)
        return self._packed_cache[1]

    def _packed_rows(self) -> tuple[list[str], list[tuple]]:
        """``(columns, rows)`` of every packed row, in the order they were stored."""
        columns: list[str] = [d[0] for d in self._con.execute(
            "SELECT * FROM results LIMIT 0").description]
        rows: list[tuple] = []
        for cols, ids_blob, data_blob in self._packed_blocks("task_ids, data"):
            if cols != columns:
                raise ValueError(f"{self.path}: a packed block has the columns {cols}, "
                                 f"the results table {columns}")
            rows += _decode_block(cols, ids_blob, data_blob)
        return columns, rows

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
        """Ids of the finished tasks (packed or not)."""
        return {r[0] for r in self._con.execute("SELECT task_id FROM results")} | set(
            self._packed_ids())

    def __len__(self) -> int:
        packed = (self._con.execute("SELECT COALESCE(SUM(n_rows), 0) FROM packed").fetchone()[0]
                  if self._has_table("packed") else 0)
        return int(self._con.execute("SELECT COUNT(*) FROM results").fetchone()[0]) + packed

    def sizes(self) -> dict[str, int]:
        """``{"rows", "packed_rows", "bytes"}``: rows in total, packed rows, file size."""
        rows = len(self)
        packed = rows - int(self._con.execute("SELECT COUNT(*) FROM results").fetchone()[0])
        return {"rows": rows, "packed_rows": packed, "bytes": self.path.stat().st_size}

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
        columns, packed = self._packed_rows()
        if not packed:
            df = pd.read_sql_query(query + " ORDER BY rowid", self._con, params=tuple(args))
        else:
            # the packed rows go through SQLite too (an untyped temporary table keeps
            # each value's type), so the frame is exactly the one of the unpacked rows
            names = ", ".join(f'"{c}"' for c in columns)
            self._con.execute("DROP TABLE IF EXISTS temp._packed_rows")
            self._con.execute(f"CREATE TEMP TABLE _packed_rows (_ord INTEGER PRIMARY KEY, "
                              f"{names})")
            try:
                self._con.executemany(
                    f"INSERT INTO temp._packed_rows ({names}) VALUES "
                    f"({', '.join('?' for _ in columns)})", packed)
                union = (f"SELECT 0 AS _part, _ord, {names} FROM temp._packed_rows UNION ALL "
                         f"SELECT 1, rowid, {names} FROM results")
                df = pd.read_sql_query(
                    f"SELECT {names} FROM ({union})"
                    + (" WHERE experiment = ?" if experiment is not None else "")
                    + " ORDER BY _part, _ord", self._con, params=tuple(args))
            finally:
                self._con.execute("DROP TABLE IF EXISTS temp._packed_rows")
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
