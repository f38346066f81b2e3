"""The quiet start of XGBoost's collective on a worker (see :mod:`~robust_boosting.dask.engine`).

Imported on a worker by :func:`~robust_boosting.dask.engine.install_quiet_start`; it
imports XGBoost. XGBoost keeps one C++ log callback per thread, and a Dask task's thread
has none of Python's, so the communicator's ``LOG(CONSOLE)`` line ``Task ... got rank
N`` goes to the worker's stderr whatever XGBoost's ``verbosity``. :class:`QuietStart`
replaces ``xgboost.dask.CommunicatorContext`` (which ``xgboost.dask.train`` enters in the
training thread): for a fit flagged quiet it first registers :func:`_log` as that
thread's callback, which drops the rank line while the communicator starts and writes
every other message to stderr, as XGBoost's default callback of a thread does. The class
lives in a module of its own so that it pickles by reference (a training task carries
it when the client's process is a worker too, as with ``LocalCluster(processes=False)``).
"""

from __future__ import annotations

import ctypes
import sys
import threading

import xgboost.dask as _dxgb
from xgboost.core import _LIB, _check_call

from .engine import QUIET_KEY, RANK_LINE

__all__ = ["QuietStart", "install"]

_THREAD = threading.local()  # per thread: registered (the callback), quiet (now)


def _log(message: bytes) -> None:
    """XGBoost's C++ log messages in a training thread: a line on stderr (XGBoost's
    default for a thread), but the rank line of a quiet start."""
    if getattr(_THREAD, "quiet", False) and RANK_LINE in message:
        return
    sys.stderr.write(message.decode("utf-8", "replace") + "\n")


#: the ctypes callback, kept alive for the process
_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_char_p)(_log)


def _register_in_this_thread() -> None:
    """:func:`_log` as XGBoost's log callback of the current thread."""
    if not getattr(_THREAD, "registered", False):
        _check_call(_LIB.XGBRegisterLogCallback(_CALLBACK))
        _THREAD.registered = True


class QuietStart(_dxgb.CommunicatorContext):
    """``xgboost.dask.CommunicatorContext``, without the rank line for a fit flagged quiet
    (:data:`~robust_boosting.dask.engine.QUIET_KEY` in its arguments, removed here)."""

    def __init__(self, **args):
        self._quiet = bool(args.pop(QUIET_KEY, 0))
        super().__init__(**args)

    def __enter__(self):
        if not self._quiet:
            return super().__enter__()
        _register_in_this_thread()
        _THREAD.quiet = True
        try:
            return super().__enter__()  # the communicator starts (and logs) here
        finally:
            _THREAD.quiet = False


def install() -> None:
    """``xgboost.dask.CommunicatorContext`` is :class:`QuietStart` (idempotent)."""
    if not issubclass(_dxgb.CommunicatorContext, QuietStart):
        _dxgb.CommunicatorContext = QuietStart
