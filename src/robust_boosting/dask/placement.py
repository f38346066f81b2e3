"""Where a Dask fit's partitions live, and what happens when a worker is lost.

XGBoost's distributed engine trains each worker on the partitions that worker holds:
every worker sketches the quantiles of its own rows (the sketches are merged into the
bin edges) and the workers' gradient histograms are summed in rank order. So the
model depends on which partitions sit on which worker. Dask places partitions by its
own choice (load balance, work stealing), which varies from run to run: the same
``random_state``, data and cluster gave different models (issue 70).

:class:`Placement` fixes the placement: partition ``i`` of ``P`` goes to worker
``sorted(addresses)[i * W // P]`` (contiguous runs of partitions, in row order),
computed there under a hard restriction, so that the same partitions on the same
workers give the same model bytes. A hard restriction would make Dask wait for ever
for a lost worker (a task with nowhere to run waits in the ``no-worker`` state), so
the placement watches the workers while the fit runs and, once one has left,
cancels the pinned partitions: what waits on them fails at once, and the fit raises
:class:`WorkerFailedError`.
"""

from __future__ import annotations

import asyncio
import threading

__all__ = ["Placement", "WorkerFailedError", "check_workers", "scheduler_workers", "where_held"]

#: seconds between two looks at the scheduler's workers while a fit runs
WATCH_INTERVAL = 2.0


class WorkerFailedError(RuntimeError):
    """A Dask worker failed during a distributed fit; nothing was fitted."""


def scheduler_workers(client) -> set:
    """The scheduler's current workers, asked afresh (``scheduler_info`` would answer
    from its cache when the scheduler is unreachable)."""
    problem = None
    if client.status != "running":
        problem = f"the client's status is {client.status!r}"
    else:
        try:
            return set(client.sync(client.scheduler.identity, n_workers=-1)["workers"])
        except Exception as exc:  # noqa: BLE001 - any failure to reach it is the news
            problem = f"{type(exc).__name__}: {exc}"
    raise WorkerFailedError(
        f"The Dask scheduler could not be reached during fit ({problem}); nothing was "
        "fitted. XGBoost's collective tracker runs on the scheduler, and a worker lost "
        "during training can end the scheduler's process too.")


def check_workers(client, at_start: set) -> None:
    """Raise :class:`WorkerFailedError` if a worker present when ``fit`` began has left.

    Dask would recompute a lost worker's partitions elsewhere and XGBoost would
    train on the new placement: a model that can differ from the one the
    cluster gives undisturbed. ``fit`` refuses to return it.
    """
    lost = at_start - scheduler_workers(client)
    if lost:
        raise WorkerFailedError(
            f"Dask worker(s) {sorted(lost)} left during fit; their partitions would be "
            "recomputed on other workers and the model could differ from an undisturbed "
            "fit, so nothing was fitted. Refit once the cluster is healthy.")


def _wait_watching(client, at_start: set, futures) -> None:
    """Wait for ``futures``, checking the workers every few seconds (a lost worker
    raises :class:`WorkerFailedError` instead of a wait for ever)."""
    from distributed import wait

    while True:
        try:
            wait(futures, timeout=5)
            return
        except (TimeoutError, asyncio.TimeoutError):
            check_workers(client, at_start)


class Placement:
    """The fixed placement of one fit's partitions, and the watch for a lost worker.

    A context manager around the fit: inside it, :meth:`pin` places partitions by the
    fixed rule, and a thread looks at the scheduler's workers every
    :data:`WATCH_INTERVAL` seconds; once a worker present at the start has left (or
    the scheduler cannot be reached), it cancels every pinned partition.

    Parameters
    ----------
    client : distributed.Client
    at_start : set of str
        The workers' addresses when the fit began.
    """

    def __init__(self, client, at_start: set):
        self.client = client
        self.at_start = set(at_start)
        self.order = sorted(self.at_start)
        self._futures: list = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def worker_of(self, i: int, n_parts: int) -> str:
        """The worker of partition ``i`` of ``n_parts``: contiguous runs in address order."""
        return self.order[i * len(self.order) // n_parts]

    def pin(self, arrays: list) -> list:
        """``arrays`` (dask arrays with the same row partitions, one chunk along any other
        axis), persisted with partition ``i`` of each on :meth:`worker_of` ``(i)``."""
        import dask.array as da
        from distributed import futures_of

        n_parts = len(arrays[0].chunks[0])
        parts = []
        for i in range(n_parts):
            blocks = [a.blocks[i] for a in arrays]
            parts.append(self.client.compute(blocks, workers=[self.worker_of(i, n_parts)],
                                             allow_other_workers=False))
        self._futures.extend(f for fs in parts for f in fs)
        _wait_watching(self.client, self.at_start, [f for fs in parts for f in fs])
        out = []
        for j, a in enumerate(arrays):
            rest = a.shape[1:]
            out.append(da.concatenate([
                da.from_delayed(fs[j], (int(rows), *rest), dtype=a.dtype)
                for fs, rows in zip(parts, a.chunks[0], strict=True)]))
        # persisted under the arrays' own keys (they land where their blocks are: each is
        # the block itself, not a copy); then the block futures are let go, so that a
        # partition is counted once in the workers' managed memory
        out = self.client.persist(out)
        held = futures_of(out)
        _wait_watching(self.client, self.at_start, held)
        blocks = {id(f) for fs in parts for f in fs}
        self._futures = [f for f in self._futures if id(f) not in blocks]
        self._futures.extend(held)
        return out

    def _watch(self) -> None:
        while not self._stop.wait(WATCH_INTERVAL):
            try:
                lost = bool(self.at_start - scheduler_workers(self.client))
            except Exception:  # noqa: BLE001 - an unreachable scheduler is a loss too
                lost = True
            if lost:
                try:
                    self.client.cancel(self._futures, force=True)
                except Exception:  # noqa: BLE001, S110 - the fit reports the loss itself
                    pass
                return

    def __enter__(self) -> Placement:
        self._thread = threading.Thread(target=self._watch, daemon=True,
                                        name="robust-boosting-placement-watch")
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=WATCH_INTERVAL + 5)
        self._futures = []


def where_held(client, at_start: set, fn, x, *args, dtype, width=None):
    """``fn(x_block, *args_blocks)`` per partition, run on the worker holding ``x_block``:
    one value per row, or ``width`` values.

    ``x`` and the dask arrays among ``args`` are persisted and partitioned alike;
    other ``args`` are passed whole. The tasks may not move (Dask's work stealing
    would otherwise copy a partition of ``X`` to an idle worker and keep both
    copies), so a lost worker would leave them waiting: the wait checks the
    workers every few seconds and raises :class:`WorkerFailedError`.
    """
    import dask.array as da
    from distributed import futures_of

    def block_keys(a):
        return [key[0] if isinstance(key, list) else key for key in a.__dask_keys__()]

    futures = {f.key: f for a in (x, *args) if isinstance(a, da.Array)
               for f in futures_of(a)}
    keys = [block_keys(a) if isinstance(a, da.Array) else None for a in (x, *args)]
    who = client.who_has(x)
    parts = []
    for i, key in enumerate(keys[0]):
        inputs = [a if ks is None else futures[ks[i]] for a, ks in zip((x, *args), keys,
                                                                       strict=True)]
        holder = list(who.get(key, ()))
        fut = client.submit(fn, *inputs, workers=holder or None,
                            allow_other_workers=not holder, pure=False)
        parts.append(fut)
    _wait_watching(client, at_start, parts)
    # persisted: the array's own keys hold the blocks (an array over bare futures is
    # given new alias keys on each compute, which the scheduler reports as a
    # "different run_spec" for the same key)
    return client.persist(da.concatenate([
        da.from_delayed(f, (int(rows),) if width is None else (int(rows), width), dtype=dtype)
        for f, rows in zip(parts, x.chunks[0], strict=True)]))

