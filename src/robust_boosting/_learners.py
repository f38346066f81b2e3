"""The loop's weak learners: the default one, their seeded copies and their threads.

:func:`default_weak_learner` is the one place that picks the default weak learner;
:func:`unfitted_copy` and :func:`_seeded_copy` make each round's fresh learner (seeded
as scikit-learn's ensembles seed theirs). Importable from
:mod:`robust_boosting._boosting` too.
"""

from __future__ import annotations

import copy
import numbers
import threading
from typing import TYPE_CHECKING

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state

if TYPE_CHECKING:
    from .interfaces import Step

__all__ = ["default_weak_learner", "unfitted_copy"]


def _random_state_keys(estimator) -> list[str]:
    """The ``random_state`` parameters of ``estimator`` (nested ones too), in sorted order."""
    return [
        key
        for key in sorted(estimator.get_params(deep=True))
        if key == "random_state" or key.endswith("__random_state")
    ]


_IMMUTABLE = frozenset({int, float, str, bool, type(None)})
_INT32_MAX = int(np.iinfo(np.int32).max)


def unfitted_copy(template):
    """A copy of the unfitted estimator ``template`` that shares no mutable state with it.

    A shallow copy when every parameter is a plain number, string, None or an estimator
    of such parameters (copied the same way, level by level: it is then a clone), else a
    deep copy: for an unfitted estimator both equal ``clone``'s result, at a fraction of
    its cost.
    """
    copied = _plain_copy(template)
    return copy.deepcopy(template) if copied is None else copied


def _plain_copy(est):
    """A shallow copy of ``est`` whose estimator-valued attributes are copied the same way,
    when every attribute is a plain number, string, None or such an estimator; else None."""
    nested = {}
    for key, value in vars(est).items():
        if type(value) in _IMMUTABLE:
            continue
        if not isinstance(value, BaseEstimator):
            return None
        inner = _plain_copy(value)
        if inner is None:
            return None
        nested[key] = inner
    out = _shallow_copy(est)
    for key, inner in nested.items():
        setattr(out, key, inner)
    return out


#: per class: is ``copy.copy`` of an estimator of plain attributes a copy of its ``__dict__``
_DICT_COPY: dict[type, bool] = {}


def _shallow_copy(est):
    """``copy.copy(est)`` for an estimator of plain attributes (:func:`_plain_copy`'s).

    When its class pickles it as its ``__dict__`` (scikit-learn's ``__getstate__`` and
    ``__setstate__``, or a ``__getstate__`` marked ``plain_state``: the trees' drops only
    a non-plain attribute), a new instance gets a copy of that dict, at a sixth of the
    copy protocol's cost."""
    cls = type(est)
    as_dict = _DICT_COPY.get(cls)
    if as_dict is None:
        as_dict = _DICT_COPY[cls] = (
            cls.__setstate__ is BaseEstimator.__setstate__
            and getattr(cls, "__copy__", None) is None
            and cls.__reduce_ex__ is object.__reduce_ex__ and cls.__reduce__ is object.__reduce__
            and (cls.__getstate__ is BaseEstimator.__getstate__
                 or getattr(cls.__getstate__, "plain_state", False)))
    if not as_dict:
        return copy.copy(est)
    out = cls.__new__(cls)
    out.__dict__.update(est.__dict__)
    return out


def _seeded_copy(template, keys: list[str], random_state):
    """A fresh copy of the unfitted ``template`` whose ``random_state`` parameters are seeded.

    The parameters named in ``keys`` (from :func:`_random_state_keys`, sorted) are
    seeded with ``random_state.randint(2**31 - 1)`` (a ``RandomState``, or
    :func:`round_seeds`' stream of the same draws) in that order, as scikit-learn's ensembles
    do, so a weak learner gets the same seeds here as in
    :class:`sklearn.ensemble.AdaBoostClassifier`. ``template`` must be a
    ``clone`` of the user's estimator: a deep copy of it is then a clone too,
    at a fraction of ``clone``'s cost.
    """
    learner = unfitted_copy(template)
    seeds = {key: random_state.randint(_INT32_MAX) for key in keys}
    nested = {key: seed for key, seed in seeds.items() if "__" in key}
    if "random_state" in seeds:
        learner.random_state = seeds["random_state"]
    if nested and not _set_nested(learner, nested):
        learner.set_params(**nested)
    return learner


#: per thread, a ``RandomState`` re-seeded by :func:`reseeded_rng`
_RESEEDED = threading.local()


def reseeded_rng(seed: int) -> np.random.RandomState:
    """This thread's ``RandomState``, re-seeded with ``seed``: it then draws exactly what
    ``RandomState(seed)`` draws (``seed(s)`` resets every bit of its state), at a 30th of
    a new one's cost (a new bit generator first draws its state from the system's
    entropy). Read it at once: the next call re-seeds it."""
    rng = getattr(_RESEEDED, "rng", None)
    if rng is None:
        rng = _RESEEDED.rng = np.random.RandomState(0)
    rng.seed(seed)
    return rng


class _SeedStream:
    """The ``randint(2**31 - 1)`` draws of ``RandomState(seed)``, in order, for
    :func:`_seeded_copy`: drawn in blocks from :func:`reseeded_rng` (the first ``m``
    draws of ``randint(high, size=m)`` are those of ``m`` single draws)."""

    def __init__(self, seed: int):
        self.seed = seed
        self._draws: list[int] = []
        self._next = 0

    def randint(self, high: int) -> int:
        if high != _INT32_MAX:
            raise ValueError(f"a seed stream draws below 2**31 - 1, not {high}")
        if self._next == len(self._draws):  # the first 2 m draws, m the ones drawn
            m = max(256, 2 * len(self._draws))
            self._draws = reseeded_rng(self.seed).randint(_INT32_MAX, size=m).tolist()
        self._next += 1
        return self._draws[self._next - 1]


def round_seeds(random_state):
    """What :func:`_seeded_copy` draws a fit's seeds from: ``check_random_state``'s
    generator, or for an integer seed a :class:`_SeedStream` of the same draws."""
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool) \
            and 0 <= random_state < 2**32:
        return _SeedStream(int(random_state))
    return check_random_state(random_state)


def _set_nested(learner, params: dict) -> bool:
    """Set ``a__b__name`` parameters as attributes of the estimators they name when each
    of ``a``, ``a.b`` is an estimator attribute (what ``set_params`` does then, without
    its signature inspection); False, with nothing set, if one is not."""
    targets = []
    for key, value in params.items():
        *path, name = key.split("__")
        obj = learner
        for part in path:
            obj = vars(obj).get(part)
            if not isinstance(obj, BaseEstimator):
                return False
        if name not in vars(obj):
            return False
        targets.append((obj, name, value))
    for obj, name, value in targets:
        setattr(obj, name, value)
    return True


def _learner_threads(estimator) -> int:
    """Threads of a weak learner's compiled kernels (1 for a learner without them)."""
    from .trees import HistTreeClassifier, HistTreeRegressor
    from .trees.binning import _n_threads

    if isinstance(estimator, HistTreeClassifier | HistTreeRegressor):
        return _n_threads(estimator.n_jobs)
    return 1


def default_weak_learner(step: Step):
    """The library's one default weak learner: a histogram stump of the kind ``step`` needs.

    A decision stump (:class:`~robust_boosting.trees.HistTreeClassifier`,
    ``max_depth=1``) for steps that fit a classifier, a regression stump
    (:class:`~robust_boosting.trees.HistTreeRegressor`, as in the experiments of
    Friedman, Hastie & Tibshirani 2000) for steps that fit a real-valued
    working response.
    """
    from .trees import HistTreeClassifier, HistTreeRegressor

    if step.needs_classifier:
        return HistTreeClassifier(max_depth=1)
    return HistTreeRegressor(max_depth=1)

