"""Input and parameter validation shared by every estimator of the package.

* :func:`validated_X`: the one entry point that turns a user's ``X`` (and ``y``)
  into the numeric array a model fits or predicts on, with scikit-learn's
  ``validate_data`` bookkeeping (``n_features_in_``, ``feature_names_in_``);
  :func:`frames_encoded_once`: within it, the fits of one batch encode a DataFrame (and
  check an array) once;
* :func:`check_number`, :func:`check_optional_int`, :func:`check_choice`:
  parameter checks raising a TypeError (wrong type) or a ValueError (wrong
  value) that names the parameter;
* :func:`check_monotonic_cst`, :func:`check_monotonic_classes`: scikit-learn's
  ``monotonic_cst`` as one -1/0/+1 entry per feature;
* :func:`class_weight_sample_weight`: ``class_weight`` composed with ``sample_weight``;
* :data:`MONOTONIC_CST_DOC`, :data:`CLASS_WEIGHT_DOC`, :data:`ID_COLUMNS_DOC`: those
  parameters' docstring entries, which every estimator taking them concatenates into its
  own.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import numpy as np
from sklearn.base import is_regressor
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.validation import validate_data

from ._loop_kernels import finite_range
from ._schema import (
    ID_COLUMN_POLICIES,
    UNKNOWN_CATEGORY_POLICIES,
    FeatureSchema,
    _rows,
    is_frame,
    missing_values_error,
)

__all__ = ["CLASS_WEIGHT_DOC", "ID_COLUMNS_DOC", "MONOTONIC_CST_DOC", "check_choice",
           "check_monotonic_classes", "check_monotonic_cst", "check_number",
           "check_optional_int", "class_weight_sample_weight", "id_column_policy",
           "unknown_category_policy", "validated_X"]


#: ``monotonic_cst`` as every estimator with histogram trees documents it (word for word)
MONOTONIC_CST_DOC = """    monotonic_cst : array-like of int of shape (n_features,), dict or None, default=None
        Monotone constraints, scikit-learn's ``monotonic_cst``: per feature, 1 (the
        prediction never decreases as the feature grows), -1 (it never increases) or 0
        (no constraint); or a dict from feature names (``str``) or column indices
        (``int``) to -1, 0 or 1, the features it leaves out unconstrained. The
        histogram trees enforce it as LightGBM's "basic" method does: a split of a
        constrained feature is taken only if its children's values are in that order,
        and each node's value stays within bounds inherited from its ancestors (at a
        constrained split, the midpoint of the children's values), so every tree is
        monotone in the feature, and so is a booster's score (each round adds a
        positive multiple of a monotone function of its tree's leaf values). For
        regression and two classes; a constrained categorical feature, more than two
        classes, symmetric trees and a weak learner other than the histogram trees
        raise a ValueError.
"""

#: ``class_weight`` as every classifier documents it (word for word)
CLASS_WEIGHT_DOC = """    class_weight : dict, "balanced" or None, default=None
        Weights of the classes, as scikit-learn's classifiers take them: a dict
        ``{label: weight}`` (classes it leaves out weigh 1), or ``"balanced"``: class
        ``c`` weighs ``n_samples / (n_classes * count(c))``. Each row's weight is its
        ``sample_weight`` times its class's weight, wherever the fit reads weights
        (the cross-validated search's fits and held-out scores too). None: every class
        weighs 1.
"""

#: ``id_columns`` as every estimator taking a DataFrame documents it (word for word)
ID_COLUMNS_DOC = """    id_columns : {"drop", "keep"}, default="drop"
        What fit does with an identifier column of a DataFrame: a text or categorical
        column of nearly all distinct values (at least 20 distinct values, more than
        90 % of its non-missing cells: an identifier, a timestamp as text), a numeric
        column of at least 50 rows holding each of ``0 .. n - 1`` or ``1 .. n`` once (a
        row index), or a first column named ``""``, ``"Unnamed: 0"`` or ``"rownames"``
        (row labels written by pandas or R). ``"drop"`` leaves it out of the model with
        an :class:`~robust_boosting.IdentifierColumnWarning` naming it (predict takes
        the column and ignores it); ``"keep"`` keeps it as a feature.
"""


class CachedParamNames:
    """scikit-learn's ``_get_param_names`` read once per class.

    :meth:`sklearn.base.BaseEstimator.get_params` reads the signature of ``__init__``
    with :mod:`inspect` on every call; a search clones and inspects its weak learners
    and boosters thousands of times (2-4 % of a regression fit on small tables). A
    class's ``__init__`` does not change, so its parameter names are kept per class."""

    @classmethod
    def _get_param_names(cls) -> list[str]:
        names = _PARAM_NAMES.get(cls)
        if names is None:
            names = _PARAM_NAMES[cls] = tuple(super()._get_param_names())
        return list(names)


_PARAM_NAMES: dict[type, tuple[str, ...]] = {}


def id_column_policy(estimator) -> str:
    """The estimator's ``id_columns`` parameter, checked: what fit does with a column of
    nearly all distinct values (``"drop"``: leave it out, with a warning; ``"keep"``)."""
    policy = getattr(estimator, "id_columns", "drop")
    check_choice("id_columns", policy, ID_COLUMN_POLICIES)
    return policy


def unknown_category_policy(estimator) -> str:
    """The estimator's ``unknown_categories`` parameter, checked.

    What predict does with a category no training row had: ``"missing"`` encodes it as
    a missing value, ``"error"`` raises a ValueError naming the column, the values and
    the rows. A model saved by release 0.1.0 has no such parameter; its policy was an
    attribute of its fitted schema, which is read instead.
    """
    if "unknown_categories" in vars(estimator):
        policy = estimator.unknown_categories
    else:
        schema = vars(estimator).get("feature_schema_")
        policy = vars(schema).get("_unknown_categories", "missing") if schema else "missing"
    check_choice("unknown_categories", policy, UNKNOWN_CATEGORY_POLICIES)
    return policy


#: the DataFrames encoded at fit inside :func:`frames_encoded_once`, by the frame's id and
#: the options of the encoding: ``(frame, schema, encoded array)``
_ENCODED: ContextVar[dict | None] = ContextVar("robust_boosting_encoded_frames", default=None)


@contextmanager
def frames_encoded_once() -> Iterator[None]:
    """Within this block, fitting on the same DataFrame object builds its schema and
    encodes it once for each set of encoding options (identifier-column and
    unknown-category policies, missing and infinite values allowed), not once per model:
    :func:`~robust_boosting._batched.fit_batched` fits a search's models on one frame, and
    its categorical columns cost a fifth of a regression search to encode 24 times. The
    models are unchanged: each gets the same schema and array its own encoding gives.
    Likewise, the estimators of one class fitted on the same ``X`` and ``y`` objects check
    them once (:func:`_validate`). The frame (or array) must not change inside the block.
    A block inside another shares the outer block's frames (a search's passes)."""
    memo = _ENCODED.get()
    token = _ENCODED.set({} if memo is None else memo)
    try:
        yield
    finally:
        _ENCODED.reset(token)


def _encoded(estimator, schema, X, check_columns: bool, policy: str, allow_nan: bool,
             allow_inf: bool):
    """The frame ``X`` encoded by ``schema`` (its columns checked against it when
    ``check_columns``), its missing and infinite values refused unless allowed."""
    X_num = schema.encode(X, check_columns=check_columns, allow_missing=allow_nan,
                          unknown_categories=policy)
    _check_finite(estimator, X_num, allow_nan, allow_inf, schema.names, X.index)
    return X_num


def _fit_schema_and_array(estimator, X, policy: str, allow_nan: bool, allow_inf: bool):
    """``X``'s schema at fit and, for a frame with non-numeric columns, its encoded and
    checked array (else None); once per frame and options inside :func:`frames_encoded_once`."""
    memo = _ENCODED.get()
    ids = id_column_policy(estimator)
    key = (id(X), ids, policy, allow_nan, allow_inf)
    if memo is not None and key in memo and memo[key][0] is X:
        return memo[key][1], memo[key][2]
    schema = FeatureSchema.from_frame(X, ids)
    X_num = None if schema.all_numeric else _encoded(
        estimator, schema, X, False, policy, allow_nan, allow_inf)
    if memo is not None:
        memo[key] = (X, schema, X_num)  # the frame itself: its id stays its own
    return schema, X_num


def validated_X(estimator, X, y="no_validation", *, reset: bool, allow_nan: bool,
                allow_inf: bool | None = None, y_numeric: bool = False):
    """``X`` (and ``y``, unless left out) as the model's numeric array (float64 or float32).

    ``reset=True`` at fit records ``n_features_in_``, ``feature_names_in_`` and the
    typed column schema ``feature_schema_`` (a :class:`~robust_boosting._schema.FeatureSchema`:
    each column's kind, dtype and categories); ``reset=False`` at predict checks ``X``
    against them. A DataFrame with boolean, text or categorical columns is encoded by
    the schema (categories as codes, see :mod:`robust_boosting._schema`); an array, or a
    frame of numeric columns, goes through scikit-learn's ``validate_data`` unchanged.

    ``allow_nan``: NaN means "missing" (the histogram trees, and the boosters whose weak
    learner handles NaN); otherwise a NaN is a one-line error naming the column and the
    rows. ``allow_inf`` (default: ``allow_nan``): the same for infinite values.
    Non-numeric input raises an error that says so.
    """
    if allow_inf is None:
        allow_inf = allow_nan
    if not (isinstance(y, str) and y == "no_validation"):
        _check_lengths(X, y, "targets" if is_regressor(estimator) else "labels")
        _check_y_missing(y, "target" if is_regressor(estimator) else "label")
    policy = unknown_category_policy(estimator)
    frame = is_frame(X)
    X_num = None
    if reset and frame:
        schema, X_num = _fit_schema_and_array(estimator, X, policy, allow_nan, allow_inf)
    else:
        schema = None if reset else getattr(estimator, "feature_schema_", None)
    if schema is not None and not schema.all_numeric:
        if not frame:
            raise ValueError(
                f"{type(estimator).__name__} was fitted on a DataFrame with boolean or "
                f"categorical columns ({schema!r}); pass a DataFrame with those columns.")
        if not reset:  # at fit, _fit_schema_and_array has encoded X
            return _encoded(estimator, schema, X, True, policy, allow_nan, allow_inf)
        out = _validate(estimator, X_num, y, reset=True, y_numeric=y_numeric)
        estimator.feature_names_in_ = np.asarray(schema.names, dtype=object)
        estimator.feature_schema_ = schema
        return out
    if not reset and frame and schema is not None and getattr(estimator, "feature_names_in_", None) \
            is not None and list(X.columns) == schema.names:
        # a frame fitted with numeric columns: a column of another kind (text in a
        # numeric column, categories, booleans) is an error naming the column and rows
        for j, dtype in enumerate(X.dtypes):
            if not _is_plain_numeric(dtype):
                schema._encode_column(X.iloc[:, j], schema.names[j], j, X.index, allow_nan)
    out = _validate(estimator, X, y, reset=reset, y_numeric=y_numeric)
    X_out = out[0] if isinstance(out, tuple) else out
    names = list(X.columns) if frame else None
    _check_finite(estimator, X_out, allow_nan, allow_inf, names,
                  X.index if frame else np.arange(X_out.shape[0]))
    if reset:
        named = getattr(estimator, "feature_names_in_", None) is not None
        estimator.feature_schema_ = schema if (schema is not None and named) else (
            FeatureSchema.numeric(X_out.shape[1], dtype=str(X_out.dtype)))
    return out


def _length(a) -> int | None:
    """The number of rows of an array-like, or None for what has none (a scalar, None)."""
    shape = getattr(a, "shape", None)
    if shape is not None:
        return int(shape[0]) if len(shape) else None
    try:
        return len(a)
    except TypeError:
        return None


def _check_lengths(X, y, what: str = "labels") -> None:
    """A ValueError saying so when ``X`` and ``y`` have different numbers of rows (scikit-learn's
    own message, "inconsistent numbers of samples", reads as a problem of X's values);
    ``what`` names ``y``'s values ("labels", "targets")."""
    n_X, n_y = _length(X), _length(y)
    if n_X is not None and n_y is not None and n_X != n_y:
        raise ValueError(f"X has {n_X} rows but y has {n_y} {what}; they must have the same "
                         f"length (one {what[:-1]} per row of X).")


def _check_y_missing(y, what: str = "label") -> None:
    """``Input y contains NaN``: a ValueError naming the rows of ``y`` whose ``what`` is
    missing (NaN, None or ``pandas.NA``), of any dtype. Without it, text labels with a
    missing value fail in scikit-learn with a message that does not name ``y`` (or a
    TypeError from sorting ``None`` against text)."""
    import pandas as pd

    try:
        missing = np.asarray(pd.isna(y), dtype=bool)
    except (TypeError, ValueError):  # not array-like: scikit-learn's checks say what it is
        return
    if missing.ndim == 0 or not missing.any():
        return
    rows = missing.reshape(len(missing), -1).any(axis=1)
    index = getattr(y, "index", None)
    where = _rows(np.arange(len(rows)) if index is None else index, rows)
    many = int(rows.sum()) > 1
    raise ValueError(f"Input y contains NaN: the {what}{'s' * many} of {where} "
                     f"{'are' if many else 'is'} missing (NaN, None or NA); drop those rows "
                     f"of X and y, or give them a {what}.")


def _is_plain_numeric(dtype) -> bool:
    return dtype.kind in "iuf"


def _validate(estimator, X, y, *, reset, y_numeric):
    """scikit-learn's ``validate_data`` of ``X`` (and ``y``): numbers, float64 or float32.

    At fit inside :func:`frames_encoded_once`, the estimators of one class fitted on the
    same ``X`` and ``y`` objects share the first one's checked arrays, and each gets the
    ``n_features_in_`` and ``feature_names_in_`` its own call records (the arrays are
    read, never modified, by the fits)."""
    memo = _ENCODED.get() if reset else None
    key = None
    if memo is not None:
        key = ("validated", type(estimator), id(X), id(y), y_numeric)
        hit = memo.get(key)
        if hit is not None and hit[0] is X and hit[1] is y:
            out, n_features, names = hit[2:]
            estimator.n_features_in_ = n_features
            if names is not None:
                estimator.feature_names_in_ = names.copy()
            elif "feature_names_in_" in vars(estimator):
                del estimator.feature_names_in_
            return out
    kwargs: dict[str, Any] = dict(reset=reset, dtype=[np.float64, np.float32],
                                  ensure_all_finite=False)
    try:
        if isinstance(y, str) and y == "no_validation":  # scikit-learn's "X only"
            out = validate_data(estimator, X, **kwargs)
        else:
            out = validate_data(estimator, X, y, y_numeric=y_numeric, **kwargs)
    except (TypeError, ValueError) as exc:
        if "convert" in str(exc) or "number" in str(exc):
            raise type(exc)(f"X must contain only numbers: {exc}") from None
        raise
    if key is not None:
        names = getattr(estimator, "feature_names_in_", None)
        memo[key] = (X, y, out, estimator.n_features_in_, None if names is None else names.copy())
    return out


def _check_finite(estimator, X, allow_nan, allow_inf, names, index) -> None:
    """One-line ValueError naming the column and rows of a NaN or infinite value not allowed."""
    if (allow_nan and allow_inf) or X.dtype.kind != "f" or X.size == 0:
        return
    with np.errstate(over="ignore", invalid="ignore"):
        if np.isfinite(X.sum()):
            return
    checks = ([] if allow_nan else [(np.isnan, "missing values (NaN)")]) + (
        [] if allow_inf else [(np.isinf, "infinite values")])
    for test, what in checks:
        bad = test(X)
        cols = np.flatnonzero(bad.any(axis=0))
        if cols.size:
            j = int(cols[0])
            column = repr(names[j]) if names is not None else str(j)
            raise missing_values_error(estimator, column, index, bad[:, j], what)


def check_number(name, value, *, low=None, high=None, low_open=True, integer=False, allow_inf=False):
    """Raise a clear error unless ``value`` is a real number within the bounds."""
    kind = numbers.Integral if integer else numbers.Real
    if isinstance(value, bool) or not isinstance(value, kind):
        what = "an integer" if integer else "a real number"
        raise TypeError(f"{name} must be {what}, got {value!r} of type {type(value).__name__}.")
    if np.isnan(value) or (np.isinf(value) and not allow_inf):
        raise ValueError(f"{name} must be finite, got {value!r}.")
    if low is not None and (value <= low if low_open else value < low):
        raise ValueError(f"{name} must be {'>' if low_open else '>='} {low}, got {value!r}.")
    if high is not None and value > high:
        raise ValueError(f"{name} must be <= {high}, got {value!r}.")


def check_optional_int(name: str, value, low: int) -> None:
    """Raise a clear error unless ``value`` is None or an integer ``>= low``."""
    if value is not None:
        check_number(name, value, low=low, low_open=False, integer=True)


def candidate_values(name: str, value, check) -> tuple:
    """A searched parameter's candidates: ``value`` as a tuple (a list, tuple or array is
    taken as the candidates, anything else as the one candidate), each passed to
    ``check``; an empty sequence is a ValueError naming ``name``."""
    values = tuple(value) if isinstance(value, (list, tuple, np.ndarray)) else (value,)
    if not values:
        raise ValueError(f"{name} must not be empty.")
    for v in values:
        check(v)
    return values


def check_choice(name: str, value, choices: Iterable) -> None:
    """Raise a ValueError unless ``value`` is one of ``choices``."""
    choices = list(choices)
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}.")


#: sample weights whose largest entry lies outside this range are divided by it
WEIGHT_SCALE_RANGE = (1e-150, 1e150)


def all_finite(a: np.ndarray) -> bool:
    """Whether every entry of the float array ``a`` is finite.

    A finite sum proves it (NaN and infinities propagate through a sum) without the
    boolean array of ``np.isfinite``; only a sum that overflowed is checked entry by
    entry. A contiguous float64 vector is checked in one compiled pass instead.
    """
    if a.dtype == np.float64 and a.ndim == 1 and a.flags.c_contiguous:
        return finite_range(a)[2]  # one compiled pass
    with np.errstate(over="ignore", invalid="ignore"):
        total = np.add.reduce(a, axis=None)
    return bool(np.isfinite(total) or np.isfinite(a).all())


def rescaled_weights(sw: np.ndarray, top: float | None = None) -> np.ndarray:
    """``sw`` divided by its largest entry when that entry lies outside :data:`WEIGHT_SCALE_RANGE`.

    Finite non-negative weights whose sum (or whose products in the split gains) would
    overflow or underflow: only their ratios matter, so they are divided by the largest
    first. Other weights are returned unchanged (the same array). ``top``: the largest
    entry, when the caller knows it.
    """
    if top is None:
        top = sw.max() if sw.size else 0.0
    low, high = WEIGHT_SCALE_RANGE
    if top > 0 and not low <= top <= high:
        return sw / top
    return sw


def _check_constraint_value(where: str, value) -> int:
    """One monotone constraint, -1, 0 or +1, as an int; a ValueError naming ``where`` otherwise."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) \
            or value not in (-1, 0, 1):
        raise ValueError(f"{where} must be -1, 0 or 1, got {value!r}.")
    return int(value)


def check_monotonic_cst(monotonic_cst, *, n_features: int,
                        feature_names: Sequence[str] | None = None,
                        categorical: np.ndarray | Sequence[bool] | None = None,
                        n_classes: int = 0) -> np.ndarray | None:
    """scikit-learn's ``monotonic_cst`` as one constraint per feature, or None for none.

    Parameters
    ----------
    monotonic_cst : None, array-like of {-1, 0, 1} or dict
        ``None``: no constraint. An array-like: one entry per feature, ``1`` for an
        increasing constraint, ``-1`` for a decreasing one, ``0`` for none. A dict maps
        feature names (``str``, among ``feature_names``) or column indices (``int``) to
        -1, 0 or 1; features it leaves out are unconstrained.
    n_features : int
        The number of features the model is fitted on.
    feature_names : sequence of str, optional
        The features' names (``feature_names_in_``), for a dict keyed by name.
    categorical : boolean mask of length ``n_features``, optional
        Which features are categorical; a categorical feature cannot be constrained.
    n_classes : int, default=0
        The classifier's number of classes (0: a regressor); a constraint on more than
        two classes is refused (:func:`check_monotonic_classes`).

    Returns
    -------
    ndarray of int8 of shape (n_features,) or None
        The constraints; None when no feature is constrained (``None``, all zeros or an
        empty dict), so that an unconstrained fit takes the unconstrained path.

    Raises
    ------
    ValueError
        An unknown feature name or index, an array of the wrong length, a value other
        than -1, 0 or 1, a constrained categorical feature, or a constraint on more
        than two classes.
    """
    if monotonic_cst is None:
        return None
    cst = np.zeros(n_features, dtype=np.int8)
    if isinstance(monotonic_cst, Mapping):
        names = None if feature_names is None else [str(n) for n in feature_names]
        for key, value in monotonic_cst.items():
            if isinstance(key, str):
                if names is None:
                    raise ValueError(
                        f"monotonic_cst names the feature {key!r} but X has no feature names; "
                        "key the dict by column index or pass a DataFrame.")
                if key not in names:
                    raise ValueError(f"monotonic_cst names an unknown feature {key!r}; the "
                                     f"features are {names}.")
                j = names.index(key)
            elif isinstance(key, numbers.Integral) and not isinstance(key, (bool, np.bool_)):
                if not 0 <= key < n_features:
                    raise ValueError(f"monotonic_cst has the feature index {key!r}, but X has "
                                     f"{n_features} features (indices 0 to {n_features - 1}).")
                j = int(key)
            else:
                raise ValueError(f"monotonic_cst's keys must be feature names (str) or column "
                                 f"indices (int), got {key!r}.")
            cst[j] = _check_constraint_value(f"monotonic_cst[{key!r}]", value)
    else:
        if isinstance(monotonic_cst, str):
            raise ValueError(f"monotonic_cst must be None, an array-like of -1, 0 or 1, or a "
                             f"dict, got {monotonic_cst!r}.")
        values = np.asarray(monotonic_cst, dtype=object)
        if values.ndim != 1 or values.shape[0] != n_features:
            raise ValueError(f"monotonic_cst has shape {values.shape} but X has {n_features} "
                             f"features; it needs one entry (-1, 0 or 1) per feature.")
        for j, value in enumerate(values):
            cst[j] = _check_constraint_value(f"monotonic_cst[{j}]", value)
    if categorical is not None:
        bad = np.flatnonzero(np.asarray(categorical, dtype=bool) & (cst != 0))
        if bad.size:
            j = int(bad[0])
            name = repr(str(feature_names[j])) if feature_names is not None else str(j)
            raise ValueError(f"monotonic_cst constrains the feature {name}, which is "
                             "categorical: a categorical feature cannot be constrained.")
    if not cst.any():
        return None
    check_monotonic_classes(cst, n_classes)
    return cst


def _constrains(monotonic_cst) -> bool:
    """Whether ``monotonic_cst`` (checked or not) constrains any feature."""
    if monotonic_cst is None:
        return False
    if isinstance(monotonic_cst, Mapping):
        return any(v != 0 for v in monotonic_cst.values())
    return bool(np.any(np.asarray(monotonic_cst, dtype=object) != 0))


def check_monotonic_classes(monotonic_cst, n_classes: int) -> None:
    """A ValueError when ``monotonic_cst`` constrains a model of more than two classes.

    A monotone constraint on a multiclass model has no one meaning (one score per
    class); scikit-learn's ``HistGradientBoostingClassifier`` refuses it too.
    """
    if n_classes > 2 and _constrains(monotonic_cst):
        raise ValueError(f"monotonic_cst is only supported for regression and binary "
                         f"classification; y has {n_classes} classes.")


def class_weight_sample_weight(class_weight, y, sample_weight):
    """``sample_weight`` times each row's class weight, as scikit-learn's classifiers take it.

    Parameters
    ----------
    class_weight : None, "balanced" or dict
        ``None``: ``sample_weight`` is returned unchanged (the same object).
        ``"balanced"``: class ``c`` weighs ``n_samples / (n_classes * count(c))``
        (scikit-learn's ``compute_sample_weight``, from the counts of ``y``).
        A dict: ``{label: weight}``, finite non-negative weights; classes it leaves out
        weigh 1.
    y : array-like of shape (n_samples,)
        The labels, as given to fit.
    sample_weight : array-like of shape (n_samples,) or None
        The rows' weights; None for ones.

    Returns
    -------
    ndarray of float64 of shape (n_samples,), or ``sample_weight`` when ``class_weight``
    is None
        The product ``sample_weight * class_weight[y]``.
    """
    if class_weight is None:
        return sample_weight
    if isinstance(class_weight, str):
        check_choice("class_weight", class_weight, ["balanced"])
    elif isinstance(class_weight, Mapping):
        classes = set(np.unique(np.asarray(y)).tolist())
        unknown = [k for k in class_weight if k not in classes]
        if unknown:
            raise ValueError(f"class_weight names {unknown!r}, which are not classes of y "
                             f"({sorted(classes, key=str)}).")
        for key, value in class_weight.items():
            check_number(f"class_weight[{key!r}]", value, low=0, low_open=False)
    else:
        raise ValueError(f"class_weight must be None, 'balanced' or a dict {{label: weight}}, "
                         f"got {class_weight!r}.")
    weights = compute_sample_weight(class_weight, np.asarray(y)).astype(np.float64)
    if sample_weight is None:
        return weights
    return np.asarray(sample_weight, dtype=np.float64) * weights
