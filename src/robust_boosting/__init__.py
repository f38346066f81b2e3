"""robust-boosting: boosting classifiers that stay accurate when training labels are wrong."""

# first: the compiled kernels' OpenMP runtime starts with short waits (see _openmp)
from . import _openmp  # noqa: F401, I001
from ._contributions import explain
from .exceptions import BoostingStoppedWarning
from ._model_io import load_model, save_model
from ._schema import IdentifierColumnWarning
from ._suspect_reasons import explain_suspects, suspect_contributions
from .adaboost import AdaBoostClassifier
from .classical import (
    GentleBoostClassifier,
    LogitBoostClassifier,
    RealBoostClassifier,
    SPLGentleBoostClassifier,
    SPLLogitBoostClassifier,
)
from .regression import SPLBoostRegressor
from .regression_cv import SPLBoostRegressorCV
from .rilboost import RILBoostClassifier
from .robust import RBoostClassifier, RobustBoostClassifier, SavageBoostClassifier
from .splboost import SPLBoostClassifier
from .splboost_cv import SPLBoostClassifierCV
from .trees import HistTreeClassifier, HistTreeRegressor

__version__ = "0.1.0"

__all__ = [
    "AdaBoostClassifier",
    "SPLBoostClassifier",
    "SPLBoostClassifierCV",
    "SPLBoostRegressor",
    "SPLBoostRegressorCV",
    "RealBoostClassifier",
    "GentleBoostClassifier",
    "LogitBoostClassifier",
    "SPLLogitBoostClassifier",
    "SPLGentleBoostClassifier",
    "SavageBoostClassifier",
    "RBoostClassifier",
    "RobustBoostClassifier",
    "RILBoostClassifier",
    "HistTreeClassifier",
    "HistTreeRegressor",
    "BoostingStoppedWarning",
    "IdentifierColumnWarning",
    "explain",
    "save_model",
    "load_model",
    "explain_suspects",
    "suspect_contributions",
    "__version__",
]
