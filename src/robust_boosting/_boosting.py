"""The one boosting loop that every estimator of the library uses.

An estimator is a composition of

* a **step** (:class:`Step`): given normalised sample weights, fit one weak
  learner and choose its coefficient (discrete AdaBoost/SAMME, real, Newton /
  gentle, RobustBoost's time step, ...), and say how its output moves the
  training scores;
* a **weighting policy** (:class:`WeightPolicy`): multiply the step's own sample
  weights by extra factors (self-paced weights ``v``, ...) and, optionally, ask
  for the round to be refit (SPLBoost's inner iterations).

:class:`BaseBoosting` owns everything else, once: input validation,
``sample_weight``, random states of the weak learners, the numerically safe
weights (log space), stopping rules and reasons, ``feature_importances_``. What
depends on the kind of target is in the two bases on top of it (as scikit-learn's
``BaseWeightBoosting`` serves AdaBoost's classifier and regressor):
:class:`BaseBoostingClassifier` (label encoding, the shared one-vs-rest path for
steps with no native multiclass form, ``predict_proba`` and the ``staged_*``
family) and :class:`BaseBoostingRegressor` (a real-valued target, one score per
row starting at the step's best constant, ``predict`` and ``staged_predict``).

The loop is a generator (:meth:`BaseBoosting._fit_requests`) that
hands each weak-learner fit to its caller as a :class:`FitRequest`: ``fit``
answers them one at a time (:func:`answer_requests`), and
:func:`robust_boosting._batched.fit_batched` answers the requests of k models
together, so batched training runs this same loop.

The module is the loop; its parts live beside it, split by job:
:mod:`.interfaces` (:class:`Step`, :class:`WeightPolicy`, :class:`BoostingState`,
:class:`RoundResult`, :class:`FitRequest`), :mod:`._ensemble` (:class:`Ensemble`,
what a model file keeps, and prediction: :class:`EnsemblePrediction`) and
:mod:`._learners` (the default weak learner and the rounds' seeded copies). Every
name that moved is importable from here as before.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Iterator

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, clone, is_classifier
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, has_fit_parameter

from . import _loop_kernels as _lk
from ._ensemble import Ensemble, EnsembleModel, EnsemblePrediction, _contrib_requested
from ._learners import (  # noqa: F401 - importable from here as before
    _IMMUTABLE,
    _learner_threads,
    _plain_copy,
    _random_state_keys,
    _seeded_copy,
    _set_nested,
    default_weak_learner,
    round_seeds,
    unfitted_copy,
)
from ._schema import prepared_data
from ._validation import (
    CachedParamNames,
    check_monotonic_cst,
    check_optional_int,
    class_weight_sample_weight,
    rescaled_weights,
    validated_X,
)
from ._validation import check_number as _check_number
from .exceptions import BoostingStoppedWarning
from .interfaces import (  # noqa: F401 - the loop's interfaces, importable from here as before
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
from .trees.binning import _kernel_threads, data_work

__all__ = [
    "BaseBoosting",
    "BaseBoostingClassifier",
    "BaseBoostingRegressor",
    "BoostingStoppedWarning",
    "BoostingState",
    "FitRequest",
    "STOP_BOOSTING",
    "RoundResult",
    "answer_requests",
    "Step",
    "WeightPolicy",
    "Ensemble",
]


def _round_weights(step: Step, state: BoostingState, factors) -> NDArray[np.float64] | None:
    """The normalised weights of a round: ``sample_weight * factors *`` the step's own."""
    own = step.bounded_weights(state)
    if own is None:
        return _normalised_weights(step.log_weights(state), state.sample_weight, factors)
    if np.isnan(own).any():  # as a NaN log-weight: no usable weights
        return None
    base = state.sample_weight * own
    if factors is not None:
        base *= factors
    return _normalised_weights(None, base, None)


def _normalised_weights(log_w, sample_weight, factors) -> NDArray[np.float64] | None:
    """``sample_weight * factors * exp(log_w)``, normalised, computed without overflow.

    ``log_w`` None stands for zeros (the step has no weights of its own). Returns
    ``None`` when every weight is zero (or a log-weight is NaN).
    """
    base = sample_weight if factors is None else sample_weight * factors
    base = np.ascontiguousarray(base, dtype=np.float64)
    if log_w is not None:
        log_w = np.ascontiguousarray(log_w, dtype=np.float64)
    w = np.empty_like(base)
    total = _lk.normalise_log_weights(log_w, base, w)
    if not (total > 0 and np.isfinite(total)):
        return None
    if total < _TINY_TOTAL:
        # the sample of largest log-weight has a tiny base weight: fold the base weights
        # into the log-weights so the largest product is exactly 1 before normalising
        with np.errstate(divide="ignore"):
            log_w = np.log(base) if log_w is None else log_w + np.log(base)
        support = (base > 0).astype(np.float64)
        total = _lk.normalise_log_weights(log_w, support, w)
        if not (total > 0 and np.isfinite(total)):
            return None
    return w


def checked_monotonic_cst(estimator, X, n_classes: int) -> np.ndarray | None:
    """``estimator.monotonic_cst`` checked for its validated training data ``X`` (its
    ``feature_names_in_`` and ``feature_schema_``'s categorical columns) and ``n_classes``
    classes (0: a regressor): an int8 array per feature, or None when it constrains none."""
    cst = getattr(estimator, "monotonic_cst", None)
    if cst is None:
        return None
    kinds = estimator.feature_schema_.kinds
    return check_monotonic_cst(
        cst, n_features=X.shape[1], feature_names=getattr(estimator, "feature_names_in_", None),
        categorical=np.array([kind == "categorical" for kind in kinds], dtype=bool)
        if len(kinds) == X.shape[1] else None, n_classes=n_classes)


def check_two_classes(classes) -> None:
    """A ``ValueError`` unless ``classes`` (the distinct labels) has at least two."""
    if len(classes) < 2:
        raise ValueError(
            f"y contains only one class ({classes[0]!r}); a classifier needs at least 2 classes."
        )


def validated_training_data(estimator, X, y, sample_weight, *, allow_nan: bool = False):
    """``(X, classes, y_idx, sample_weight)`` of a classifier's ``fit``, checked.

    ``X`` through :func:`~robust_boosting._validation.validated_X` (recording
    ``n_features_in_``, ``feature_names_in_`` and ``feature_schema_`` on
    ``estimator``; NaN accepted as missing if ``allow_nan``, infinity never), at
    least two classes, and non-negative sample weights with a positive sum,
    normalised to sum 1.
    """
    X, y = validated_X(estimator, X, y, reset=True, allow_nan=allow_nan, allow_inf=False)
    check_classification_targets(y)
    classes, y_idx = np.unique(y, return_inverse=True)
    check_two_classes(classes)
    return X, classes, y_idx.astype(np.intp), checked_sample_weight(sample_weight, X)


def numeric_targets(y) -> NDArray[np.float64]:
    """A regressor's targets ``y`` (one column, checked by ``validated_X``) as finite float64
    numbers; a ``ValueError`` naming the first rows that are not."""
    try:
        out = np.ascontiguousarray(y, dtype=np.float64)
    except (TypeError, ValueError):
        values = np.asarray(y, dtype=object)
        bad = [i for i, v in enumerate(values) if not _is_number(v)]
        raise ValueError(
            f"y must hold numbers (the targets of a regressor); row {bad[0]} holds "
            f"{values[bad[0]]!r}" + (f" ({len(bad)} such rows)" if len(bad) > 1 else "") + "."
        ) from None
    bad = np.flatnonzero(~np.isfinite(out))
    if bad.size:
        raise ValueError(f"y has NaN or infinite values in rows {bad[:5].tolist()}"
                         + (f" and {bad.size - 5} more" if bad.size > 5 else "")
                         + "; a regressor needs a finite target in every row.")
    return out


def _is_number(value) -> bool:
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True


#: per weak-learner class: does its ``fit`` take ``sample_weight`` (``has_fit_parameter``)
_TAKES_SAMPLE_WEIGHT: dict[type, bool] = {}


def _fit_takes_sample_weight(estimator) -> bool:
    """scikit-learn's ``has_fit_parameter(estimator, "sample_weight")``, read once per class
    (the signature of the class's ``fit``; an instance's own ``fit`` is read each time)."""
    if "fit" in vars(estimator):
        return has_fit_parameter(estimator, "sample_weight")
    cls = type(estimator)
    if cls not in _TAKES_SAMPLE_WEIGHT:
        _TAKES_SAMPLE_WEIGHT[cls] = has_fit_parameter(estimator, "sample_weight")
    return _TAKES_SAMPLE_WEIGHT[cls]


def _plain_weights(sample_weight, n: int) -> bool:
    """Whether ``sample_weight`` is a float64 array of ``n`` finite, non-negative numbers, not
    all zero (what scikit-learn's ``_check_sample_weight`` accepts of such an array)."""
    if not (isinstance(sample_weight, np.ndarray) and sample_weight.dtype == np.float64
            and sample_weight.shape == (n,)):
        return False
    low, high, finite = _lk.finite_range(np.ascontiguousarray(sample_weight))
    return bool(finite) and low >= 0.0 and high > 0.0


def checked_sample_weight(sample_weight, X) -> NDArray[np.float64]:
    """``sample_weight`` of ``fit`` checked (non-negative, finite, a positive sum) and
    normalised to sum 1 (uniform if None)."""
    if _plain_weights(sample_weight, X.shape[0]):
        # float64 weights, finite and non-negative (a search's fold weights): the copy
        # scikit-learn's check returns; anything else is checked (and refused) by it
        sample_weight = np.array(sample_weight, dtype=np.float64, order="C")
    else:
        sample_weight = _check_sample_weight(
            sample_weight, X, dtype=np.float64, copy=True, ensure_non_negative=True
        )
    sample_weight = rescaled_weights(sample_weight)
    total = sample_weight.sum()
    if not total > 0:
        raise ValueError("sample_weight sums to zero: at least one sample needs a positive weight.")
    return sample_weight / total


#: below this unnormalised total, :func:`_normalised_weights` renormalises in log space
_TINY_TOTAL = 1e-200



class BaseBoosting(CachedParamNames, EnsembleModel, BaseEstimator):
    """The one boosting loop, for every estimator of the library (classifier or regressor).

    It owns input validation's order, ``sample_weight``, the seeded weak learners, the
    numerically safe weights, the inner passes a policy asks for, and stopping with a
    recorded ``stopping_reason_``. What depends on the kind of target is a hook of the
    two bases built on it, as scikit-learn's ``BaseWeightBoosting`` serves its AdaBoost
    classifier and regressor: :meth:`_validate_training_data` (the target's checks and
    encoding), :meth:`_runs` (the boosting runs of a fit: one, or one per class for
    one-vs-rest) and :meth:`_prior_score` (the score of an empty ensemble).
    :class:`BaseBoostingClassifier` and :class:`BaseBoostingRegressor` implement them.
    """

    #: ``unknown_categories`` of a model saved by release 0.1.0, which had no such
    #: parameter (its policy is read from its schema; this keeps ``get_params`` working)
    unknown_categories = "missing"
    #: ``id_columns`` of a model saved before it existed (no column was left out)
    id_columns = "keep"
    #: ``n_jobs`` of a model saved by a release without it (the default: chosen at fit)
    n_jobs = None
    #: ``monotonic_cst`` and ``class_weight`` of a model saved before they existed
    monotonic_cst = None
    class_weight = None

    # the parameters every booster has; estimators with more define their own __init__
    def __init__(self, estimator=None, *, n_estimators: int = 100, learning_rate: float = 1.0,
                 random_state=None, unknown_categories: str = "missing",
                 id_columns: str = "drop",
                 n_jobs: int | None = None, monotonic_cst: dict | list | None = None,
                 class_weight: dict | str | None = None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.random_state = random_state
        self.unknown_categories = unknown_categories
        self.id_columns = id_columns
        self.n_jobs = n_jobs
        self.monotonic_cst = monotonic_cst
        self.class_weight = class_weight

    def _make_step(self) -> Step:
        raise NotImplementedError

    def _make_policy(self) -> WeightPolicy:
        return WeightPolicy()

    def _default_estimator(self):
        """The weak learner used when ``estimator=None`` (see :func:`default_weak_learner`)."""
        return default_weak_learner(self._make_step())

    def _validate_params(self) -> None:
        """Check the parameters; subclasses extend it (and call ``super()``)."""
        _check_number("n_estimators", self.n_estimators, low=1, low_open=False, integer=True)
        _check_number("learning_rate", getattr(self, "learning_rate", 1.0), low=0)
        check_optional_int("n_jobs", self.n_jobs, -(2**31))
        if self.n_jobs == 0:
            raise ValueError("n_jobs must be a non-zero integer or None, got 0.")

    # ------------------------------------------------------------------ the target's hooks
    def _validate_training_data(self, X, y, sample_weight):
        """``(X, target, sample_weight)`` of ``fit``, checked; ``target`` is what
        :meth:`_runs` reads (the classifier's classes and class indices, the regressor's
        numbers)."""
        raise NotImplementedError

    def _runs(self, target):
        """The boosting runs of a fit, each ``(y, y_idx, n_classes)`` of its
        :class:`BoostingState`; sets the fitted attributes that depend on the target
        (``classes_``) and ``_ovr`` (several runs, one per class)."""
        raise NotImplementedError

    def _prior_score(self, y_idx, n_classes, sample_weight):
        """Score of an ensemble that kept no learner (and whose step has no starting score)."""
        return 0.0

    # ------------------------------------------------------------------ fit
    def _check_estimator(self, step: Step):
        estimator = self._default_estimator() if self.estimator is None else self.estimator
        if not hasattr(estimator, "fit") or not hasattr(estimator, "get_params"):
            raise TypeError(
                f"estimator must be a scikit-learn estimator, got {type(estimator).__name__}."
            )
        if not _fit_takes_sample_weight(estimator):
            raise TypeError(
                f"{type(estimator).__name__} does not accept sample_weight in fit; "
                f"{type(self).__name__} needs a weak learner that does."
            )
        if not hasattr(estimator, "predict"):
            raise TypeError(f"{type(estimator).__name__} has no predict method.")
        if step.needs_predict_proba and not hasattr(estimator, "predict_proba"):
            raise TypeError(
                f"{type(self).__name__} needs a weak learner with predict_proba (a class-"
                f"probability estimator); {type(estimator).__name__} has none."
            )
        if not step.needs_classifier and is_classifier(estimator):
            raise TypeError(
                f"{type(self).__name__} needs a regression weak learner (it fits a real-valued "
                f"working response); got the classifier {type(estimator).__name__}."
            )
        return estimator

    def _constrained_learner(self, estimator, X):
        """``estimator``, or for a ``monotonic_cst`` that constrains a feature a copy of it
        (a histogram tree) with the checked constraints: every round's tree is then
        monotone, and so is the ensemble (each step adds a positive multiple of a
        monotone transform of its tree's leaf values)."""
        mono = checked_monotonic_cst(self, X, len(getattr(self, "classes_", ())))
        if mono is None:
            return estimator
        if "monotonic_cst" not in estimator.get_params(deep=False):
            raise ValueError(
                f"monotonic_cst needs the library's histogram tree as the weak learner "
                f"(HistTreeClassifier or HistTreeRegressor); got {type(estimator).__name__}.")
        return clone(estimator).set_params(monotonic_cst=mono)

    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None):
        """Fit the boosted ensemble.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data: an array of numbers, or a DataFrame with numeric, boolean
            and categorical columns (see :mod:`robust_boosting._schema`). NaN means
            missing when the weak learner handles it (the default histogram trees).
        y : array-like of shape (n_samples,)
            Class labels for a classifier, numbers for a regressor (possibly wrong:
            that is what these algorithms are for).
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights; uniform if omitted.

        Returns
        -------
        self
        """
        # the weak learners' kernels (and the loop's) run on n_jobs threads, chosen from
        # X's size when None (design record 0022); a learner's explicit n_jobs wins
        with _kernel_threads(self.n_jobs, data_work(X)):
            return answer_requests(self._fit_requests(X, y, sample_weight))

    def _fit_requests(self, X, y, sample_weight=None, binned_cache: dict | None = None,
                      predict_only: bool = False):
        """:meth:`fit` as a generator that yields each weak-learner fit as a :class:`FitRequest`.

        :meth:`fit` answers the requests one by one (:func:`answer_requests`);
        :func:`robust_boosting._batched.fit_batched` runs many of these
        generators and answers their requests together. ``binned_cache`` maps
        the weak learner's type and the parameters its ``prepare_data`` reads
        (its ``_prepare_data_params``; without it, all but ``random_state`` and
        ``n_jobs``) to its ``prepare_data(X)``, so that models fitted on the
        same ``X`` bin it once. ``predict_only``: the model will only predict (the
        policy's :attr:`~robust_boosting.interfaces.WeightPolicy.predict_only`). Returns
        ``self``, fitted.
        """
        self._validate_params()
        X, target, sample_weight = self._validate_training_data(X, y, sample_weight)
        # the composition is built once, here, from the parameters as they are now;
        # the loop and every prediction use only these fitted attributes, so a later
        # set_params cannot change what this fit predicts
        step = self._make_step()
        estimator = self._check_estimator(step)
        self.step_ = step
        self.policy_ = self._make_policy()
        self.policy_.predict_only = predict_only
        runs = self._runs(target)
        estimator = self._constrained_learner(estimator, X)
        self.estimator_ = estimator
        if binned_cache is None:
            X_fit = prepared_data(estimator, X, self.feature_schema_)
        else:
            # the parameters prepare_data reads (declared by the learner, else all but the
            # seed and the thread count)
            params = estimator.get_params(deep=False)
            names = getattr(estimator, "_prepare_data_params", None)
            if names is None:
                names = [name for name in params if name not in ("random_state", "n_jobs")]
            key = (type(estimator), repr(sorted((name, repr(params[name])) for name in names)))
            if key not in binned_cache:
                binned_cache[key] = prepared_data(estimator, X, self.feature_schema_)
            X_fit = binned_cache[key]
        rng = round_seeds(self.random_state)  # check_random_state's draws

        ensembles, policies = [], []
        for y_run, y_idx, n_classes in runs:
            ens, pol = yield from self._boost_rounds(X_fit, y_run, y_idx, n_classes,
                                                     sample_weight, estimator, rng)
            ensembles.append(ens)
            policies.append(pol)
        self.ensembles_ = ensembles
        self._publish(ensembles, policies)
        return self

    def _boost_rounds(self, X, y, y_idx, n_classes, sample_weight, estimator, rng):
        """The boosting loop: one (binary, native multiclass or regression) ensemble.

        A generator: each weak-learner fit of a step that splits its round into
        :meth:`Step.fit_target` and :meth:`Step.finish_round` is yielded as a
        :class:`FitRequest` for the caller to answer; returns ``(ensemble, policy)``.
        Runs on fresh copies of the fitted prototypes ``step_`` and ``policy_``
        (steps and policies keep per-run state), never on the parameters. The scores
        are one per row (``n_classes <= 2``: a binary problem or a regression) or one
        per row and class; they start at the step's :meth:`Step.init_score` (0 if None).
        """
        hands_out_fits = type(self.step_).fit_round is Step.fit_round
        stopped_by_caller = False
        step = copy.deepcopy(self.step_)
        policy = copy.deepcopy(self.policy_)
        n = y.shape[0]
        state = BoostingState(
            X=X,
            y=y,
            y_idx=y_idx,
            n_classes=n_classes,
            sample_weight=sample_weight,
            raw=np.zeros(n) if n_classes <= 2 else np.zeros((n, n_classes)),
            n_threads=_learner_threads(estimator),
        )
        ens = Ensemble()
        start = step.init_score(state)
        if start is not None:
            state.raw = state.raw + start
            ens.init_score = start
        state.step_state = step.init_state(state)
        policy.start(state, step)
        template = clone(step.learner_for(estimator, n_classes))
        seed_keys = _random_state_keys(template)
        for t in range(self.n_estimators):
            state.round = t
            learner = _seeded_copy(template, seed_keys, rng)
            result = None
            n_pass = 0
            while True:
                w = _round_weights(step, state, policy.factors(state))
                if w is None:
                    if result is None:
                        ens.stopping_reason = (
                            f"every sample has zero weight at round {t + 1} "
                            "(all samples dropped by the weighting policy)"
                        )
                    break
                fit_learner = learner if n_pass == 0 else clone(learner)
                w = step.learner_weights(state, w)
                if hands_out_fits:
                    target = step.fit_target(state)
                    reply = yield FitRequest(fit_learner, state.X, target, w, state.raw, t,
                                             n_pass == 0)
                    if reply is STOP_BOOSTING and n_pass == 0:
                        ens.stopping_reason = f"stopped by the caller after {t} rounds"
                        stopped_by_caller = True
                        break
                    result = step.finish_round(fit_learner, state, w, target)
                else:
                    result = step.fit_round(fit_learner, state, w)
                n_pass += 1
                if not result.keep:
                    break
                candidate = step.update_raw(state.raw, result)
                if not policy.refit(state, step, candidate, n_pass):
                    break
            if result is None:
                break
            if not result.keep:
                if result.separable and policy.admit_more(state, step):
                    continue  # no learner this round; the next sees more samples
                ens.stopping_reason = result.stop or f"weak learner rejected at round {t + 1}"
                break
            ens.estimators.append(result.estimator)
            ens.coefs.append(float(result.coef))
            ens.errors.append(float(result.error))
            ens.rounds.append(result.info)
            state.raw = candidate
            step.accept(state, result)
            policy.end_round(state, step)
            if result.stop and not (result.separable and policy.admit_more(state, step)):
                ens.stopping_reason = result.stop
                break
        step.finalize(ens)
        final_w = _round_weights(step, state, policy.factors(state))
        ens.info["sample_weights"] = np.zeros(n) if final_w is None else final_w
        if not ens.estimators and start is None:
            ens.init_score = self._prior_score(y_idx, n_classes, sample_weight)
        if ens.stopping_reason != MAX_ROUNDS_REASON and not stopped_by_caller:
            warnings.warn(
                f"{type(self).__name__} stopped after {len(ens.estimators)} of "
                f"{self.n_estimators} rounds: {ens.stopping_reason}.",
                BoostingStoppedWarning,
                stacklevel=5,  # the caller of fit (through the generators)
            )
        ens.info.update(policy.results())
        return ens, policy

    def _publish(self, ensembles, policies) -> None:
        def pick(values):
            return values[0] if not self._ovr else values

        self.estimators_ = pick([e.estimators for e in ensembles])
        self.estimator_weights_ = pick([np.asarray(e.coefs, dtype=np.float64) for e in ensembles])
        self.estimator_errors_ = pick([np.asarray(e.errors, dtype=np.float64) for e in ensembles])
        self.stopping_reason_ = pick([e.stopping_reason for e in ensembles])
        self.n_estimators_ = pick([len(e.estimators) for e in ensembles])
        keys = set().union(*(e.info for e in ensembles))
        for key in sorted(keys):
            setattr(self, key + "_", pick([e.info.get(key) for e in ensembles]))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = self._allows_nan(fitted=False)
        return tags


class BaseBoostingClassifier(ClassifierMixin, EnsemblePrediction, BaseBoosting):
    """Base class of every boosting classifier in the library: the shared loop
    (:class:`BaseBoosting`) with the classifier's parts.

    Those parts: label encoding (``classes_``, at least two classes), the binary or
    native multiclass run, the shared one-vs-rest path for steps with no native
    multiclass form, the class prior of an empty ensemble, and prediction
    (``predict``, ``predict_proba``, ``decision_function``, the ``staged_*`` family).

    Subclasses define ``__init__`` (storing their parameters unchanged) unless
    they have only the parameters of this class's,
    :meth:`_make_step` and, optionally, :meth:`_make_policy`,
    :meth:`_validate_params` and :meth:`_default_estimator`.

    Fitted attributes (binary problems and native multiclass steps)
    ----------------------------------------------------------------
    classes_ : ndarray of shape (n_classes,)
    estimators_ : list of fitted weak learners
    estimator_weights_ : ndarray, coefficient of each learner
    estimator_errors_ : ndarray, weighted training error of each learner (NaN if not defined)
    stopping_reason_ : str, why the loop ended (``"reached n_estimators"`` normally)
    n_estimators_ : int, number of learners kept
    feature_schema_ : FeatureSchema, each column's kind, dtype and categories (see
        :mod:`robust_boosting._schema`; categorical columns reach the weak learners as
        category codes, split natively by the histogram trees)

    For steps with no native multiclass form and more than two classes, one
    binary ensemble is fitted per class (one-vs-rest) and these attributes
    are lists with one entry per class.
    """

    def _validate_training_data(self, X, y, sample_weight):
        # class_weight: each row's sample_weight times its class's weight, before the
        # weights are checked and normalised (the same bits as those weights given)
        sample_weight = class_weight_sample_weight(self.class_weight, y, sample_weight)
        X, classes, y_idx, sample_weight = validated_training_data(
            self, X, y, sample_weight, allow_nan=self._allows_nan(fitted=False))
        return X, (classes, y_idx), sample_weight

    def _runs(self, target):
        classes, y_idx = target
        self.classes_ = classes
        n_classes = classes.shape[0]
        self._ovr = n_classes > 2 and not self.step_.native_multiclass
        if self._ovr:
            return self._ovr_runs(y_idx, n_classes)
        y = (2.0 * y_idx - 1.0) if n_classes == 2 else y_idx
        return [(y, y_idx, n_classes)]

    @staticmethod
    def _ovr_runs(y_idx, n_classes):
        """One binary run per class (computed as the loop reaches it)."""
        for k in range(n_classes):
            y_k = (y_idx == k).astype(np.intp)
            yield 2.0 * y_k - 1.0, y_k, 2

    @staticmethod
    def _prior_score(y_idx, n_classes, sample_weight):
        """Score of an empty ensemble: the weighted class prior (so it predicts the majority)."""
        prior = np.bincount(y_idx, weights=sample_weight, minlength=n_classes)
        prior = np.clip(prior / prior.sum(), 1e-12, 1.0)
        if n_classes == 2:
            return 0.5 * float(np.log(prior[1] / prior[0]))
        return np.log(prior)


class BaseBoostingRegressor(RegressorMixin, BaseBoosting):
    """Base class of the library's boosting regressors: the shared loop
    (:class:`BaseBoosting`) on a real-valued target.

    The target is checked as scikit-learn's regressors check it (numbers, finite, one
    column); the loop runs once, with one score per row that starts at the step's
    :meth:`~robust_boosting.interfaces.Step.init_score`; ``predict`` is that score
    plus the rounds' contributions, and ``staged_predict`` gives it round by round.
    Fitted attributes as for :class:`BaseBoostingClassifier`, without ``classes_``.
    """

    def _validate_training_data(self, X, y, sample_weight):
        X, y = validated_X(self, X, y, reset=True, allow_nan=self._allows_nan(fitted=False),
                           allow_inf=False)
        return X, numeric_targets(y), checked_sample_weight(sample_weight, X)

    def _runs(self, target):
        self._ovr = False
        return [(target, None, 1)]

    def _run_classes(self) -> int:
        return 1

    def predict(self, X: ArrayLike, *, pred_contrib: bool = False) -> NDArray[np.float64]:
        """Predicted targets: the starting score plus every round's contribution.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        pred_contrib : bool, default=False
            Return each feature's exact contribution to the prediction instead
            (path-dependent TreeSHAP, as LightGBM's ``predict(X, pred_contrib=True)``):
            shape ``(n_samples, n_features + 1)``, the last column the expected value;
            each row sums to ``predict(X)``.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_features + 1)
        """
        X = self._check_X(X)
        if _contrib_requested(pred_contrib):
            return self._contributions(X)
        return self._raw(X)

    def staged_predict(self, X: ArrayLike) -> Iterator[NDArray[np.float64]]:
        """:meth:`predict` after each boosting round (rounds cost nothing extra)."""
        yield from self._staged_raw(self._check_X(X))
