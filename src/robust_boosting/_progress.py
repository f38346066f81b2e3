"""Progress of a long fit, as :mod:`logging` records (the estimators' ``verbose``).

The rule, as LightGBM's ``verbosity`` and scikit-learn's ``verbose``: ``verbose=0``
emits nothing; ``verbose=1`` emits ``INFO`` records, a line when each stage starts
and ends (the search, the label issues, the final fit) and, at most every
:data:`INTERVAL` seconds, the stage's progress with an estimate of its time left;
``verbose>=2`` adds ``DEBUG`` records (each search model's stop, each candidate's
score). The records go to the logger ``"robust_boosting.progress"``. For the fit,
``verbose`` sets that logger's level when it has none of its own (else the user's
level decides), and when no handler would receive the records (``logging`` not
configured) they are printed on stderr. Nothing here changes a model.
"""

from __future__ import annotations

import logging
import numbers
import sys
import time

__all__ = ["LOGGER_NAME", "Progress", "check_verbose"]

#: the logger of every progress record
LOGGER_NAME = "robust_boosting.progress"

#: at most one progress record per stage every this many seconds (stage lines always)
INTERVAL = 2.0


def check_verbose(verbose) -> int:
    """``verbose`` checked: a non-negative integer (bools are refused)."""
    if isinstance(verbose, bool) or not isinstance(verbose, numbers.Integral) or verbose < 0:
        raise ValueError(f"verbose must be a non-negative integer, got {verbose!r}.")
    return int(verbose)


def _duration(seconds: float) -> str:
    seconds = max(0.0, float(seconds))
    if seconds < 60:
        return f"{seconds:.0f} s" if seconds >= 10 else f"{seconds:.1f} s"
    minutes, sec = divmod(int(round(seconds)), 60)
    if minutes < 60:
        return f"{minutes} min {sec:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


class Progress:
    """The progress records of one fit; a context manager around the fit.

    ``stage(name, message)`` starts a stage (an INFO line); ``total(units)`` adds
    work to the current stage and ``advance(units)`` records work done: an INFO
    line at most every :data:`INTERVAL` seconds, with the stage's fraction done and
    its time left (elapsed time x units left / units done); ``done(message)`` ends
    the stage (an INFO line with its time); ``debug(message)`` a DEBUG line
    (``verbose >= 2``). Every record's ``extra`` carries ``stage``, ``fraction``
    (0-1, or None) and ``eta`` (seconds, or None), for a handler that draws a bar.
    """

    def __init__(self, verbose: int):
        self.verbose = check_verbose(verbose)
        self.logger = logging.getLogger(LOGGER_NAME)
        self._handler = None
        self._old_level = None
        self.name = ""
        self._units = 0.0
        self._done = 0.0
        self._t_stage = self._t_fit = time.monotonic()
        self._t_last = 0.0

    def __enter__(self) -> Progress:
        if self.verbose:
            level = logging.DEBUG if self.verbose >= 2 else logging.INFO
            if self.logger.level == logging.NOTSET:
                self._old_level = self.logger.level
                self.logger.setLevel(level)
            if not self.logger.hasHandlers():
                self._handler = logging.StreamHandler(sys.stderr)
                self._handler.setFormatter(logging.Formatter("[robust_boosting] %(message)s"))
                self.logger.addHandler(self._handler)
        self._t_fit = time.monotonic()
        return self

    def __exit__(self, *exc) -> None:
        if self._handler is not None:
            self.logger.removeHandler(self._handler)
            self._handler = None
        if self._old_level is not None:
            self.logger.setLevel(self._old_level)
            self._old_level = None

    def _log(self, level: int, message: str, fraction=None, eta=None) -> None:
        if self.verbose >= (2 if level == logging.DEBUG else 1):
            self.logger.log(level, message,
                            extra={"stage": self.name, "fraction": fraction, "eta": eta})

    def stage(self, name: str, message: str) -> None:
        """Start the stage ``name`` (its INFO line is ``"name: message"``)."""
        self.name, self._units, self._done = name, 0.0, 0.0
        self._t_stage = self._t_last = time.monotonic()
        self._log(logging.INFO, f"{name}: {message}", fraction=0.0)

    def total(self, units: float) -> None:
        """Add ``units`` of work to the current stage."""
        self._units += float(units)

    def advance(self, units: float = 1.0) -> None:
        """Record ``units`` of the stage's work done (an INFO line now and then)."""
        self._done = min(self._units, self._done + float(units))
        now = time.monotonic()
        if not self.verbose or now - self._t_last < INTERVAL or self._units <= 0:
            return
        self._t_last = now
        fraction = self._done / self._units
        elapsed = now - self._t_stage
        eta = elapsed * (1.0 - fraction) / fraction if fraction > 0 else None
        left = f", about {_duration(eta)} left" if eta is not None else ""
        self._log(logging.INFO, f"{self.name}: {100 * fraction:.0f} % done{left}",
                  fraction=fraction, eta=eta)

    def done(self, message: str = "") -> None:
        """End the current stage (its INFO line gives its time)."""
        took = _duration(time.monotonic() - self._t_stage)
        self._log(logging.INFO, f"{self.name}: done in {took}" + (f"; {message}" if message else ""),
                  fraction=1.0, eta=0.0)

    def finished(self, message: str) -> None:
        """The fit's last INFO line (its total time)."""
        self.name = "fit"
        self._log(logging.INFO, f"fit: {message} in {_duration(time.monotonic() - self._t_fit)}",
                  fraction=1.0, eta=0.0)

    def debug(self, message: str) -> None:
        """A DEBUG line of the current stage (``verbose >= 2``)."""
        self._log(logging.DEBUG, f"{self.name}: {message}")
