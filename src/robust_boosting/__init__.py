"""robust-boosting: boosting classifiers that stay accurate when training labels are wrong."""

from ._boosting import BoostingStoppedWarning
from .adaboost import AdaBoostClassifier
from .splboost import SPLBoostClassifier

__version__ = "0.1.0"

__all__ = [
    "AdaBoostClassifier",
    "SPLBoostClassifier",
    "BoostingStoppedWarning",
    "__version__",
]
