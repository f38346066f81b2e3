"""Registry of the algorithms the experiments compare: name -> estimator factory + tuning grid.

Each entry names its estimator class by import path (``"module:Class"``), so an
algorithm whose module is not installed (or not written yet) only fails when a task
uses it, with an error that names the missing module.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "ALGORITHMS",
    "AlgorithmSpec",
    "ROBUSTBOOST_ERROR_GOAL_GRID",
    "SPLBOOST_AGE_GRID",
    "available_algorithms",
    "get_algorithm",
    "make_estimator",
    "make_weak_learner",
    "parse_grid",
    "regression_algorithms",
]


def parse_grid(text: str | float | int | list | tuple) -> list[float]:
    """A grid of numbers from ``"1,2,3"``, an inclusive range ``"start:stop:step"`` or a list.

    Parameters
    ----------
    text : str, number or sequence of numbers

    Returns
    -------
    values : list of float
        Rounded to 10 decimals so that ``"1:6:0.1"`` gives exactly 51 clean values.
    """
    if isinstance(text, int | float) and not isinstance(text, bool):
        return [float(text)]
    if isinstance(text, list | tuple):
        return [float(v) for v in text]
    if not isinstance(text, str):
        raise TypeError(f"a grid must be a string or a list of numbers, got {type(text).__name__}")
    s = text.strip()
    try:
        if ":" in s:
            parts = [float(p) for p in s.split(":")]
            if len(parts) != 3 or parts[2] <= 0 or parts[1] < parts[0]:
                raise ValueError
            start, stop, step = parts
            k = int(np.floor((stop - start) / step + 1e-9))
            return [round(start + i * step, 10) for i in range(k + 1)]
        values = [float(p) for p in s.split(",") if p.strip()]
    except ValueError:
        raise ValueError(
            f"cannot read the grid {text!r}: use comma-separated numbers or start:stop:step"
        ) from None
    if not values:
        raise ValueError(f"the grid {text!r} is empty")
    return values


#: The SPLBoost paper's age grid: lambda in [1.0, 6.0] with step 0.1 (51 values).
SPLBOOST_AGE_GRID: tuple[float, ...] = tuple(parse_grid("1:6:0.1"))

#: RobustBoost's target training error, chosen by CV: a fixed 0.1 stops after about 11
#: rounds, and MATLAB's documentation of ``RobustBoost`` advises tuning it.
ROBUSTBOOST_ERROR_GOAL_GRID: tuple[float, ...] = (0.01, 0.05, 0.1, 0.2)


@dataclass(frozen=True)
class AlgorithmSpec:
    """One algorithm of the registry.

    Attributes
    ----------
    name : str
        Registry name, e.g. ``"splboost-hard"``.
    target : str
        ``"module:Class"`` of the estimator.
    params : mapping
        Fixed constructor parameters (e.g. the SP-regularizer).
    tune : mapping of str to tuple
        Default grid tuned by cross-validation (the paper's), e.g. ``{"age": (1.0, ..., 6.0)}``.
    boosting : bool
        True if the estimator has ``n_estimators`` and ``staged_predict``: the number of
        rounds can then be chosen from one fit per fold.
    description : str
    peer : bool
        True for another library's model run for comparison (LightGBM, a random
        forest): the comparison tables show it, but the CLI's model files (which trust
        only this library's classes) do not hold it.
    regression_target : str or None
        ``"module:Class"`` of the algorithm's regression counterpart, which
        ``make_estimator(name, task="regression")`` builds for a real-valued target
        (``robust-boosting fit`` on a regression label); None: classification only.
        The experiment runner is classification-only and never uses it.
    regression_params : mapping
        Fixed constructor parameters of the regression counterpart.
    """

    name: str
    target: str
    params: Mapping[str, Any] = field(default_factory=dict)
    tune: Mapping[str, tuple] = field(default_factory=dict)
    boosting: bool = True
    description: str = ""
    peer: bool = False
    regression_target: str | None = None
    regression_params: Mapping[str, Any] = field(default_factory=dict)

    def load(self, task: str = "classification") -> type:
        """Import and return the estimator class of ``task`` (``"classification"``: the
        entry's ``target``; ``"regression"``: its ``regression_target``), with a clear
        ImportError if it is missing."""
        target = self.regression_target if task == "regression" else self.target
        if target is None:
            raise ValueError(_no_regression_message(self.name))
        module_name, _, cls_name = target.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise ImportError(
                f"algorithm {self.name!r} needs {target}, but module {module_name!r} "
                f"cannot be imported ({exc}); is it installed / implemented yet?"
            ) from exc
        try:
            return getattr(module, cls_name)
        except AttributeError:
            raise ImportError(
                f"algorithm {self.name!r} needs {target}, but {module_name!r} has no "
                f"{cls_name!r}"
            ) from None

    def is_available(self) -> bool:
        """Whether the estimator class can be imported."""
        try:
            self.load()
        except ImportError:
            return False
        return True


def _spl(reg: str, desc: str, **regression) -> AlgorithmSpec:
    return AlgorithmSpec(
        f"splboost-{reg}",
        "robust_boosting.splboost:SPLBoostClassifier",
        # the paper's algorithm: a fixed age (the estimator's default grows it when the
        # kept samples become separable)
        {"regularizer": reg, "age_growth": None},
        {"age": SPLBOOST_AGE_GRID},
        description=f"SPLBoost with the {desc} SP-regularizer; age tuned in [1, 6] by CV",
        **regression,
    )


#: Name -> algorithm. ``rilboost-i`` / ``rilboost-ii`` fix the mixing parameter
#: (a = 1 and a = 0); ``rilboost`` leaves it free (the mixing study).
ALGORITHMS: dict[str, AlgorithmSpec] = {
    s.name: s
    for s in [
        AlgorithmSpec("splboost-cv", "robust_boosting.splboost_cv:SPLBoostClassifierCV",
                      boosting=False,
                      description="SPLBoostClassifierCV: self-paced LogitBoost trees, depth and "
                                  "rounds cross-validated, suspect labels (confident learning) "
                                  "left out of the final fit",
                      regression_target="robust_boosting.regression_cv:SPLBoostRegressorCV"),
        AlgorithmSpec("adaboost", "robust_boosting.adaboost:AdaBoostClassifier",
                      description="discrete AdaBoost (SAMME)"),
        # a regression target: SPLBoostRegressor with hard weights (its own default age)
        _spl("hard", "hard", regression_target="robust_boosting.regression:SPLBoostRegressor",
             regression_params={"regularizer": "hard"}),
        _spl("linear", "linear soft"),
        _spl("lowerconvex", "polynomial (t = 1.3)"),
        _spl("upperconvex", "polynomial (t = 4)"),
        AlgorithmSpec("realboost", "robust_boosting.classical:RealBoostClassifier",
                      description="RealBoost (Friedman, Hastie & Tibshirani 2000)"),
        AlgorithmSpec("gentleboost", "robust_boosting.classical:GentleBoostClassifier",
                      description="GentleBoost"),
        AlgorithmSpec("logitboost", "robust_boosting.classical:LogitBoostClassifier",
                      description="LogitBoost"),
        AlgorithmSpec("savageboost", "robust_boosting.robust:SavageBoostClassifier",
                      description="SavageBoost (Savage loss, RealBoost-style step)"),
        AlgorithmSpec("savageboost-literal",
                      "robust_boosting.experiments.savage_readings:SavageBoostReading",
                      {"update": "literal"},
                      description="SavageBoost with Algorithm 1's update read literally, "
                                  "w <- w exp(+yG) (sensitivity study only)"),
        AlgorithmSpec("savageboost-reversed",
                      "robust_boosting.experiments.savage_readings:SavageBoostReading",
                      {"update": "reversed"},
                      description="SavageBoost with the sign-reversed update w <- w exp(-yG), "
                                  "RealBoost's (sensitivity study only)"),
        AlgorithmSpec("rboost", "robust_boosting.robust:RBoostClassifier",
                      description="RBoost (Savage2 loss, gentle step; reconstruction)"),
        AlgorithmSpec("robustboost", "robust_boosting.robust:RobustBoostClassifier",
                      tune={"error_goal": ROBUSTBOOST_ERROR_GOAL_GRID},
                      description="Freund's RobustBoost; error_goal tuned by CV"),
        AlgorithmSpec("spl-logitboost", "robust_boosting.classical:SPLLogitBoostClassifier",
                      tune={"age": SPLBOOST_AGE_GRID},
                      description="LogitBoost with self-paced weights (hard)"),
        AlgorithmSpec("spl-gentleboost", "robust_boosting.classical:SPLGentleBoostClassifier",
                      tune={"age": SPLBOOST_AGE_GRID},
                      description="GentleBoost with self-paced weights (hard)"),
        AlgorithmSpec("rilboost-i", "robust_boosting.rilboost:RILBoostClassifier",
                      {"mixing": 1.0}, description="RILBoost I (mixing a = 1), weighted RBF SVMs"),
        AlgorithmSpec("rilboost-ii", "robust_boosting.rilboost:RILBoostClassifier",
                      {"mixing": 0.0}, description="RILBoost II (mixing a = 0), weighted RBF SVMs"),
        AlgorithmSpec("rilboost", "robust_boosting.rilboost:RILBoostClassifier",
                      description="RILBoost with a free mixing parameter a"),
        AlgorithmSpec("svm", "sklearn.svm:SVC", boosting=False,
                      description="scikit-learn's RBF SVC"),
        # peers: their library's defaults, one thread each (the runner runs tasks in
        # parallel); LightGBM is optional (available where installed)
        AlgorithmSpec("lightgbm", "lightgbm:LGBMClassifier", {"n_jobs": 1, "verbose": -1},
                      boosting=False, peer=True,
                      description="LightGBM's LGBMClassifier with its defaults (100 rounds "
                                  "of 31-leaf trees, learning rate 0.1), a peer"),
        AlgorithmSpec("random-forest", "sklearn.ensemble:RandomForestClassifier",
                      {"n_jobs": 1}, boosting=False, peer=True,
                      description="scikit-learn's RandomForestClassifier with its defaults "
                                  "(100 trees), a peer"),
    ]
}

# Estimators that other modules may provide under a different module name.
_FALLBACK_MODULES = {
    "SPLLogitBoostClassifier": ["robust_boosting.self_paced", "robust_boosting.spl_variants",
                                "robust_boosting.classical", "robust_boosting"],
    "SPLGentleBoostClassifier": ["robust_boosting.self_paced", "robust_boosting.spl_variants",
                                 "robust_boosting.classical", "robust_boosting"],
}


def beyond_the_papers(name: str) -> bool:
    """Whether registry entry ``name`` (or a variant ``name(...)``) is none of the papers'
    algorithms: the library's default ``splboost-cv`` or a peer from another library."""
    base = str(name).split("(")[0]
    return base == "splboost-cv" or (base in ALGORITHMS and ALGORITHMS[base].peer)


def regression_algorithms() -> list[str]:
    """Registry names that can fit a regression target (a ``regression_target``)."""
    return [name for name, spec in ALGORITHMS.items() if spec.regression_target is not None]


def _no_regression_message(name: str) -> str:
    return (f"algorithm {name!r} cannot fit a regression target; the algorithms that can: "
            f"{', '.join(regression_algorithms())}")


def available_algorithms() -> list[str]:
    """Registry names whose estimator can be imported here."""
    return [name for name, spec in ALGORITHMS.items() if spec.is_available()]


def get_algorithm(name: str) -> AlgorithmSpec:
    """The registry entry of ``name`` (ValueError listing the names if unknown)."""
    try:
        return ALGORITHMS[name]
    except KeyError:
        raise ValueError(
            f"unknown algorithm {name!r}; available: {', '.join(ALGORITHMS)}"
        ) from None


def _load_class(spec: AlgorithmSpec, task: str = "classification") -> type:
    try:
        return spec.load(task)
    except ImportError as first:
        if task == "regression":
            raise
        cls_name = spec.target.partition(":")[2]
        for module_name in _FALLBACK_MODULES.get(cls_name, []):
            try:
                return getattr(importlib.import_module(module_name), cls_name)
            except (ImportError, AttributeError):
                continue
        raise first


def make_weak_learner(spec: str | None, *, regressor: bool = False):
    """A weak learner from a short name.

    Parameters
    ----------
    spec : str or None
        None (the estimator's own default), ``"stump"`` (scikit-learn tree of depth 1),
        ``"tree-D"`` (scikit-learn tree of depth D), ``"hist-stump"`` or ``"hist-D"``
        (the library's histogram trees, :mod:`robust_boosting.trees`).
    regressor : bool, default=False
        Build the regression tree of that depth (for LogitBoost, GentleBoost, RBoost...).
    """
    if spec is None:
        return None
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

    if regressor:
        DecisionTreeClassifier = DecisionTreeRegressor  # noqa: N806
    text = str(spec).strip().lower()
    if text == "stump":
        return DecisionTreeClassifier(max_depth=1)
    if text.startswith("tree-") and text[5:].isdigit():
        return DecisionTreeClassifier(max_depth=int(text[5:]))
    if text == "hist-stump" or (text.startswith("hist-") and text[5:].isdigit()):
        from ..trees import HistTreeClassifier, HistTreeRegressor

        depth = 1 if text == "hist-stump" else int(text[5:])
        return (HistTreeRegressor if regressor else HistTreeClassifier)(max_depth=depth)
    raise ValueError(
        f"unknown weak learner {spec!r}; use stump, tree-D, hist-stump or hist-D (D = depth)"
    )


def make_estimator(name: str, params: Mapping[str, Any] | None = None, *,
                   random_state: int | None = None, weak_learner: str | None = None,
                   task: str = "classification"):
    """Build the estimator of registry entry ``name`` for ``task``.

    Parameters
    ----------
    name : str
        Registry name.
    params : mapping, optional
        Constructor parameters, on top of the entry's fixed ones.
    random_state : int, optional
        Passed if the estimator has a ``random_state`` parameter.
    weak_learner : str, optional
        See :func:`make_weak_learner`; passed as ``estimator`` if given.
    task : {"classification", "regression"}, default="classification"
        ``"regression"`` builds the entry's regression counterpart
        (:attr:`AlgorithmSpec.regression_target`, with its ``regression_params``), e.g.
        :class:`~robust_boosting.SPLBoostRegressorCV` for ``"splboost-cv"``.

    Returns
    -------
    estimator : scikit-learn estimator (unfitted)

    Raises
    ------
    ValueError
        An unknown name, task or parameter, or ``task="regression"`` for an entry with no
        regression counterpart (the message names the entries that have one).
    """
    if task not in ("classification", "regression"):
        raise ValueError(f"task must be 'classification' or 'regression', got {task!r}")
    spec = get_algorithm(name)
    cls = _load_class(spec, task)
    fixed = spec.regression_params if task == "regression" else spec.params
    kwargs = {**fixed, **(params or {})}
    # the entry's fixed parameters go to the constructor (LightGBM reports parameters
    # such as ``verbose`` only once they are set)
    est = cls(**fixed)
    if weak_learner is not None:
        from sklearn.base import is_regressor

        default = getattr(est, "_default_estimator", None)
        wants_regressor = default is not None and is_regressor(default())
        kwargs["estimator"] = make_weak_learner(weak_learner, regressor=wants_regressor)
    valid = est.get_params(deep=False)
    unknown = sorted(set(kwargs) - set(valid))
    if unknown:
        raise ValueError(
            f"algorithm {name!r} ({cls.__name__}) has no parameter(s) {', '.join(unknown)}; "
            f"its parameters are: {', '.join(sorted(valid))}"
        )
    if random_state is not None and "random_state" in valid:
        kwargs["random_state"] = random_state
    return est.set_params(**kwargs)
