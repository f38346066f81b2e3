"""Tasks: one data set x noise model x rate x algorithm (x fixed parameters) x repetition.

A task is a plain, JSON-serialisable description. Its id is a hash of that
description, so the same grid always gives the same ids: the results store skips
the tasks it already holds, and a restarted run resumes where it stopped.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import Any

from ..noise import NOISE_MODELS as _NOISE_REGISTRY

__all__ = ["NOISE_MODELS", "PROTOCOLS", "Task", "variant_label"]

#: Label-noise models of the tasks (see :mod:`robust_boosting.noise`).
NOISE_MODELS = tuple(_NOISE_REGISTRY)  # the names of robust_boosting.noise.NOISE_MODELS

#: How a task splits its data set into training and test parts.
#: ``holdout``: random stratified split, ``split["test_size"]`` (default 0.3);
#: ``kfold``: fold ``split["fold"]`` of ``split["n_folds"]`` stratified folds as test part;
#: ``small-sample``: ``split["n_train"]`` training samples (half per class), the rest test
#: (for a synthetic set, from a fresh set of ``split["n_per_class"]`` (100) per class
#: generated for each repetition);
#: ``synthetic``: a fresh draw of the named generator for training
#: (``split["n_train_per_class"]``) and an independent one for testing
#: (``split["n_test_per_class"]``).
PROTOCOLS = ("holdout", "kfold", "small-sample", "synthetic")


def _canonical(value: Any) -> Any:
    """Make ``value`` JSON-stable: tuples as lists, floats that are integers stay floats."""
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in sorted(value.items())}
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, str):  # numpy scalar
        return value.item()
    return value


@dataclass
class Task:
    """One unit of work of an experiment.

    Attributes
    ----------
    experiment : str
        Kind of study, which selects the report sections: ``"noise-grid"``,
        ``"splboost-synthetic"``, ``"savageboost-table4"``, ``"rilboost-small-sample"``.
    dataset : str
        Task name (:func:`robust_boosting.datasets.list_tasks`), bundled data set name,
        or ``"splboost-gaussian"`` / ``"rilboost-gaussian"``.
    protocol : str
        One of :data:`PROTOCOLS`.
    split : dict
        Parameters of the protocol.
    noise : str
        One of :data:`NOISE_MODELS`.
    rate : float
        Noise rate of the training labels.
    algorithm : str
        Registry name (:data:`robust_boosting.experiments.algorithms.ALGORITHMS`).
    params : dict
        Fixed estimator parameters.
    tune : dict of str to list
        Parameters chosen by cross-validation on the training part.
    rounds : int or None
        Maximum number of boosting rounds (None: not a boosting algorithm).
    tune_rounds : bool
        Choose the number of rounds by cross-validation (staged predictions).
    cv_folds : int
        Folds of the model selection.
    weak_learner : str or None
        See :func:`robust_boosting.experiments.algorithms.make_weak_learner`.
    scale : bool
        Standardise the features (fitted on the training part).
    repetition : int
    seed : int
        Seed of the split, the noise, the CV folds and the estimator. All algorithms of
        the same repetition see the same split and noisy labels.
    """

    experiment: str
    dataset: str
    algorithm: str
    protocol: str = "holdout"
    split: dict = field(default_factory=dict)
    noise: str = "symmetric"
    rate: float = 0.0
    params: dict = field(default_factory=dict)
    tune: dict = field(default_factory=dict)
    rounds: int | None = 100
    tune_rounds: bool = True
    cv_folds: int = 5
    weak_learner: str | None = None
    scale: bool = False
    repetition: int = 0
    seed: int = 0

    def __post_init__(self) -> None:
        if self.protocol not in PROTOCOLS:
            raise ValueError(f"unknown protocol {self.protocol!r}; use one of {PROTOCOLS}")
        if self.noise not in NOISE_MODELS:
            raise ValueError(f"unknown noise model {self.noise!r}; use one of {NOISE_MODELS}")
        if not 0.0 <= float(self.rate) < 1.0:
            raise ValueError(f"noise rate must be in [0, 1), got {self.rate!r}")
        self.rate = float(self.rate)

    def to_dict(self) -> dict[str, Any]:
        """The task as a JSON-stable dictionary."""
        return _canonical(asdict(self))

    def to_json(self) -> str:
        """Canonical JSON (sorted keys, no spaces): the input of :attr:`task_id`."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Task:
        """Inverse of :meth:`to_json`."""
        return cls(**json.loads(text))

    @property
    def task_id(self) -> str:
        """Deterministic id: the first 24 hex digits of the SHA-256 of :meth:`to_json`."""
        return hashlib.sha256(self.to_json().encode()).hexdigest()[:24]

    @property
    def variant(self) -> str:
        """Algorithm name plus its non-default fixed parameters, e.g. ``rilboost-i(epsilon=0.1)``."""
        return variant_label(self.algorithm, self.params)

    def describe(self) -> str:
        """One line for logs."""
        extra = f" {self.split}" if self.split else ""
        return (f"{self.dataset} {self.protocol}{extra} {self.noise}={self.rate:g} "
                f"{self.variant} rep={self.repetition}")


def variant_label(algorithm: str, params: dict) -> str:
    """``algorithm(k=v, ...)`` for the fixed parameters that differ from the registry's."""
    from .algorithms import ALGORITHMS

    base = ALGORITHMS[algorithm].params if algorithm in ALGORITHMS else {}
    shown = {k: v for k, v in sorted(params.items()) if base.get(k, object()) != v}
    if not shown:
        return algorithm
    inner = ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                      for k, v in shown.items())
    return f"{algorithm}({inner})"
