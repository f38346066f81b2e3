"""A fitted boosting run (:class:`Ensemble`), what its model file keeps, and prediction.

:class:`Ensemble` holds one (binary or native multiclass) run's learners and
coefficients; :class:`EnsembleModel` is what every fitted booster reads from its
ensembles (raw scores round by round, ``feature_importances_``, the saved state),
mixed into the loop's base :class:`~robust_boosting._boosting.BaseBoosting`;
:class:`EnsemblePrediction` adds a classifier's prediction (``decision_function``,
``predict_proba``, the ``staged_*`` family), mixed into
:class:`~robust_boosting._boosting.BaseBoostingClassifier`.

What a saved model keeps (``__getstate__``: pickles, joblib and ``skops.io`` files,
which writes every reference to an object in full): the histogram trees of a run
share the run's one :class:`~robust_boosting.trees.BinMapper` (the data are binned
once per fit), so an ensemble's state holds that mapper once (``bin_mapper``) and its
trees without it, handing it back to them on load; its
:class:`~robust_boosting.trees.HistTree` node arrays are kept as one table per array,
the trees' rows end to end (``node_tables``: a file holds a few arrays rather than
eight per tree, each an entry of the archive and a record of its schema), without the
node statistics that neither prediction, ``feature_importances_`` nor the
contributions read (node counts, depths; the node weights, the contributions' covers,
are kept); and a booster's ``estimators_``, a view of its ensembles'
learners, is rebuilt from ``ensembles_`` rather than saved twice. Files of release
0.1.0 (a mapper in every tree, ``estimators_`` saved) load as they are.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import expit
from sklearn.metrics import accuracy_score
from sklearn.utils import get_tags
from sklearn.utils.validation import check_is_fitted

from ._validation import validated_X
from .interfaces import MAX_ROUNDS_REASON
from .trees import HistTree, SharedSymmetricTree
from .trees._base import _BaseHistTree

__all__ = ["Ensemble", "EnsembleModel", "EnsemblePrediction"]

#: node arrays of a :class:`~robust_boosting.trees.HistTree` that a saved ensemble
#: does not keep: read by no prediction, not by ``feature_importances_`` (``gain``) and
#: not by the contributions (``weighted_n_node_samples``, the covers, are kept);
#: ``get_depth`` recomputes the depth from the children
_UNSAVED_NODE_ARRAYS = frozenset({"n_node_samples", "depth"})
#: the learners that keep the mapper of the data they were fitted on as ``bin_mapper_``
_BINNED_LEARNERS = (_BaseHistTree, SharedSymmetricTree)


def _mapper_of(learner) -> Any:
    """The ``bin_mapper_`` that ``learner`` (or its first inner learner) keeps, or None."""
    state = getattr(learner, "__dict__", {})
    if "bin_mapper_" in state:
        return state["bin_mapper_"]
    inner = state.get("estimators_")
    return _mapper_of(inner[0]) if isinstance(inner, list) and inner else None


def _trees_of(learner, out: list) -> list:
    """The :class:`~robust_boosting.trees.HistTree` of ``learner`` and of its inner learners
    (``estimators_``), appended to ``out`` in the order :func:`_restore` gives them back."""
    state = getattr(learner, "__dict__", None)
    if isinstance(state, dict):
        if isinstance(state.get("tree_"), HistTree):
            out.append(state["tree_"])
        inner = state.get("estimators_")
        if isinstance(inner, list):
            for est in inner:
                _trees_of(est, out)
    return out


def _node_tables(trees: list) -> dict[str, np.ndarray] | None:
    """The saved node arrays of ``trees``, one table per array (the trees' rows end to
    end) and ``node_count``, each tree's number of rows; None when the trees do not
    have the same arrays (names, dtypes, shapes but the first)."""
    if not trees:
        return None
    names = sorted(set(vars(trees[0])) - _UNSAVED_NODE_ARRAYS)
    for tree in trees:
        if sorted(set(vars(tree)) - _UNSAVED_NODE_ARRAYS) != names:
            return None
    tables = {}
    for name in names:
        arrays = [vars(tree)[name] for tree in trees]
        first = arrays[0]
        if not all(isinstance(a, np.ndarray) and a.ndim >= 1 and a.dtype == first.dtype
                   and a.shape[1:] == first.shape[1:]
                   and a.shape[0] == len(tree.children_left)
                   for a, tree in zip(arrays, trees, strict=True)):
            return None
        tables[name] = np.concatenate(arrays)
    tables["node_count"] = np.array([len(tree.children_left) for tree in trees],
                                    dtype=np.int64)
    return tables


def _trees_from(tables: dict[str, np.ndarray]) -> list:
    """The trees of :func:`_node_tables`' ``tables`` (each array its own copy)."""
    tables = dict(tables)
    counts = tables.pop("node_count")
    ends = np.cumsum(counts)
    return [HistTree(**{name: table[a:b].copy() for name, table in tables.items()})
            for a, b in zip((ends - counts).tolist(), ends.tolist(), strict=True)]


def _saved_learner(learner, mapper, tabled: bool):
    """``learner`` as a saved ensemble keeps it: a shallow copy without ``mapper`` and
    without its tree's node arrays (``tabled``: in the ensemble's node tables) or the
    node statistics of :data:`_UNSAVED_NODE_ARRAYS` (the learner itself when it has none
    of them); inner learners (``estimators_``, e.g. ``PerClassRegressor``'s) too."""
    state = getattr(learner, "__dict__", None)
    if not isinstance(state, dict):
        return learner
    changes: dict[str, Any] = {}
    drop = {"bin_mapper_"} if mapper is not None and state.get("bin_mapper_") is mapper \
        else set()
    tree = state.get("tree_")
    if isinstance(tree, HistTree):
        if tabled:
            drop.add("tree_")
        elif not _UNSAVED_NODE_ARRAYS.isdisjoint(vars(tree)):
            changes["tree_"] = HistTree(**{k: v for k, v in vars(tree).items()
                                           if k not in _UNSAVED_NODE_ARRAYS})
    inner = state.get("estimators_")
    if isinstance(inner, list):
        saved = [_saved_learner(est, mapper, tabled) for est in inner]
        if any(a is not b for a, b in zip(saved, inner, strict=True)):
            changes["estimators_"] = saved
    if not changes and not drop:
        return learner
    out = type(learner).__new__(type(learner))
    out.__dict__.update({k: v for k, v in state.items() if k not in drop})
    out.__dict__.update(changes)
    return out


def _restore(learner, mapper, trees) -> None:
    """Give back what :func:`_saved_learner` took: ``mapper`` (if not None) and the next
    trees of the iterator ``trees`` (if not None), in :func:`_trees_of`'s order."""
    state = getattr(learner, "__dict__", None)
    if not isinstance(state, dict):
        return
    if mapper is not None and isinstance(learner, _BINNED_LEARNERS) \
            and "bin_mapper_" not in state:
        learner.bin_mapper_ = mapper
    if trees is not None and isinstance(learner, _BaseHistTree) and "tree_" not in state:
        learner.tree_ = next(trees)
    inner = state.get("estimators_")
    if isinstance(inner, list):
        for est in inner:
            _restore(est, mapper, trees)


@dataclass
class Ensemble:
    """The fitted learners of one (binary or native multiclass) boosting run."""

    estimators: list = field(default_factory=list)
    coefs: list = field(default_factory=list)
    errors: list = field(default_factory=list)
    rounds: list = field(default_factory=list)
    stopping_reason: str = MAX_ROUNDS_REASON
    init_score: NDArray[np.float64] | float = 0.0
    info: dict = field(default_factory=dict)

    def __getstate__(self) -> dict:
        """The state a saved ensemble keeps: the learners' shared bin mapper once and their
        trees' node arrays as one table each (see the module's docstring)."""
        state = dict(self.__dict__)
        mapper = _mapper_of(self.estimators[0]) if self.estimators else None
        tables = _node_tables([t for est in self.estimators for t in _trees_of(est, [])])
        state["estimators"] = [_saved_learner(est, mapper, tables is not None)
                               for est in self.estimators]
        if mapper is not None:
            state["bin_mapper"] = mapper
        if tables is not None:
            state["node_tables"] = tables
        return state

    def __setstate__(self, state: dict) -> None:
        state = dict(state)
        mapper = state.pop("bin_mapper", None)
        tables = state.pop("node_tables", None)
        self.__dict__.update(state)
        if mapper is not None or tables is not None:
            trees = None if tables is None else iter(_trees_from(tables))
            for est in self.estimators:
                _restore(est, mapper, trees)


class EnsembleModel:
    """What every fitted booster, classifier or regressor, has from its ensembles
    (``ensembles_``, ``step_``, ``_ovr``): the raw scores round by round, input checks at
    prediction, ``feature_importances_``, and the saved state (``estimators_`` rebuilt
    from ``ensembles_`` on load)."""

    def __getstate__(self) -> dict:
        state = dict(super().__getstate__())  # a copy: object.__getstate__ may return __dict__
        ensembles = state.get("ensembles_")
        if ensembles is not None and "estimators_" in state:
            views = [e.estimators for e in ensembles]
            published = state["estimators_"]
            if state.get("_ovr") is False and published is views[0] or (
                    state.get("_ovr") and isinstance(published, list)
                    and len(published) == len(views)
                    and all(a is b for a, b in zip(published, views, strict=True))):
                del state["estimators_"]  # a view of ensembles_: rebuilt on load
        return state

    def __setstate__(self, state: dict) -> None:
        super().__setstate__(state)
        ensembles = self.__dict__.get("ensembles_")
        if ensembles is not None and "estimators_" not in self.__dict__:
            views = [e.estimators for e in ensembles]
            self.estimators_ = views if self._ovr else views[0]

    def _check_X(self, X):
        check_is_fitted(self)
        return validated_X(self, X, reset=False, allow_nan=self._allows_nan(fitted=True),
                           allow_inf=False)

    def _allows_nan(self, fitted: bool) -> bool:
        """Whether the weak learner (the fitted ``estimator_`` if ``fitted``, else the one the
        parameters give) handles NaN: then so does the booster (NaN means missing);
        otherwise a NaN is an error naming the column and the rows."""
        try:
            est = getattr(self, "estimator_", None) if fitted else None
            if est is None:
                est = self._default_estimator() if self.estimator is None else self.estimator
            return bool(get_tags(est).input_tags.allow_nan)
        except Exception:  # invalid parameters: the fit reports them
            return False

    def _run_classes(self) -> int:
        """The ``n_classes`` of the boosting runs: a classifier's classes (2 for each run of
        a one-vs-rest model), 1 for a regressor's one score per row."""
        return len(self.classes_)

    def _staged_raw(self, X) -> Iterator[NDArray[np.float64]]:
        """Raw scores after each round (one-vs-rest: shape ``(n, K)``, one column per class).

        Uses the fitted step ``step_`` only (not the current parameters).
        """
        step = self.step_
        n_classes = self._run_classes()
        n = X.shape[0]
        if not self._ovr:
            ens = self.ensembles_[0]
            shape = (n,) if n_classes <= 2 else (n, n_classes)
            raw = np.zeros(shape) + ens.init_score
            if not ens.estimators:
                yield raw
            for est, coef in zip(ens.estimators, ens.coefs, strict=True):
                raw = raw + coef * step.output(est, X, n_classes)
                yield raw
            return
        raw = np.zeros((n, n_classes))
        for k, ens in enumerate(self.ensembles_):
            raw[:, k] += ens.init_score
        longest = max(max(len(e.estimators) for e in self.ensembles_), 1)
        for t in range(longest):
            raw = raw.copy()
            for k, ens in enumerate(self.ensembles_):
                if t < len(ens.estimators):
                    raw[:, k] += ens.coefs[t] * step.output(ens.estimators[t], X, 2)
            yield raw

    def _contributions(self, X) -> NDArray[np.float64]:
        """``predict(X, pred_contrib=True)`` for a checked ``X``: each row's exact feature
        contributions to the raw score and the expected value (path-dependent TreeSHAP,
        :mod:`robust_boosting._contributions`)."""
        from ._contributions import contributions  # it imports the learners, which import us

        return contributions(self, X)

    def _raw(self, X) -> NDArray[np.float64]:
        raw = None
        for raw in self._staged_raw(X):  # noqa: B007 - the last stage is the model
            pass
        return raw

    @property
    def feature_importances_(self) -> NDArray[np.float64]:
        """Coefficient-weighted mean of the weak learners' ``feature_importances_``."""
        check_is_fitted(self)
        parts = []
        for ens in self.ensembles_:
            if not ens.estimators:
                continue
            try:
                imp = [est.feature_importances_ for est in ens.estimators]
            except AttributeError as exc:
                raise AttributeError(
                    "Unable to compute feature importances: the weak learner has no "
                    "feature_importances_ attribute."
                ) from exc
            coefs = np.abs(np.asarray(ens.coefs))
            if coefs.sum() > 0:
                parts.append(coefs @ np.asarray(imp) / coefs.sum())
        if not parts:
            return np.zeros(self.n_features_in_)
        return np.mean(parts, axis=0)


def _contrib_requested(pred_contrib) -> bool:
    """``pred_contrib``, checked to be a bool."""
    if not isinstance(pred_contrib, bool | np.bool_):
        raise TypeError(f"pred_contrib must be True or False, got {pred_contrib!r}.")
    return bool(pred_contrib)


class EnsemblePrediction(EnsembleModel):
    """A boosting classifier's prediction from its ensembles (``classes_`` besides what
    :class:`EnsembleModel` reads): labels, scores, class probabilities, round by round."""

    def _decision_from_raw(self, raw):
        if raw.ndim == 2 and not self._ovr:
            return raw - raw.mean(axis=1, keepdims=True)
        return raw

    def _proba_from_raw(self, raw):
        """Class probabilities from scores.

        Binary and native multiclass: the fitted step's link
        (:meth:`Step.class_proba`; binary ``P(y = +1 | x) = 1 / (1 + exp(-2 F(x)))``,
        SAMME ``softmax(2 S / (K - 1))``, multiclass LogitBoost ``softmax(F)``).
        One-vs-rest: the per-class binary probabilities, normalised.
        """
        if not self._ovr:
            return self.step_.class_proba(raw)
        p = expit(2.0 * raw)
        total = p.sum(axis=1, keepdims=True)
        return np.where(total > 0, p / np.where(total > 0, total, 1.0), 1.0 / raw.shape[1])

    def _label_from_raw(self, raw):
        if raw.ndim == 1:
            return self.classes_[(raw > 0).astype(np.intp)]
        return self.classes_[np.argmax(raw, axis=1)]

    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """Ensemble score.

        Binary problems: ``F(x) = sum_t alpha_t f_t(x)`` (positive means
        ``classes_[1]``), on the margin scale the losses and ``age`` use.
        Multiclass: shape ``(n_samples, n_classes)``, the class scores
        (centred for SAMME).
        """
        return self._decision_from_raw(self._raw(self._check_X(X)))

    def predict(self, X: ArrayLike, *, pred_contrib: bool = False) -> NDArray:
        """Predicted class labels, or each row's feature contributions.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        pred_contrib : bool, default=False
            Return each feature's exact contribution to :meth:`decision_function`
            instead (path-dependent TreeSHAP, Lundberg et al. 2020, Algorithm 2; as
            LightGBM's ``predict(X, pred_contrib=True)``): shape ``(n_samples,
            n_features + 1)``, or ``(n_samples, n_classes, n_features + 1)`` with more
            than two classes, whose last column is the expected value; each row (per
            class) sums to ``decision_function(X)``. Needs the library's histogram
            trees as weak learners (see :mod:`robust_boosting._contributions`).

        Returns
        -------
        ndarray
        """
        X = self._check_X(X)
        if _contrib_requested(pred_contrib):
            return self._contributions(X)
        return self._label_from_raw(self._raw(X))

    def predict_proba(self, X: ArrayLike) -> NDArray[np.float64]:
        """Class probabilities (see :meth:`_proba_from_raw` for the link)."""
        return self._proba_from_raw(self._raw(self._check_X(X)))

    def predict_log_proba(self, X: ArrayLike) -> NDArray[np.float64]:
        """Logarithm of :meth:`predict_proba`."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def staged_decision_function(self, X: ArrayLike) -> Iterator[NDArray[np.float64]]:
        """:meth:`decision_function` after each boosting round."""
        for raw in self._staged_raw(self._check_X(X)):
            yield self._decision_from_raw(raw)

    def staged_predict(self, X: ArrayLike) -> Iterator[NDArray]:
        """:meth:`predict` after each boosting round (rounds cost nothing extra)."""
        for raw in self._staged_raw(self._check_X(X)):
            yield self._label_from_raw(raw)

    def staged_predict_proba(self, X: ArrayLike) -> Iterator[NDArray[np.float64]]:
        """:meth:`predict_proba` after each boosting round."""
        for raw in self._staged_raw(self._check_X(X)):
            yield self._proba_from_raw(raw)

    def staged_score(self, X: ArrayLike, y: ArrayLike, sample_weight=None) -> Iterator[float]:
        """Accuracy after each boosting round."""
        for pred in self.staged_predict(X):
            yield accuracy_score(y, pred, sample_weight=sample_weight)
