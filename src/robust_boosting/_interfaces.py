"""The old name of :mod:`robust_boosting.interfaces`, kept so that model files and pickles
saved while the contracts lived here (they name ``robust_boosting._interfaces.WeightPolicy``)
still load. New code imports :mod:`robust_boosting.interfaces`."""

from .exceptions import BoostingStoppedWarning
from .interfaces import (
    ERROR_FLOOR,
    MAX_ROUNDS_REASON,
    STOP_BOOSTING,
    BoostingState,
    FitRequest,
    RoundResult,
    Step,
    WeightPolicy,
    answer_requests,
)

__all__ = [
    "ERROR_FLOOR",
    "MAX_ROUNDS_REASON",
    "STOP_BOOSTING",
    "BoostingState",
    "BoostingStoppedWarning",
    "FitRequest",
    "RoundResult",
    "Step",
    "WeightPolicy",
    "answer_requests",
]
