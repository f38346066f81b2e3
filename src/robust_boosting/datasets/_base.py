"""Bundled UCI/KEEL data sets: manifest, checksum verification, parsing and encoding."""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import json
import os
import zlib
from collections.abc import Collection, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from sklearn.utils import Bunch

if TYPE_CHECKING:  # importlib.resources.abc is Python >= 3.11
    from importlib.resources.abc import Traversable

__all__ = [
    "DatasetChecksumError",
    "list_datasets",
    "load_dataset",
    "get_dataset_info",
]

_MISSING_TOKENS = frozenset({"?", ""})


class DatasetChecksumError(ValueError):
    """A data file does not match its recorded SHA-256 (or MD5) checksum.

    Raised when a bundled, cached or downloaded file is corrupted or is not the
    expected version. The message names the file.
    """


# ---------------------------------------------------------------------------
# locating the bundled files
# ---------------------------------------------------------------------------


def _data_root(data_dir: str | os.PathLike[str] | None) -> Traversable:
    if data_dir is not None:
        return Path(data_dir)
    return resources.files("robust_boosting").joinpath("data")


def _read_manifest(data_dir: str | os.PathLike[str] | None = None) -> dict[str, dict[str, Any]]:
    root = _data_root(data_dir)
    entry = root.joinpath("MANIFEST.json")
    try:
        text = entry.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise FileNotFoundError(f"data set manifest not found: {entry}") from exc
    return json.loads(text)


def list_datasets(*, data_dir: str | os.PathLike[str] | None = None) -> list[str]:
    """Names of the data sets shipped with the package (sorted).

    Parameters
    ----------
    data_dir : path-like, optional
        Directory holding ``MANIFEST.json`` and the ``.csv.gz`` files. Defaults to the
        copy shipped inside the package (``robust_boosting/data``).

    Returns
    -------
    names : list of str
    """
    return sorted(_read_manifest(data_dir))


def get_dataset_info(name: str, *, data_dir: str | os.PathLike[str] | None = None) -> dict:
    """Manifest entry of a bundled data set (size, classes, positive class, checksum...).

    Parameters
    ----------
    name : str
        A name from :func:`list_datasets`.
    data_dir : path-like, optional
        See :func:`list_datasets`.

    Returns
    -------
    info : dict
        A copy of the set's ``MANIFEST.json`` entry.
    """
    manifest = _read_manifest(data_dir)
    if name not in manifest:
        raise KeyError(
            f"unknown bundled data set {name!r}; available: {', '.join(sorted(manifest))}"
        )
    return json.loads(json.dumps(manifest[name]))


# ---------------------------------------------------------------------------
# reading and checking
# ---------------------------------------------------------------------------


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read_verified_csv(entry: Traversable, expected_sha256: str | None) -> bytes:
    """Read a gzip-compressed CSV, verify the SHA-256 of its uncompressed bytes."""
    try:
        raw = entry.read_bytes()
    except FileNotFoundError as exc:
        raise FileNotFoundError(f"data file not found: {entry}") from exc
    try:
        text = gzip.decompress(raw)
    except (OSError, EOFError, zlib.error) as exc:
        raise DatasetChecksumError(
            f"data file {entry} is corrupted: it is not a valid gzip file ({exc})"
        ) from exc
    if expected_sha256 is not None:
        actual = _sha256(text)
        if actual != expected_sha256.lower():
            raise DatasetChecksumError(
                f"data file {entry} is corrupted or modified: SHA-256 of its uncompressed "
                f"content is {actual}, the manifest expects {expected_sha256}"
            )
    return text


def _parse_csv(text: bytes, label_column: str) -> tuple[list[str], list[list[str]], list[str]]:
    """Split CSV bytes into feature names, feature columns (strings) and labels."""
    reader = csv.reader(io.StringIO(text.decode("utf-8")))
    header = next(reader)
    if label_column not in header:
        raise ValueError(f"label column {label_column!r} not in CSV header {header}")
    li = header.index(label_column)
    feature_names = [h for i, h in enumerate(header) if i != li]
    rows = [r for r in reader if r]
    columns: list[list[str]] = [[] for _ in feature_names]
    labels: list[str] = []
    for r in rows:
        if len(r) != len(header):
            raise ValueError(f"malformed CSV row with {len(r)} fields, expected {len(header)}")
        labels.append(r[li].strip())
        j = 0
        for i, v in enumerate(r):
            if i != li:
                columns[j].append(v.strip())
                j += 1
    return feature_names, columns, labels


# ---------------------------------------------------------------------------
# encoding shared with the network loader
# ---------------------------------------------------------------------------


def _to_float(values: Sequence[str], column: str) -> np.ndarray:
    out = np.empty(len(values), dtype=np.float64)
    for i, v in enumerate(values):
        if v in _MISSING_TOKENS:
            out[i] = np.nan
        else:
            try:
                out[i] = float(v)
            except ValueError as exc:
                raise ValueError(
                    f"column {column!r}: value {v!r} is not numeric; declare the column categorical"
                ) from exc
    return out


def _encode_features(
    feature_names: Sequence[str],
    columns: Sequence[Sequence[str]],
    categorical: Collection[str],
    encoding: Literal["ordinal", "onehot"],
    categories: dict[str, list[str]] | None = None,
) -> tuple[np.ndarray, list[str], dict[str, list[str]]]:
    """Turn string columns into a float64 matrix.

    Numeric columns are parsed (``?`` and empty strings become NaN). Categorical
    columns are encoded with the category list ``categories[col]`` if given (e.g. the
    nominal values declared in an ARFF header) or else the sorted distinct values:
    ``"ordinal"`` gives the index in that list, ``"onehot"`` one 0/1 column per
    category named ``"<col>=<category>"``. Missing categorical values become NaN
    (ordinal) or all-NaN rows of the column block (one-hot).
    """
    if encoding not in ("ordinal", "onehot"):
        raise ValueError(f"encoding must be 'ordinal' or 'onehot', got {encoding!r}")
    unknown = set(categorical) - set(feature_names)
    if unknown:
        raise ValueError(f"categorical columns {sorted(unknown)} are not feature columns")
    n = len(columns[0]) if columns else 0
    blocks: list[np.ndarray] = []
    names: list[str] = []
    mapping: dict[str, list[str]] = {}
    for name, col in zip(feature_names, columns, strict=True):
        if name not in categorical:
            blocks.append(_to_float(col, name)[:, None])
            names.append(name)
            continue
        cats = list((categories or {}).get(name) or sorted({v for v in col} - _MISSING_TOKENS))
        index = {c: k for k, c in enumerate(cats)}
        codes = np.empty(n, dtype=np.float64)
        for i, v in enumerate(col):
            if v in _MISSING_TOKENS:
                codes[i] = np.nan
            elif v in index:
                codes[i] = index[v]
            else:
                raise ValueError(f"column {name!r}: value {v!r} not among categories {cats}")
        mapping[name] = cats
        if encoding == "ordinal":
            blocks.append(codes[:, None])
            names.append(name)
        else:
            onehot = (codes[:, None] == np.arange(len(cats))[None, :]).astype(np.float64)
            onehot[np.isnan(codes)] = np.nan
            blocks.append(onehot)
            names.extend(f"{name}={c}" for c in cats)
    X = np.hstack(blocks) if blocks else np.empty((n, 0), dtype=np.float64)
    return np.ascontiguousarray(X, dtype=np.float64), names, mapping


def _int_like(labels: Sequence[str]) -> bool:
    try:
        return all(float(v) == int(float(v)) for v in labels)
    except (ValueError, OverflowError):
        return False


def _class_sort_key(label: str) -> tuple[int, float, str]:
    try:
        return (0, float(label), label)
    except ValueError:
        return (1, 0.0, label)


def _sorted_classes(labels: Collection[str]) -> list[str]:
    return sorted(set(labels), key=_class_sort_key)


def _binarize(labels: Sequence[str], positive: Collection[str]) -> tuple[np.ndarray, np.ndarray]:
    """Map labels to {-1, +1}: +1 for labels in ``positive``.

    Returns ``y`` (int64) and ``target_names`` = [negative description, positive
    description] (index 0 for y = -1, index 1 for y = +1).
    """
    lab = np.asarray(labels, dtype=str)
    classes = _sorted_classes(lab.tolist())
    pos = [c for c in classes if c in set(positive)]
    missing = sorted(set(positive) - set(classes))
    if missing:
        raise ValueError(f"positive class(es) {missing} not among the classes {classes}")
    neg = [c for c in classes if c not in set(positive)]
    if not neg:
        raise ValueError(f"every class {classes} is positive; nothing left for the negative class")
    y = np.where(np.isin(lab, pos), 1, -1).astype(np.int64)
    target_names = np.array(["+".join(neg), "+".join(pos)], dtype=object)
    return y, target_names


def _multiclass(labels: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    classes = _sorted_classes(labels)
    if _int_like(classes):
        y = np.array([int(float(v)) for v in labels], dtype=np.int64)
        return y, np.array([int(float(c)) for c in classes], dtype=np.int64)
    return np.asarray(labels, dtype=object), np.array(classes, dtype=object)


# ---------------------------------------------------------------------------
# public loader
# ---------------------------------------------------------------------------


def _description(name: str, info: dict[str, Any], extra: str = "") -> str:
    counts = ", ".join(f"{k}: {v}" for k, v in info["class_counts"].items())
    pos = info.get("positive_class")
    lines = [
        f"{name}: {info.get('note', '')}".strip(),
        f"{info['n_samples']} samples, {info['n_features']} features; classes ({counts}).",
        (
            f"Binary task: label {pos!r} is +1, every other label -1."
            if pos is not None
            else "Multiclass: original labels kept."
        ),
        f"Used by: {', '.join(info.get('papers', []))}.",
        f"Source: {info.get('source', 'UCI Machine Learning Repository')}. "
        "Licence CC BY 4.0; see robust_boosting/data/README.md for the donors' citation.",
    ]
    if extra:
        lines.append(extra)
    return "\n".join(lines)


def load_dataset(
    name: str,
    *,
    return_X_y: bool = False,
    as_frame: bool = False,
    encoding: Literal["ordinal", "onehot"] = "ordinal",
    data_dir: str | os.PathLike[str] | None = None,
) -> Bunch | tuple[Any, Any]:
    """Load a data set shipped with the package (offline).

    The file's SHA-256 is checked against ``MANIFEST.json`` before anything is parsed.

    Parameters
    ----------
    name : str
        A name from :func:`list_datasets` (e.g. ``"pima"``, ``"german"``, ``"wine"``).
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of the Bunch.
    as_frame : bool, default=False
        ``data`` is a :class:`pandas.DataFrame` (columns ``feature_names``), ``target``
        a :class:`pandas.Series` named ``"target"``, and ``frame`` holds both, as in
        scikit-learn's loaders.
    encoding : {"ordinal", "onehot"}, default="ordinal"
        How categorical feature columns are encoded. ``"ordinal"``: the column holds
        the index of its value in the sorted list of categories
        (``categorical_encoding[col]``). ``"onehot"``: one 0/1 column per category,
        named ``"<col>=<category>"``.
    data_dir : path-like, optional
        Directory with ``MANIFEST.json`` and the ``.csv.gz`` files instead of the copy
        shipped inside the package.

    Returns
    -------
    data : sklearn.utils.Bunch
        Keys as in scikit-learn's loaders: ``data`` (float64, n_samples x
        n_features), ``target`` (binary sets: int64 in {-1, +1}, +1 for the
        manifest's ``positive_class``; multiclass sets: the original labels, as int64
        when they are integers), ``feature_names``, ``target_names`` (binary:
        ``[negative, positive]`` labels for target = -1 / +1; multiclass: the sorted
        classes), ``DESCR`` and ``frame`` (a DataFrame of data and target if
        ``as_frame``, else None). Also ``categorical_features`` (names of the original
        categorical columns), ``categorical_encoding`` (column -> list of categories;
        code k is the k-th), ``encoding``, ``labels`` (the original labels as
        strings), ``positive_class``, ``name`` and ``info`` (the manifest entry).
    (data, target) : tuple
        If ``return_X_y`` is True.

    Raises
    ------
    KeyError
        Unknown name.
    DatasetChecksumError
        The file is corrupted or does not match the manifest (the message names it).
    """
    info = get_dataset_info(name, data_dir=data_dir)
    entry = _data_root(data_dir).joinpath(info["file"])
    text = _read_verified_csv(entry, info.get("sha256_uncompressed_csv"))
    feature_names, columns, labels = _parse_csv(text, info.get("label_column", "label"))
    X, names, mapping = _encode_features(
        feature_names, columns, info.get("categorical_columns", []), encoding
    )
    positive = info.get("positive_class")
    if positive is None:
        y, target_names = _multiclass(labels)
    else:
        y, target_names = _binarize(labels, {str(positive)})
    return make_bunch(
        X, y, names, target_names, _description(name, info), return_X_y=return_X_y,
        as_frame=as_frame,
        categorical_features=list(info.get("categorical_columns", [])),
        categorical_encoding=mapping,
        encoding=encoding,
        labels=np.asarray(labels, dtype=object),
        positive_class=positive,
        name=name,
        info=info,
    )


def make_bunch(X: np.ndarray, y: np.ndarray, feature_names: list[str], target_names: Any,
               descr: str, *, return_X_y: bool = False, as_frame: bool = False,
               **extra: Any) -> Bunch | tuple[Any, Any]:
    """The loaders' result, with scikit-learn's keys (``data``, ``target``, ``frame``, ...).

    With ``as_frame``, ``data`` is a DataFrame, ``target`` a Series named ``"target"``
    and ``frame`` both side by side; otherwise ``frame`` is None.
    """
    frame = None
    if as_frame:
        import pandas as pd

        X = pd.DataFrame(X, columns=list(feature_names))
        y = pd.Series(y, name="target")
        frame = pd.concat([X, y], axis=1)
    if return_X_y:
        return X, y
    return Bunch(data=X, target=y, feature_names=list(feature_names),
                 target_names=target_names, DESCR=descr, frame=frame, **extra)
