"""The typed column schema of an estimator fitted on a pandas DataFrame.

Every estimator of the package (the boosters and the histogram trees) accepts a
DataFrame whose columns are numeric, boolean or categorical, as scikit-learn's
``HistGradientBoostingClassifier(categorical_features="from_dtype")`` does. At fit,
:meth:`FeatureSchema.from_frame` reads each column's kind from its dtype:

* ``numeric``: an integer or float column, or an object/string column whose every
  non-missing cell parses as a number;
* ``bool``: a ``bool`` or ``boolean`` column (encoded 0/1);
* ``categorical``: a ``category`` column (its declared categories, in order), or an
  object/string column none of whose cells parses as a number (its distinct values,
  sorted).

An object/string column that mixes numbers and text is an error naming the column and
the rows of the text cells (e.g. ``"?"`` or ``"n/a"`` in a column of numbers): it is
never turned into a new feature, and nothing is replaced. Cast it to ``category`` to
make it categorical, or fix (or blank, for missing) the text cells.

The fitted estimator keeps the schema as ``feature_schema_`` (and the names as
``feature_names_in_``). At predict, :meth:`FeatureSchema.encode` checks the frame
against it: the same columns in the same order (a missing, extra or misplaced column is
an error naming it), each column of its fitted kind, numbers in numeric columns, and no
category of the wrong kind. **Unknown categories are missing values by default**, as
in scikit-learn's ``HistGradientBoostingClassifier`` and LightGBM: a category that no
training row had (one not declared at fit, or one the ``category`` dtype declared but
no training row used) is encoded as missing at predict, and the histogram trees send
it down the branch they learned for missing values. That is what makes
cross-validation and grid search work when a rare category falls into one fold only.
The policy is the estimator's ``unknown_categories`` parameter: set it to ``"error"``
(``Estimator(unknown_categories="error")``, ``model.set_params(unknown_categories="error")``
on a fitted model, or ``robust-boosting predict --unknown-categories error``) to make such
a category a ValueError naming the column, the values and the rows. A model whose weak learner does not handle missing values
raises that error whatever the policy. Every error is one line.

**Identifier columns are left out.** A column of a DataFrame is an identifier when

* it is a text or ``category`` column whose values are nearly all distinct (at least
  :data:`ID_MIN_DISTINCT` distinct values, more than :data:`ID_DISTINCT_SHARE` of its
  non-missing cells: an identifier, a timestamp as text): every split on it isolates
  single rows;
* it is a numeric column holding each of ``0 .. n - 1`` or each of ``1 .. n`` exactly
  once, in any order, ``n`` the number of rows, from :data:`ID_MIN_ROWS` rows (a row
  index or R's row numbers); or
* it is the first column and is named ``""``, ``"Unnamed: 0"`` or ``"rownames"``
  (:data:`ID_LEADING_NAMES`: the row labels that ``DataFrame.to_csv``, R's
  ``write.csv`` and Rdatasets write, as ``pandas.read_csv`` reads them back).

The last two rules need string column names: a frame whose column names are not all
strings is an array to scikit-learn (no ``feature_names_in_``), and so to them.

Under the estimator's ``id_columns="drop"`` (the default) fit gives it the kind
``ignored`` and an :class:`IdentifierColumnWarning` naming it and the rule; the column
stays in ``feature_names_in_`` and predict still takes it (any values), but the model
sees it as the constant 0. ``id_columns="keep"`` keeps it as the kind its dtype gives
(categorical, numeric, ...).

The model works on the encoded array: numeric and boolean columns as float64,
categorical columns as their category's code (``0 .. n_categories - 1``), missing
values as NaN. The histogram trees split categorical features natively (see
:mod:`robust_boosting.trees`); any other weak learner sees the codes as an ordinal
feature (the documented encoder). A frame whose columns are all numeric goes through
scikit-learn's ``validate_data`` unchanged (same array, same feature-name checks and
messages as any scikit-learn estimator).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

__all__ = ["FeatureSchema", "IdentifierColumnWarning", "is_frame", "missing_values_error",
           "prepared_data"]

NUMERIC = "numeric"
BOOL = "bool"
CATEGORICAL = "categorical"
#: a column left out of the model (an identifier column under ``id_columns="drop"``)
IGNORED = "ignored"

#: what fit does with an identifier column
ID_COLUMN_POLICIES = ("drop", "keep")
#: a text or category column is an identifier column when it has at least this many
#: distinct values, and they are more than this share of its non-missing cells
ID_MIN_DISTINCT = 20
ID_DISTINCT_SHARE = 0.9
#: a numeric column is a row index (``0 .. n - 1`` or ``1 .. n``, each once) from this
#: many rows: in a small table a feature of distinct integers (the rank of a few items)
#: may be one by chance; a small exported file is still caught by its unnamed first
#: column (a judgement: scikit-learn's estimator checks pass with any minimum)
ID_MIN_ROWS = 50
#: the names of an unnamed first column, an identifier whatever its values: pandas reads
#: the index column that ``to_csv`` and R's ``write.csv`` write as ``"Unnamed: 0"`` (or
#: ``""``), and Rdatasets names R's row names ``"rownames"``
ID_LEADING_NAMES = ("", "Unnamed: 0", "rownames")


class IdentifierColumnWarning(UserWarning):
    """An identifier column of a DataFrame was left out of the model.

    Raised by fit under ``id_columns="drop"`` (the default) for each column of one of
    three kinds, naming it and the rule: a text or categorical column with at least 20
    distinct values making up more than 90 % of its non-missing cells (an identifier, a
    timestamp as text); a numeric column of at least 50 rows holding each of
    ``0 .. n - 1`` or ``1 .. n`` once (a row index); a first column named ``""``,
    ``"Unnamed: 0"`` or ``"rownames"`` (row labels written by pandas or R). Pass
    ``id_columns="keep"`` to keep such columns as features.
    """

#: at most this many rows and values are listed in an error message
_SHOW = 5

#: what FeatureSchema.encode does with a category no training row had
UNKNOWN_CATEGORY_POLICIES = ("missing", "error")


def is_frame(X: Any) -> bool:
    """Whether ``X`` is a pandas DataFrame (without importing pandas)."""
    pd = sys.modules.get("pandas")
    return pd is not None and isinstance(X, pd.DataFrame)


def _listing(items) -> str:
    items = list(items)
    shown = ", ".join(str(v) for v in items[:_SHOW])
    return shown + (f" and {len(items) - _SHOW} more" if len(items) > _SHOW else "")


def _values(values) -> str:
    """The distinct values of ``values`` (repr, first-seen order), each listed once."""
    return _listing(dict.fromkeys(repr(v) for v in values))


#: The advice of the mixed numbers-and-text error that only a Python user can follow
#: (the command line strips it: a CSV user cannot set a dtype).
CAST_HINT = ", or cast the column to 'category' to make it categorical"


def _verb(mask) -> str:
    return "holds" if np.count_nonzero(mask) == 1 else "hold"


def _rows(index, mask) -> str:
    """``"row 3"`` / ``"rows 3, 17, ... and 4 more"`` (the frame's index labels)."""
    labels = list(np.asarray(index)[np.asarray(mask, dtype=bool)])
    return ("row " if len(labels) == 1 else "rows ") + _listing(labels)


def missing_values_error(estimator, column: str, index, mask, what: str = "missing values (NaN)"):
    """The one-line error for missing (NaN) or infinite values that ``estimator`` does not take."""
    learner = getattr(estimator, "estimator", None)
    who = type(estimator).__name__
    if learner is not None:
        who = f"{who} with the weak learner {type(learner).__name__}"
    hint = ("use a weak learner that handles missing values (the histogram trees, the "
            "default, do) or fill or drop them" if what.startswith("missing")
            else "replace them (by NaN if they mean missing)")
    return ValueError(f"column {column} has {what} in {_rows(index, mask)}, which {who} does "
                      f"not take: {hint}.")


def _text_cells(col):
    """``(numbers, text_mask)``: the column parsed as float64, and where a cell is not a number.

    Each distinct value is parsed once. Booleans parse as 0/1 but are not numbers.
    """
    import pandas as pd

    codes, uniques = pd.factorize(col.to_numpy(dtype=object), use_na_sentinel=True)
    uniques = np.asarray(uniques, dtype=object)
    parsed = pd.to_numeric(pd.Series(uniques, dtype=object), errors="coerce").to_numpy(
        dtype=np.float64, na_value=np.nan)
    is_text = np.isnan(parsed) | np.fromiter(
        (isinstance(v, (bool, np.bool_)) for v in uniques), bool, len(uniques))
    present = codes >= 0
    numbers = np.full(len(codes), np.nan)
    numbers[present] = parsed[codes[present]]
    text = np.zeros(len(codes), dtype=bool)
    text[present] = is_text[codes[present]]
    return numbers, text


def _is_numeric_dtype(dtype) -> bool:
    import pandas as pd

    return pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)


def _is_real_dtype(dtype) -> bool:
    """An integer or float dtype (numpy's or pandas' nullable ones; not complex)."""
    return getattr(dtype, "kind", "O") in ("i", "u", "f")


def _is_bool_dtype(dtype) -> bool:
    import pandas as pd

    return pd.api.types.is_bool_dtype(dtype) and not isinstance(dtype, pd.CategoricalDtype)


def _is_text_dtype(dtype) -> bool:
    import pandas as pd

    return pd.api.types.is_object_dtype(dtype) or isinstance(dtype, pd.StringDtype)


class FeatureSchema:
    """Names, kinds, dtypes and categories of the columns a model was fitted on.

    Parameters
    ----------
    names : list of str
        Column names, in order.
    kinds : list of {"numeric", "bool", "categorical"}
        Kind of each column.
    dtypes : list of str
        The pandas dtype of each column at fit (for messages).
    categories : list of (list or None)
        The categories of each categorical column (code ``j`` is ``categories[f][j]``),
        None for the other columns.
    observed : list of (list of bool or None), optional
        For each categorical column, whether each category occurred in the training
        rows (default: all of them). A declared category no training row had is
        *unknown* at predict, like one that was not declared.
    """

    def __init__(self, names, kinds, dtypes, categories, observed=None) -> None:
        self.names = list(names)
        self.kinds = list(kinds)
        self.dtypes = list(dtypes)
        self.categories = list(categories)
        self.observed = ([None if c is None else [True] * len(c) for c in self.categories]
                         if observed is None else [None if o is None else list(o)
                                                   for o in observed])

    def __repr__(self) -> str:
        cols = ", ".join(
            f"{n}: {k}" + (f"[{len(c)}]" if c is not None else "")
            for n, k, c in zip(self.names, self.kinds, self.categories, strict=True)
        )
        return f"FeatureSchema({cols})"

    @property
    def all_numeric(self) -> bool:
        """Whether every column is of a numeric dtype (the frame goes to ``validate_data``)."""
        return all(k == NUMERIC for k in self.kinds) and all(
            d != "object" and not d.startswith("str") for d in self.dtypes)

    @property
    def n_categories(self) -> np.ndarray:
        """Number of categories of each column (int32; 0 for numeric and boolean columns)."""
        return np.array([0 if c is None else len(c) for c in self.categories], dtype=np.int32)

    @property
    def set_split_categories(self) -> np.ndarray:
        """Number of categories of each column that the trees split into sets of categories
        (int32): a categorical column's when it has more than two, else 0. A column of two
        categories splits as its codes 0 and 1 do, since a set split of two categories is
        the threshold between them: it gives the same trees as those codes as numbers."""
        n = self.n_categories
        return np.where(n > 2, n, 0).astype(np.int32)

    @property
    def splits_as_numeric(self) -> bool:
        """Whether every column splits as a numeric one (no :attr:`set_split_categories`)."""
        return not self.set_split_categories.any()

    @property
    def ignored(self) -> list:
        """Names of the columns left out of the model (identifier columns)."""
        return [n for n, k in zip(self.names, self.kinds, strict=True) if k == IGNORED]

    def blank_ignored(self, X):
        """``X`` (a frame of the fitted columns) with each ignored column replaced by the
        constant 0.0 it is encoded as (``X`` itself when no column is ignored)."""
        ignored = self.ignored if hasattr(self, "kinds") else []
        if not ignored or not is_frame(X):
            return X
        return X.assign(**{name: 0.0 for name in ignored})

    # -- fit ---------------------------------------------------------------
    @classmethod
    def from_frame(cls, X, id_columns: str = "keep") -> FeatureSchema:
        """Read the schema of a DataFrame (see the module docstring for the rules).

        ``id_columns="drop"``: an identifier column (a text or categorical column of
        nearly all distinct values, a numeric row index, an unnamed first column) is
        ``ignored``, with an :class:`IdentifierColumnWarning` naming it and the rule.
        Raises a one-line ValueError for a column that mixes numbers and text and a
        TypeError for a column of an unsupported dtype (datetime, ...) or a frame whose
        column names are not all strings while some column is not numeric.
        """
        import warnings

        import pandas as pd

        names, kinds, dtypes, categories, observed = [], [], [], [], []
        named = all(isinstance(n, str) for n in X.columns)
        for j, name in enumerate(X.columns):
            col = X.iloc[:, j]
            dtype = col.dtype
            cats = seen = None
            numbers = None  # a text column's cells parsed as numbers
            if id_columns == "drop" and j == 0 and named and name in ID_LEADING_NAMES:
                kind = IGNORED  # whatever its dtype: row labels written by pandas or R
                warnings.warn(
                    f"column {name!r} was left out of the model: an unnamed first column "
                    "(row labels written by pandas or R?); pass id_columns='keep' to keep "
                    "it.", IdentifierColumnWarning, stacklevel=4)
            elif isinstance(dtype, pd.CategoricalDtype):
                kind = CATEGORICAL
                cats = [_plain(v) for v in dtype.categories]
                codes = col.cat.codes.to_numpy()
                seen = np.bincount(codes[codes >= 0], minlength=len(cats)) > 0
                seen = [bool(b) for b in seen]
            elif _is_bool_dtype(dtype):
                kind = BOOL
            elif _is_numeric_dtype(dtype):
                kind = NUMERIC
            elif _is_text_dtype(dtype):
                numbers, text = _text_cells(col)
                present = col.notna().to_numpy()
                if present.any() and _all_bool(col[present]):
                    kind = BOOL  # e.g. True/False with empty cells in a CSV
                elif not text.any():
                    kind = NUMERIC
                elif text.sum() == present.sum():
                    kind = CATEGORICAL
                    cats = sorted({_plain(v) for v in pd.unique(col[present].to_numpy(object))},
                                  key=_sort_key)
                else:
                    raise ValueError(
                        f"column {name!r} holds numbers but also text in "
                        f"{_rows(X.index, text)} ({_values(col[text])}): "
                        f"fix those cells (leave them empty if missing){CAST_HINT}."
                    )
            else:
                raise TypeError(
                    f"column {name!r} has dtype {dtype}, which is not supported: use numbers, "
                    "booleans or categories."
                )
            if kind == CATEGORICAL and id_columns == "drop":
                n_distinct, n_present = _distinct_count(col)
                if n_distinct >= ID_MIN_DISTINCT and n_distinct > ID_DISTINCT_SHARE * n_present:
                    kind, cats, seen = IGNORED, None, None
                    warnings.warn(
                        f"column {name!r} was left out of the model: {n_distinct} of its "
                        f"{n_present} values are distinct (an identifier?); pass "
                        "id_columns='keep' to keep it.", IdentifierColumnWarning, stacklevel=4)
            elif kind == NUMERIC and id_columns == "drop" and named and (
                    numbers is not None or _is_real_dtype(dtype)):
                first = _row_index_start(col if numbers is None else numbers)
                if first is not None:
                    kind = IGNORED
                    n = len(col)
                    warnings.warn(
                        f"column {name!r} was left out of the model: its {n} values are "
                        f"each of {first}..{n - 1 + first} once (a row index?); pass "
                        "id_columns='keep' to keep it.", IdentifierColumnWarning, stacklevel=4)
            names.append(name)
            kinds.append(kind)
            dtypes.append(str(dtype))
            categories.append(cats)
            observed.append(seen)
        schema = cls(names, kinds, dtypes, categories, observed)
        if not schema.all_numeric and not all(isinstance(n, str) for n in names):
            raise TypeError(
                "a DataFrame with boolean, text or categorical columns needs string column "
                f"names; got {_listing(repr(n) for n in names if not isinstance(n, str))}."
            )
        return schema

    @classmethod
    def numeric(cls, n_features: int, names=None, dtype: str = "float64") -> FeatureSchema:
        """The schema of an array (or an all-numeric frame): every column numeric."""
        if names is None:
            names = [f"x{j}" for j in range(n_features)]
        return cls(names, [NUMERIC] * n_features, [dtype] * n_features, [None] * n_features)

    # -- predict -----------------------------------------------------------
    def check_columns(self, X) -> None:
        """One-line ValueError unless ``X`` has exactly the fitted columns, in order."""
        got = list(X.columns)
        if got == self.names:
            return
        missing = [n for n in self.names if n not in got]
        extra = [n for n in got if n not in self.names]
        if missing:
            raise ValueError(f"X lacks the column(s) {_listing(map(repr, missing))} seen at fit.")
        if extra:
            raise ValueError(f"X has the column(s) {_listing(map(repr, extra))} not seen at fit.")
        if len(got) != len(set(got)):
            dup = sorted({n for n in got if got.count(n) > 1}, key=str)
            raise ValueError(f"X has the column(s) {_listing(map(repr, dup))} more than once.")
        first = next(j for j, (a, b) in enumerate(zip(got, self.names, strict=True)) if a != b)
        raise ValueError(
            f"column {got[first]!r} is at position {first} but was at position "
            f"{self.names.index(got[first])} at fit: pass the columns in the order of "
            "feature_names_in_."
        )

    def encode(self, X, *, check_columns: bool = True, allow_missing: bool = True,
               unknown_categories: str = "missing") -> np.ndarray:
        """The frame ``X`` as the model's float64 array (checked against the schema).

        Numeric and boolean columns become their values (0/1), categorical columns their
        category codes; missing values become NaN, and so do unknown categories (no
        training row had them) under ``unknown_categories="missing"``. Raises a one-line
        ValueError naming the column and the rows for a cell that is not a number in a
        numeric column, a column of the wrong kind, or an unknown category when the
        policy is ``"error"`` or the model cannot take missing values
        (``allow_missing=False``).
        """
        if check_columns:
            self.check_columns(X)
        out = np.empty(X.shape, dtype=np.float64, order="F")
        for j, name in enumerate(self.names):
            out[:, j] = self._encode_column(X.iloc[:, j], name, j, X.index, allow_missing,
                                            unknown_categories)
        return out

    def _encode_column(self, col, name, j, index, allow_missing: bool = True,
                       unknown_categories: str = "missing") -> np.ndarray:
        import pandas as pd

        kind = self.kinds[j]
        if kind == IGNORED:  # left out of the model: any values, seen as 0
            return np.zeros(len(col))
        dtype = col.dtype
        is_cat = isinstance(dtype, pd.CategoricalDtype)
        if not is_cat and col.isna().all():  # e.g. an empty column of a CSV: all missing
            return np.full(len(col), np.nan)

        def wrong_kind():
            return ValueError(
                f"column {name!r} was {kind} ({self.dtypes[j]}) at fit but is {dtype} here."
            )

        if kind == NUMERIC:
            if is_cat or _is_bool_dtype(dtype):
                raise wrong_kind()
            if _is_numeric_dtype(dtype):
                return col.to_numpy(dtype=np.float64, na_value=np.nan)
            if not _is_text_dtype(dtype):
                raise wrong_kind()
            numbers, text = _text_cells(col)
            if text.any():
                raise ValueError(
                    f"column {name!r} is numeric but {_rows(index, text)} {_verb(text)} text "
                    f"({_values(col[text])}): fix those cells "
                    "(leave them empty if missing)."
                )
            return numbers
        if kind == BOOL:
            present = col.notna().to_numpy()
            if not (_is_bool_dtype(dtype) or (_is_text_dtype(dtype) and _all_bool(col[present]))):
                raise wrong_kind()
            out = np.full(len(col), np.nan)
            out[present] = col[present].to_numpy(dtype=np.float64)
            return out
        # categorical
        if _is_numeric_dtype(dtype) and not is_cat and not all(
                isinstance(c, (int, float)) for c in self.categories[j]):
            raise wrong_kind()
        if _is_bool_dtype(dtype) and not is_cat:
            raise wrong_kind()
        known = pd.Index(self.categories[j], dtype=object)
        if is_cat:
            # each of the column's categories looked up once and its rows taken by their
            # codes (a missing cell's -1 takes the appended -1): the codes of looking up
            # every row's value, without an object array
            own = col.cat.codes.to_numpy()
            present = own >= 0
            lookup = known.get_indexer(col.cat.categories.to_numpy(dtype=object))
            codes = np.append(lookup, -1)[own]
        else:
            present = col.notna().to_numpy()
            codes = known.get_indexer(col.to_numpy(dtype=object))
        observed = getattr(self, "observed", None)  # None: a schema of an older version
        seen = (np.asarray(observed[j], dtype=bool) if observed and observed[j] is not None
                else np.ones(len(self.categories[j]), dtype=bool))
        unknown = present & ((codes < 0) | ~seen[np.maximum(codes, 0)])
        out = codes.astype(np.float64)
        out[(codes < 0) | unknown] = np.nan
        if unknown.any() and (unknown_categories == "error" or not allow_missing):
            new = sorted({repr(_plain(v)) for v in col.to_numpy(dtype=object)[unknown]})
            why = ("unknown_categories='error'" if allow_missing
                   else "this model's weak learner does not handle missing values")
            raise ValueError(
                f"column {name!r} has the categor{'y' if len(new) == 1 else 'ies'} "
                f"{_listing(new)}, which no training row had, in {_rows(index, unknown)} "
                f"({why}): map it to a known category, or leave the cell empty (missing)."
            )
        return out


def prepared_data(estimator, X, schema: FeatureSchema | None):
    """``X`` as the boosting loop passes it to every round of the weak learner ``estimator``.

    A learner with ``prepare_data`` (the histogram trees) gets it called once; when the
    schema has categorical columns of more than two categories and the learner splits
    them natively (``native_categorical``), it is told their numbers of categories
    (:attr:`FeatureSchema.set_split_categories`; a column of two categories is split as
    its codes). Any other learner
    gets ``X`` itself: categorical columns as ordinal category codes (the documented
    encoder for learners without native categorical splits).
    """
    prepare = getattr(estimator, "prepare_data", None)
    if not callable(prepare):
        return X
    n_cat = None if schema is None else schema.set_split_categories
    if n_cat is not None and n_cat.any() and getattr(estimator, "native_categorical", False):
        return prepare(X, n_categories=n_cat)
    return prepare(X)


def _row_index_start(values) -> int | None:
    """``0`` or ``1`` when ``values`` (a numeric column, or a text column parsed as
    numbers) hold each of ``0 .. n - 1`` or ``1 .. n`` exactly once, ``n`` its length of
    at least :data:`ID_MIN_ROWS` (a row index); otherwise None. One pass over the
    values, plus a count when their range fits."""
    n = len(values)
    if n < ID_MIN_ROWS:
        return None
    if isinstance(values, np.ndarray):
        v = values
    elif isinstance(values.dtype, np.dtype):  # numpy's dtypes: no copy
        v = values.to_numpy()
    else:  # pandas' nullable dtypes
        v = values.to_numpy(dtype=np.float64, na_value=np.nan)
    low, high = v.min(), v.max()  # NaN if any value is missing
    if not (low in (0, 1) and high == low + n - 1):
        return None
    ints = v.astype(np.float64) - low
    if not (ints == np.floor(ints)).all():
        return None
    if np.count_nonzero(np.bincount(ints.astype(np.intp), minlength=n)) != n:
        return None
    return int(low)


def _distinct_count(col) -> tuple[int, int]:
    """``(distinct non-missing values, non-missing cells)`` of a column."""
    present = col.notna().to_numpy()
    return int(col[present].nunique(dropna=True)), int(np.count_nonzero(present))


def _all_bool(values) -> bool:
    """Whether every value is a boolean (an object column of True/False)."""
    return all(isinstance(v, (bool, np.bool_)) for v in _unique(values))


def _unique(values):
    import pandas as pd

    return pd.unique(np.asarray(values, dtype=object))


def _plain(v):
    """A category value as a plain Python object (``np.str_('a')`` -> ``'a'``)."""
    return v.item() if isinstance(v, np.generic) else v


def _sort_key(v):
    return (type(v).__name__, v)
