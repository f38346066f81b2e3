"""The OpenMP runtime of the compiled kernels, started with a short spin before sleeping.

An OpenMP thread that has finished its part of a parallel region waits for the
next one. By default libgomp's threads spin for about 300,000 iterations first, and
take a core from whatever else runs: on a machine whose cores other work keeps busy,
the spinning threads and every region's wait for a descheduled thread made a
2,000-row AdaBoost fit on two threads 8x slower than on one (design record 0022).
With no spinning at all ("passive" waiting) every region wakes its threads with a
system call, and the many short regions of a LightGBM fit in the same process (the
system's libgomp is shared) took 17 times as long on two threads (design record 0046).
A spin of 1,000 iterations kept both: the busy machine's two-thread fits as with
passive waiting, LightGBM's as without this package.

The runtime reads its wait settings once, when it is loaded, and there is no call to
change them afterwards. So the package loads its first compiled module here, the first
thing ``import robust_boosting`` does, with ``GOMP_SPINCOUNT=1000`` (libgomp) and
``KMP_BLOCKTIME=0`` (LLVM's and Intel's runtimes, which have no spin count: they sleep
at once, as with passive waiting) set for that moment only (the process's environment
is restored: child processes and later-loaded runtimes are not affected). A policy the
user set (``OMP_WAIT_POLICY``, libgomp's ``GOMP_SPINCOUNT`` or ``KMP_BLOCKTIME``) is
kept, and a runtime some other library loaded first (LightGBM imported before this
package) keeps the settings it started with; the kernels open parallel regions only for
enough work (design record 0045), and the default thread count, chosen from the data's
size, keeps small fits on one thread.
"""

from __future__ import annotations

import os

__all__: list[str] = []

_USER_POLICY = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME")

#: the wait settings the kernels' runtime starts with (unless the user set one)
_WAIT = {"GOMP_SPINCOUNT": "1000", "KMP_BLOCKTIME": "0"}


def _load_kernels_with_short_waits() -> None:
    """Import the first compiled module with :data:`_WAIT` set (unless the user set a wait
    policy), then restore the environment."""
    if any(name in os.environ for name in _USER_POLICY):
        from . import _loop_kernels  # noqa: F401
        return
    os.environ.update(_WAIT)
    try:
        from . import _loop_kernels  # noqa: F401
    finally:
        for name in _WAIT:
            os.environ.pop(name, None)


_load_kernels_with_short_waits()
