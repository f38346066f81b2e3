"""Running tasks: data, noise, model selection by CV with staged predictions, execution.

:func:`run_task` does one task from its description alone (so it runs the same in
this process, a joblib worker or a Dask worker). :func:`run_tasks` skips what the
store already holds, runs the rest through joblib or a ``dask.distributed`` client,
and writes each finished task to the store as soon as it arrives. Each task is
claimed in the store (an atomic lease, see :meth:`ResultStore.claim`) just before it
is computed, so several runs on one store share the work and none recomputes a task
another has finished. joblib workers exit as soon as the process that started them
is gone, even when it was killed with SIGKILL.
"""

from __future__ import annotations

import functools
import math
import os
import platform
import signal
import socket
import sys
import threading
import time
import traceback
import uuid
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

import numpy as np

from .algorithms import get_algorithm, make_estimator
from .store import ResultStore
from .tasks import Task

__all__ = ["Progress", "RunSummary", "check_tasks", "load_data", "run_task", "run_tasks",
           "select_model"]


# ---------------------------------------------------------------------------
# data
# ---------------------------------------------------------------------------
@functools.lru_cache(maxsize=64)
def _load_cached(name: str) -> tuple[np.ndarray, np.ndarray]:
    from ..datasets import load_xy

    return load_xy(name)


def load_data(name: str) -> tuple[np.ndarray, np.ndarray]:
    """Features and labels of a task, bundled data set or the papers' synthetic sets.

    ``"splboost-gaussian"`` and ``"rilboost-gaussian"`` give one fixed draw (seed 0)
    of 100 samples per class. Experiments do not use that draw: the ``synthetic``
    protocol draws fresh training and test sets, and the ``small-sample`` protocol a
    fresh 100 + 100 set per repetition (see :func:`_split`).
    """
    X, y = _load_cached(name)
    return X.copy(), y.copy()


def _synthetic_generators() -> dict:
    from ..datasets import (
        make_rilboost_gaussian,
        make_splboost_gaussian,
        rilboost_gaussian_log_odds,
        splboost_gaussian_log_odds,
    )

    return {"splboost-gaussian": (make_splboost_gaussian, splboost_gaussian_log_odds),
            "rilboost-gaussian": (make_rilboost_gaussian, rilboost_gaussian_log_odds)}


def _split(task: Task, rng_seed: int):
    """Training and clean test parts of the task, plus the Bayes error if known.

    For the papers' synthetic sets under the ``small-sample`` protocol, each
    repetition generates its own set of ``n_per_class`` (default 100) samples per
    class, then draws the training set from it and tests on the rest: the RILBoost
    paper's Fig. 13 procedure, averaged over the generating distribution rather than
    over one realisation (one fixed set can be unrepresentative: the seed-0 draw of
    the two-Gaussian set has a Bayes-rule accuracy of 0.54 where the distribution's
    is 0.59).
    """
    from sklearn.model_selection import StratifiedKFold, train_test_split

    split = task.split
    synthetic = _synthetic_generators()
    if task.protocol == "synthetic":
        if task.dataset not in synthetic:
            raise ValueError(f"the synthetic protocol needs one of {sorted(synthetic)}, "
                             f"got {task.dataset!r}")
        make, log_odds = synthetic[task.dataset]
        Xtr, ytr = make(int(split.get("n_train_per_class", 100)), random_state=rng_seed)
        Xte, yte = make(int(split.get("n_test_per_class", 2000)),
                        random_state=rng_seed + 1_000_003)
        bayes = float(np.mean(np.where(log_odds(Xte) > 0, 1, -1) != yte))
        return Xtr, ytr, Xte, yte, bayes
    if task.protocol == "small-sample" and task.dataset in synthetic:
        make, _ = synthetic[task.dataset]
        X, y = make(int(split.get("n_per_class", 100)), random_state=rng_seed + 1_000_003)
    else:
        X, y = load_data(task.dataset)
    if task.protocol == "holdout":
        test_size = float(split.get("test_size", 0.3))
        tr, te = train_test_split(np.arange(len(y)), test_size=test_size, stratify=y,
                                  random_state=rng_seed)
    elif task.protocol == "kfold":
        n_folds, fold = int(split.get("n_folds", 5)), int(split["fold"])
        if not 0 <= fold < n_folds:
            raise ValueError(f"fold must be in [0, {n_folds}), got {fold}")
        folds = list(StratifiedKFold(n_folds, shuffle=True, random_state=rng_seed).split(X, y))
        tr, te = folds[fold]
    else:  # small-sample
        from ..datasets import small_sample_split

        tr, te = small_sample_split(y, int(split["n_train"]), random_state=rng_seed)
    return X[tr], y[tr], X[te], y[te], None


def _add_noise(task: Task, X, y, seed: int):
    from ..noise import apply_noise

    return apply_noise(task.noise, y, task.rate, X=X, random_state=seed)


# ---------------------------------------------------------------------------
# model selection
# ---------------------------------------------------------------------------
def _grid(tune: dict) -> list[dict]:
    from sklearn.model_selection import ParameterGrid

    return list(ParameterGrid({k: list(v) for k, v in tune.items()})) if tune else [{}]


def _staged_errors(est, X, y, rounds: int) -> np.ndarray:
    """Error after each round 1..rounds; an ensemble that stopped early keeps its last value."""
    errs = [float(np.mean(p != y)) for p in est.staged_predict(X)]
    if not errs:
        errs = [float(np.mean(est.predict(X) != y))]
    out = np.full(rounds, errs[-1])
    out[: min(len(errs), rounds)] = errs[:rounds]
    return out


def _fit_grid(task: Task, grid: list[dict], rounds: int | None, X, y) -> list:
    """The models of every grid point on one fold's training rows.

    Boosters of this library are fitted in one batched pass
    (:func:`robust_boosting._batched.fit_batched`: binned once, the trees of a round grown
    together), which gives each model bit for bit as its own ``fit`` would; anything else
    is fitted point by point. ``rounds``: each booster's ``n_estimators`` (None: not a
    booster)."""
    from .._batched import fit_batched
    from .._boosting import BaseBoosting

    models = []
    for point in grid:
        params = {**task.params, **point}
        if rounds is not None:
            params["n_estimators"] = rounds
        models.append(make_estimator(task.algorithm, params, random_state=task.seed,
                                     weak_learner=task.weak_learner))
    first = models[0]
    if (len(models) > 1 and isinstance(first, BaseBoosting)
            and all(type(m) is type(first) for m in models)):
        params = [m.get_params(deep=False) for m in models]
        base = params[0]
        # one batch shares one weak learner; the points differ in the other parameters
        if all(repr(p.get("estimator")) == repr(base.get("estimator")) for p in params):
            overrides = [{k: v for k, v in p.items() if repr(v) != repr(base[k])}
                         for p in params]
            return fit_batched(first, X, y, np.ones((len(models), len(y))), overrides)
    for m in models:
        m.fit(X, y)
    return models


def select_model(task: Task, X, y) -> tuple[dict, int | None, float | None]:
    """Choose the tuned parameters (and rounds) by ``task.cv_folds``-fold CV on ``(X, y)``.

    For a boosting algorithm each fold fits once per grid point with ``task.rounds``
    rounds (all grid points in one batched pass, the same models as one fit each) and
    reads every round's validation error from ``staged_predict``; the number of rounds
    and the grid point minimising the mean CV error win (ties: the first grid point,
    then the fewest rounds).

    Returns
    -------
    params : dict
        The chosen values of the tuned parameters.
    rounds : int or None
        The chosen number of rounds (``task.rounds`` if rounds are not tuned).
    cv_error : float or None
        Mean CV error of the choice (None when there was nothing to choose).
    """
    from sklearn.model_selection import StratifiedKFold

    spec = get_algorithm(task.algorithm)
    grid = _grid(task.tune)
    boosting = spec.boosting and task.rounds is not None
    tune_rounds = boosting and task.tune_rounds
    if len(grid) == 1 and not tune_rounds:
        return grid[0], task.rounds, None
    _, counts = np.unique(y, return_counts=True)
    n_splits = min(task.cv_folds, int(counts.min()))
    if n_splits < 2:
        raise ValueError(f"cannot cross-validate: a class has {counts.min()} training sample(s)")
    T = int(task.rounds) if boosting else 1
    errors = np.zeros((len(grid), T))
    cv = StratifiedKFold(n_splits, shuffle=True, random_state=task.seed)
    for tr, va in cv.split(X, y):
        models = _fit_grid(task, grid, T if boosting else None, X[tr], y[tr])
        for g, est in enumerate(models):
            if tune_rounds:
                errors[g] += _staged_errors(est, X[va], y[va], T)
            else:
                errors[g] += float(np.mean(est.predict(X[va]) != y[va]))
    errors /= n_splits
    if not tune_rounds:
        errors[:, :-1] = np.inf
    g, t = np.unravel_index(int(np.argmin(errors)), errors.shape)
    return grid[g], (int(t) + 1 if boosting else None), float(errors[g, t])


def check_tasks(tasks: Iterable[Task]) -> None:
    """Check data-set names, algorithm names and every parameter value before running.

    Nothing is loaded or fitted: names are looked up and each distinct estimator (one per
    algorithm, parameters, grid point and weak learner) is built and its parameters
    validated, so a typo in a configuration fails at once (and under ``--dry-run``)
    instead of failing every task.

    Raises
    ------
    ValueError
        Listing every problem found, one per line.
    """
    import json

    from sklearn.base import BaseEstimator

    from ..datasets import TASKS, list_datasets

    known = set(TASKS) | set(list_datasets()) | set(_synthetic_generators())
    problems: dict[str, None] = {}
    seen: set[str] = set()
    for task in tasks:
        if task.dataset not in known:
            problems[f"unknown data set {task.dataset!r} (see 'robust-boosting datasets "
                     f"list')"] = None
        try:
            boosting = get_algorithm(task.algorithm).boosting
        except (KeyError, ValueError) as exc:
            problems[str(exc.args[0] if exc.args else exc)] = None
            continue
        for point in _grid(task.tune):
            params = {**task.params, **point}
            if task.rounds is not None and boosting:
                params["n_estimators"] = task.rounds
            key = json.dumps([task.algorithm, params, task.weak_learner], sort_keys=True,
                             default=str)
            if key in seen:
                continue
            seen.add(key)
            try:
                est = make_estimator(task.algorithm, params, random_state=task.seed,
                                     weak_learner=task.weak_learner)
                check = getattr(est, "_validate_params", None)
                # scikit-learn's base version needs the class's _parameter_constraints
                # (SPLBoostClassifierCV and LightGBM validate in fit instead)
                if check is not None and (
                        hasattr(est, "_parameter_constraints")
                        or getattr(type(est), "_validate_params", None)
                        is not BaseEstimator._validate_params):
                    check()
            except (ValueError, TypeError, KeyError, ImportError) as exc:
                message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
                problems[f"algorithm {task.algorithm!r}: {message}"] = None
    if problems:
        lines = sorted(problems, key=lambda p: not p.startswith("unknown data set"))
        more = f"\n  ... and {len(lines) - 10} more" if len(lines) > 10 else ""
        raise ValueError("the experiment cannot run:\n  " + "\n  ".join(lines[:10]) + more)


# ---------------------------------------------------------------------------
# one task
# ---------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def _versions() -> dict[str, str]:
    import numpy
    import scipy
    import sklearn

    from .. import __version__

    return {"robust_boosting": __version__, "numpy": numpy.__version__,
            "scipy": scipy.__version__, "scikit-learn": sklearn.__version__,
            "python": platform.python_version()}


def run_task(task: Task) -> dict[str, Any]:
    """Run one task: split, add noise, select the model by CV, refit, test.

    Returns
    -------
    row : dict
        The store's columns (see :data:`robust_boosting.experiments.store.COLUMNS`).
        On an error the dict has ``task_id``, ``task`` and ``error`` (the traceback)
        instead, so one failing task does not stop a run.
    """
    start = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # stopped-early notes, convergence chatter
            seed = int(task.seed)
            Xtr, ytr, Xte, yte, bayes = _split(task, seed)
            y_noisy, flipped = _add_noise(task, Xtr, ytr, seed + 7919)
            if task.scale:
                from sklearn.preprocessing import StandardScaler

                scaler = StandardScaler().fit(Xtr)
                Xtr, Xte = scaler.transform(Xtr), scaler.transform(Xte)
            chosen, rounds, cv_error = select_model(task, Xtr, y_noisy)
            params = {**task.params, **chosen}
            if rounds is not None:
                params["n_estimators"] = rounds
            est = make_estimator(task.algorithm, params, random_state=seed,
                                 weak_learner=task.weak_learner)
            t0 = time.perf_counter()
            est.fit(Xtr, y_noisy)
            fit_time = time.perf_counter() - t0
            test_error = float(np.mean(est.predict(Xte) != yte))
            train_error = float(np.mean(est.predict(Xtr) != y_noisy))
    except Exception:  # noqa: BLE001 - recorded and retried by the next run
        return {"task_id": task.task_id, "task": task.to_json(),
                "error": traceback.format_exc(limit=8)}
    n_rounds = getattr(est, "n_estimators_", None)
    n_rounds = int(n_rounds) if isinstance(n_rounds, int | np.integer) else rounds
    selected = dict(chosen)
    if rounds is not None:
        selected["n_estimators"] = rounds
    return {
        "task_id": task.task_id, "experiment": task.experiment, "dataset": task.dataset,
        "protocol": task.protocol, "split": task.split, "noise": task.noise,
        "rate": task.rate, "algorithm": task.algorithm, "variant": task.variant,
        "params": task.params, "tune": task.tune, "rounds": task.rounds,
        "weak_learner": task.weak_learner, "repetition": task.repetition, "seed": task.seed,
        "task": task.to_json(), "test_error": test_error, "train_error": train_error,
        "cv_error": cv_error, "bayes_error": bayes, "n_rounds": n_rounds,
        "selected": selected, "n_train": len(ytr), "n_test": len(yte),
        "n_flipped": int(np.sum(flipped)), "fit_time": fit_time,
        "total_time": time.perf_counter() - start, "versions": _versions(),
        "host": socket.gethostname(),
    }


# ---------------------------------------------------------------------------
# progress
# ---------------------------------------------------------------------------
def _fmt_seconds(s: float) -> str:
    if not math.isfinite(s):
        return "?"
    s = int(round(s))
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return f"{h}h{m:02d}m{sec:02d}s" if h else (f"{m}m{sec:02d}s" if m else f"{sec}s")


class Progress:
    """Progress of a run on ``stream``: a bar with an ETA on a terminal, else log lines.

    Parameters
    ----------
    total : int
        Tasks to run in this session.
    stream : file, default=sys.stderr
    bar : bool, optional
        Force the bar (True) or log lines (False); default: ``stream.isatty()``.
    quiet : bool, default=False
        Print nothing.
    """

    def __init__(self, total: int, stream: IO[str] | None = None, bar: bool | None = None,
                 quiet: bool = False):
        self.total = total
        self.stream = sys.stderr if stream is None else stream
        isatty = getattr(self.stream, "isatty", lambda: False)
        self.bar = bool(isatty()) if bar is None else bar
        self.quiet = quiet
        self.done = 0
        self.failed = 0
        self.start = time.perf_counter()
        self.first_done: float | None = None

    def eta(self) -> float:
        """Seconds left, from the mean time per task since the first one finished.

        The first task's time includes one-off start-up costs (imports, loading the
        data), so no ETA is given (``inf``, shown as ``?``) until a task after
        the first has finished.
        """
        if self.done < 2 or self.first_done is None:
            return math.inf
        elapsed = time.perf_counter() - self.first_done
        return elapsed / (self.done - 1) * (self.total - self.done)

    def update(self, row: dict[str, Any], task: Task | None = None) -> None:
        """Count one finished (or failed) task and show it."""
        self.done += 1
        if self.first_done is None:
            self.first_done = time.perf_counter()
        failed = "error" in row
        self.failed += failed
        if self.quiet or ("skipped" in row and not self.bar):
            return
        elapsed = _fmt_seconds(time.perf_counter() - self.start)
        eta = _fmt_seconds(self.eta())
        if self.bar:
            width = 30
            filled = int(width * self.done / max(self.total, 1))
            line = (f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} "
                    f"elapsed {elapsed} ETA {eta}" + (f" failed {self.failed}" if self.failed
                                                       else ""))
            self.stream.write(line)
            if self.done == self.total:
                self.stream.write("\n")
        else:
            what = task.describe() if task is not None else row.get("task_id")
            if failed:
                msg = row["error"].strip().splitlines()[-1]
                status = f"FAILED: {msg}"
            else:
                status = (f"test error {row['test_error']:.4f} "
                          f"({row['total_time']:.1f}s)")
            self.stream.write(f"[{self.done}/{self.total}] {what}: {status} "
                              f"(elapsed {elapsed}, ETA {eta})\n")
        self.stream.flush()


# ---------------------------------------------------------------------------
# execution
# ---------------------------------------------------------------------------
@dataclass
class RunSummary:
    """What :func:`run_tasks` did.

    ``finished`` counts the tasks computed *and stored* by this run; ``skipped`` those
    already in the store when it started; ``by_other`` those another run sharing the
    store finished or was computing (leased) when this run came to them.
    """

    total: int
    skipped: int
    finished: int
    failed: int
    seconds: float
    errors: list[str] = field(default_factory=list)
    by_other: int = 0


_WATCHED: list[int] = []


def _init_worker(parent_pid: int) -> None:
    """A joblib worker's initializer: Ctrl-C is the run's to handle, not the worker's
    (a terminal sends it to the whole process group: a worker that took it printed a
    traceback, and the run's process ends its workers anyway); then
    :func:`_exit_with_parent`."""
    if os.getpid() != parent_pid:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    _exit_with_parent(parent_pid)


def _exit_with_parent(parent_pid: int, interval: float = 0.5) -> None:
    """In a worker process, end the process as soon as ``parent_pid`` is gone (once)."""
    if os.getpid() == parent_pid or _WATCHED:
        return
    _WATCHED.append(parent_pid)
    first_ppid = os.getppid()

    def gone() -> bool:
        from .store import _alive

        if os.getppid() != first_ppid or not _alive(parent_pid):
            return True
        try:  # killed but not yet reaped by its own parent: a zombie
            with open(f"/proc/{parent_pid}/stat") as fh:
                return fh.read().rsplit(")", 1)[-1].split()[0] == "Z"
        except (OSError, IndexError):
            return False

    def watch() -> None:
        while not gone():
            time.sleep(interval)
        os._exit(1)

    threading.Thread(target=watch, name="robust-boosting-parent-watch", daemon=True).start()


@functools.lru_cache(maxsize=4)
def _worker_store(path: str) -> ResultStore:
    return ResultStore(path)


def _claim_and_run(task: Task, path: str, owner: str, lease: float,
                   parent_pid: int) -> tuple[Task, dict]:
    """Worker side: stop with the parent, claim the task in the store, run it if claimed."""
    _exit_with_parent(parent_pid)
    status = _worker_store(path).claim(task.task_id, owner, lease=lease, pid=parent_pid)
    if status != "claimed":
        return task, {"task_id": task.task_id, "skipped": status}
    return task, run_task(task)


def _iter_joblib(tasks: Sequence[Task], n_jobs: int, store: ResultStore, owner: str,
                 lease: float) -> Iterable[tuple[Task, dict]]:
    if n_jobs == 1 or len(tasks) <= 1:
        for t in tasks:
            status = store.claim(t.task_id, owner, lease=lease)
            yield (t, run_task(t)) if status == "claimed" else (
                t, {"task_id": t.task_id, "skipped": status})
        return
    from joblib import Parallel, delayed
    from joblib._parallel_backends import LokyBackend

    path, pid = str(store.path.resolve()), os.getpid()
    # every worker starts watching this process as it starts (the initializer), so an
    # idle worker that never receives a task also ends with the run; it ignores Ctrl-C
    backend = LokyBackend(initializer=_init_worker, initargs=(pid,))
    yield from Parallel(n_jobs=n_jobs, backend=backend, return_as="generator_unordered")(
        delayed(_claim_and_run)(t, path, owner, lease, pid) for t in tasks
    )


def _run_pair(task: Task) -> tuple[Task, dict]:
    return task, run_task(task)


def _iter_dask(tasks: Sequence[Task], client, store: ResultStore, owner: str,
               lease: float) -> Iterable[tuple[Task, dict]]:
    from distributed import as_completed

    claimed = []
    for t in tasks:  # Dask workers may not see the store's file: the client claims
        status = store.claim(t.task_id, owner, lease=lease)
        if status == "claimed":
            claimed.append(t)
        else:
            yield t, {"task_id": t.task_id, "skipped": status}
    futures = client.map(_run_pair, claimed, pure=False)
    for fut in as_completed(futures):
        yield fut.result()
        fut.release()


def dask_client(scheduler: str | None = None, local_workers: int | None = None):
    """A ``distributed.Client`` for ``scheduler`` (an address) or a new LocalCluster.

    Raises
    ------
    ImportError
        ``distributed`` is not installed (``pip install "robust-boosting[dask]"``).
    """
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ImportError(
            "running on a Dask cluster needs the optional 'distributed' package: "
            "pip install 'robust-boosting[dask]'"
        ) from None
    if scheduler:
        return Client(scheduler)
    cluster = LocalCluster(n_workers=int(local_workers or 1), threads_per_worker=1)
    return Client(cluster)


def run_tasks(tasks: Sequence[Task], store: ResultStore, *, n_jobs: int = 1, client=None,
              progress: Progress | None | bool = None,
              on_result: Callable[[Task, dict], None] | None = None,
              lease: float = 3600.0, pack: bool = True) -> RunSummary:
    """Run the tasks that ``store`` does not hold yet, writing each as it finishes.

    Several runs (processes, or hosts sharing the file) may work on one store at
    once: each task is claimed atomically just before it is computed, and a task that
    another run has finished or holds a live lease on is left to it.

    Parameters
    ----------
    tasks : sequence of Task
    store : ResultStore
    n_jobs : int, default=1
        joblib workers (``-1``: all cores); ignored when ``client`` is given.
    client : distributed.Client, optional
        Run the tasks on this Dask cluster instead.
    progress : Progress, bool or None
        A :class:`Progress`, False for silence, or None for the default on stderr.
    on_result : callable, optional
        Called with ``(task, row)`` after each task is stored.
    lease : float, default=3600
        Seconds a claim lasts; after that (or at once, on the same host, if this
        process is gone) another run may take the task.
    pack : bool, default=True
        When every task has been run, pack the store's new rows into a compressed
        block (:meth:`ResultStore.pack`; readers see them unchanged). A run that is
        interrupted leaves its rows unpacked; the next one packs them.

    Returns
    -------
    summary : RunSummary
    """
    start = time.perf_counter()
    ids = [t.task_id for t in tasks]
    if len(set(ids)) != len(ids):
        raise ValueError("the task list has duplicates (identical tasks)")
    done = store.done_ids()
    pending = [t for t in tasks if t.task_id not in done]
    if progress is None or progress is True:
        progress = Progress(len(pending))
    elif progress is False:
        progress = Progress(len(pending), quiet=True)
    summary = RunSummary(total=len(tasks), skipped=len(tasks) - len(pending), finished=0,
                         failed=0, seconds=0.0)
    owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:12]}"
    stream = (_iter_dask(pending, client, store, owner, lease) if client is not None
              else _iter_joblib(pending, n_jobs, store, owner, lease))
    for task, row in stream:
        if "skipped" in row:
            summary.by_other += 1
        elif "error" in row:
            store.add_failure(row["task_id"], row["task"], row["error"])
            store.release(row["task_id"], owner)
            summary.failed += 1
            summary.errors.append(f"{task.describe()}: {row['error'].strip().splitlines()[-1]}")
        elif store.add(row):
            summary.finished += 1
        else:  # another run stored it first (its lease had expired)
            summary.by_other += 1
        progress.update(row, task)
        if on_result is not None:
            on_result(task, row)
    if pack:
        store.pack()
    summary.seconds = time.perf_counter() - start
    return summary
