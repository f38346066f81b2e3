"""Model files of the ``robust-boosting fit`` / ``predict`` commands (``skops.io`` format).

A model file is a ``skops.io`` archive of a dict (the *bundle*) with the fitted
estimator under ``"model"``, the label column's name under ``"label"`` and the feature
columns under ``"feature_columns"``. Loading goes through :func:`skops.io.load` with
only :data:`TRUSTED_TYPES` (this package's own classes) declared trusted, so a file
cannot run code on load, as scikit-learn's documentation on model persistence
recommends for files that are shared. A pickle (joblib) file can run arbitrary code
when loaded; it is refused unless the caller passes ``trust_pickle=True``.

Every failure raises a :class:`ValueError` whose message is one line naming the file
and the cause.
"""

from __future__ import annotations

import os
import zipfile
from typing import Any

__all__ = ["TRUSTED_TYPES", "load_model", "save_model"]

#: Types besides skops' defaults (numpy, builtins, scikit-learn) that a model file of
#: this package may hold, as ``module.QualName`` strings. ``builtins.object`` is the
#: inert token a histogram tree keeps to recognise its own cached training partition.
TRUSTED_TYPES: tuple[str, ...] = (
    "builtins.object",
    "robust_boosting._boosting.Ensemble",
    "robust_boosting.adaboost.AdaBoostClassifier",
    "robust_boosting.classical.GentleBoostClassifier",
    "robust_boosting.classical.LogitBoostClassifier",
    "robust_boosting.classical.RealBoostClassifier",
    "robust_boosting.classical.SPLGentleBoostClassifier",
    "robust_boosting.classical.SPLLogitBoostClassifier",
    "robust_boosting.rilboost.RILBoostClassifier",
    "robust_boosting.robust.RBoostClassifier",
    "robust_boosting.robust.RobustBoostClassifier",
    "robust_boosting.robust.SavageBoostClassifier",
    "robust_boosting.splboost.SPLBoostClassifier",
    "robust_boosting.trees.BinMapper",
    "robust_boosting.trees.HistTree",
    "robust_boosting.trees.HistTreeClassifier",
    "robust_boosting.trees.HistTreeRegressor",
)

_PICKLE_HINT = (
    "it is a pickle (joblib) file, and loading a pickle can run arbitrary code; refit with "
    "'robust-boosting fit' (which writes skops files) or pass --trust-pickle if you trust "
    "where the file comes from"
)


def save_model(bundle: dict[str, Any], path: str | os.PathLike[str]) -> None:
    """Write ``bundle`` (a dict holding the fitted ``"model"``) to ``path`` with ``skops.io``."""
    import skops.io as sio

    sio.dump(bundle, path)


def _cause(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _read(path: str, trust_pickle: bool) -> Any:
    if not os.path.exists(path):
        raise ValueError(f"model file {path!r} not found")
    if os.path.isdir(path):
        raise ValueError(f"model file {path!r} is a directory")
    with open(path, "rb") as fh:
        head = fh.read(4)
    if not head:
        raise ValueError(f"cannot load model file {path!r}: the file is empty")
    if head[:1] == b"\x80" or head[:2] == b"\x78\x9c":  # pickle protocol >= 2, or zlib (joblib)
        if not trust_pickle:
            raise ValueError(f"refusing to load model file {path!r}: {_PICKLE_HINT}")
        import joblib

        try:
            return joblib.load(path)
        except Exception as exc:  # noqa: BLE001 - any unpickling failure, reported in one line
            raise ValueError(f"cannot load model file {path!r}: truncated or corrupted "
                             f"pickle ({_cause(exc)})") from None
    if head[:2] != b"PK":
        kind = "text (a CSV file?)" if all(32 <= b < 127 or b in (9, 10, 13) for b in head) \
            else "an unknown format"
        raise ValueError(f"cannot load model file {path!r}: not a model file, its content is "
                         f"{kind}; model files are written by 'robust-boosting fit'")
    if not zipfile.is_zipfile(path):
        raise ValueError(f"cannot load model file {path!r}: truncated or corrupted skops file")
    import skops.io as sio

    try:
        untrusted = set(sio.get_untrusted_types(file=path)) - set(TRUSTED_TYPES)
    except Exception as exc:  # noqa: BLE001 - a damaged archive, reported in one line
        raise ValueError(f"cannot load model file {path!r}: truncated or corrupted skops "
                         f"file ({_cause(exc)})") from None
    if untrusted:
        raise ValueError(f"refusing to load model file {path!r}: it holds types that are not "
                         f"robust-boosting's: {', '.join(sorted(untrusted))}")
    try:
        return sio.load(path, trusted=list(TRUSTED_TYPES))
    except Exception as exc:  # noqa: BLE001 - a damaged archive, reported in one line
        raise ValueError(f"cannot load model file {path!r}: truncated or corrupted skops "
                         f"file ({_cause(exc)})") from None


def load_model(path: str | os.PathLike[str], *, trust_pickle: bool = False) -> dict[str, Any]:
    """Read a bundle written by :func:`save_model` and check that it holds a usable model.

    Parameters
    ----------
    path : path-like
        A ``skops.io`` file written by ``robust-boosting fit``.
    trust_pickle : bool, default=False
        Also accept a pickle/joblib file (loading one can run arbitrary code).

    Returns
    -------
    bundle : dict
        With ``"model"`` (a fitted estimator), ``"label"`` (str) and
        ``"feature_columns"`` (list of str).

    Raises
    ------
    ValueError
        A one-line message naming ``path`` and the cause: missing, empty, truncated or
        corrupted file, a pickle without ``trust_pickle``, a file that is not a model
        (e.g. a CSV file), untrusted types, or a bundle without ``model``/``label``.
    """
    path = os.fspath(path)
    bundle = _read(path, trust_pickle)
    if not isinstance(bundle, dict):
        raise ValueError(f"model file {path!r} is not a model saved by 'robust-boosting fit' "
                         f"(it holds a {type(bundle).__name__}, not a bundle)")
    for key in ("model", "label", "feature_columns"):
        if key not in bundle:
            raise ValueError(f"model file {path!r} is not a model saved by 'robust-boosting "
                             f"fit': its bundle has no {key!r} entry")
    model = bundle["model"]
    if not (callable(getattr(model, "predict", None)) and callable(getattr(model, "fit", None))):
        raise ValueError(f"model file {path!r} is not a model saved by 'robust-boosting fit': "
                         f"its 'model' entry is a {type(model).__name__}, not an estimator")
    if not hasattr(model, "classes_"):
        raise ValueError(f"model file {path!r} holds an unfitted "
                         f"{type(model).__name__}")
    if not isinstance(bundle["feature_columns"], list | tuple):
        raise ValueError(f"model file {path!r}: its 'feature_columns' entry is not a list")
    return bundle
