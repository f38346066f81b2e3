"""The OpenMP runtime of the compiled kernels, started with passive waiting.

An OpenMP thread that has finished its part of a parallel region waits for the
next one. By default it spins ("active" waiting), and takes a core from whatever
else runs: on a machine whose cores other work keeps busy, the spinning threads
and every region's wait for a descheduled thread made a 2,000-row AdaBoost fit on
two threads 8x slower than on one (design record 0022). With passive waiting the
threads sleep between regions: the same fit took 1.0-1.3x one thread's time.

The runtime reads its wait policy (``OMP_WAIT_POLICY``) once, when it is loaded,
and there is no call to change it afterwards. So the package loads its first
compiled module here, the first thing ``import robust_boosting`` does, with
``OMP_WAIT_POLICY=PASSIVE`` set for that moment only (the process's environment
is restored: child processes and later-loaded runtimes are not affected). A
policy the user set (``OMP_WAIT_POLICY`` or libgomp's ``GOMP_SPINCOUNT``) is kept,
and a runtime some other library loaded first (LightGBM imported before this
package shares the system's libgomp) keeps the policy it started with; the
default thread count, chosen from the data's size, still keeps small fits on one
thread then.
"""

from __future__ import annotations

import os

__all__: list[str] = []

_USER_POLICY = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME")


def _load_kernels_waiting_passively() -> None:
    """Import the first compiled module with ``OMP_WAIT_POLICY=PASSIVE`` (unless the user
    set a wait policy), then restore the environment."""
    if any(name in os.environ for name in _USER_POLICY):
        from . import _loop_kernels  # noqa: F401
        return
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    try:
        from . import _loop_kernels  # noqa: F401
    finally:
        os.environ.pop("OMP_WAIT_POLICY", None)


_load_kernels_waiting_passively()
