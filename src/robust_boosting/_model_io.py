"""Model files of the ``robust-boosting fit`` / ``predict`` commands (``skops.io`` format).

A model file is a ``skops.io`` archive of a dict (the *bundle*) with the fitted
estimator under ``"model"``, the label column's name under ``"label"`` and the feature
columns under ``"feature_columns"``. Loading goes through :func:`skops.io.load` with
only :data:`TRUSTED_TYPES` (this package's own classes, and scikit-learn's
``make_column_selector``) declared trusted besides skops' defaults, so a file cannot
run code on load, as scikit-learn's documentation on model persistence recommends for
files that are shared; ``trusted=[...]`` trusts more types, as :func:`skops.io.load`
does. :func:`save_model` refuses a model that holds a type :func:`load_model` would
refuse, before the file takes its place: no file is written that cannot be read. A pickle
(joblib) file can run arbitrary code when loaded; it is refused unless the caller
passes ``trust_pickle=True``.

Every failure raises a :class:`ValueError` whose message is one line naming the file
and the cause.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import zipfile
from collections.abc import Sequence
from typing import Any

__all__ = ["TRUSTED_TYPES", "load_bundle", "load_model", "save_model"]

#: The modules whose classes make up a fitted model: the estimators and the parts they
#: are composed of (steps, losses, policies, regularizers, imprecise models, per-round
#: state, trees). Every class *defined* in them is trusted; nothing else of ours is.
MODEL_MODULES: tuple[str, ...] = (
    "robust_boosting._boosting",
    "robust_boosting._cv_search",
    "robust_boosting._ensemble",
    "robust_boosting._estimator_parts",
    "robust_boosting._interfaces",  # the old name of .interfaces (files saved then)
    "robust_boosting._schema",
    "robust_boosting.adaboost",
    "robust_boosting.classical",
    "robust_boosting.experiments.savage_readings",
    "robust_boosting.imprecise",
    "robust_boosting.interfaces",
    "robust_boosting.learners",
    "robust_boosting.losses",
    "robust_boosting.regression",
    "robust_boosting.regression_cv",
    "robust_boosting.rilboost",
    "robust_boosting.robust",
    "robust_boosting.self_paced",
    "robust_boosting.splboost",
    "robust_boosting.splboost_cv",
    "robust_boosting.steps",
    "robust_boosting.trees._base",
    "robust_boosting.trees.binning",
    "robust_boosting.trees.estimators",
    "robust_boosting.trees.growing",
    "robust_boosting.trees.shared",
)


#: Classes that moved after release 0.1.0, by the ``module.QualName`` its model files and
#: pickles name them with (the old module still resolves the name): trusted as well as
#: their new paths, so that those files load.
MOVED_TYPES: tuple[str, ...] = (
    "robust_boosting.steps.PerClassRegressor",
    "robust_boosting.steps.RobustBoostState",
    "robust_boosting.steps.RobustBoostStep",
    "robust_boosting.splboost_cv._PatienceMonitor",
)


#: Model classes of optional extras, by name (their modules import the extra's packages).
OPTIONAL_TYPES: tuple[str, ...] = (
    "robust_boosting.dask.estimator.DaskSPLBoostClassifierCV",
)


#: scikit-learn types that hold plain data, which skops does not trust by default:
#: ``make_column_selector`` (a ``ColumnTransformer``'s column choice: a pattern and dtypes).
SKLEARN_TYPES: tuple[str, ...] = (
    "sklearn.compose._column_transformer.make_column_selector",
)


def _numpy_scalar_types() -> tuple[str, ...]:
    """numpy's abstract scalar types, which ``make_column_selector(dtype_include=np.number)``
    keeps: a file holds them as names (a type, not an instance), so nothing runs on load."""
    import numpy as np

    kinds = (np.generic, np.number, np.integer, np.signedinteger, np.unsignedinteger,
             np.inexact, np.floating, np.complexfloating, np.bool_, np.object_, np.str_,
             np.datetime64, np.timedelta64)
    return tuple(f"{t.__module__}.{t.__qualname__}" for t in kinds)


def _model_types() -> tuple[str, ...]:
    import importlib
    import inspect

    names = {"builtins.object"}  # the inert token a histogram tree keeps for its cache
    for modname in MODEL_MODULES:
        module = importlib.import_module(modname)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            # a class defined here, or moved from here to another model module (still
            # importable from here, as files of older releases name it)
            if cls.__module__ in MODEL_MODULES:
                names.add(f"{modname}.{cls.__qualname__}")
    return tuple(sorted(names | set(MOVED_TYPES) | set(OPTIONAL_TYPES) | set(SKLEARN_TYPES)
                        | set(_numpy_scalar_types())))


#: Types besides skops' defaults (numpy, builtins, scikit-learn) that a model file of
#: this package may hold, as ``module.QualName`` strings: every class of
#: :data:`MODEL_MODULES`, the old paths of :data:`MOVED_TYPES`, :data:`OPTIONAL_TYPES`,
#: :data:`SKLEARN_TYPES`, numpy's abstract scalar types, plus ``builtins.object``.
TRUSTED_TYPES: tuple[str, ...] = _model_types()


def _type_names(trusted: Any) -> list[str]:
    """``trusted`` (None, or a sequence of ``"module.QualName"`` strings or classes) as
    type names; a TypeError naming the parameter for anything else."""
    if trusted is None:
        return []
    if isinstance(trusted, str | bytes) or not hasattr(trusted, "__iter__"):
        raise TypeError(f"trusted must be a list of type names ('module.QualName') or "
                        f"classes, got {trusted!r}")
    names = []
    for item in trusted:
        if isinstance(item, type):
            names.append(f"{item.__module__}.{item.__qualname__}")
        elif isinstance(item, str):
            names.append(item)
        else:
            raise TypeError(f"trusted must be a list of type names ('module.QualName') or "
                            f"classes, got an item {item!r}")
    return names


def _untrusted(found: list[str], trusted: list[str]) -> list[str]:
    """The type names of ``found`` (skops' list) that neither :data:`TRUSTED_TYPES` nor
    ``trusted`` covers."""
    return sorted(set(found) - set(TRUSTED_TYPES) - set(trusted))

_PICKLE_HINT = (
    "it is a {kind} file, and loading a pickle can run arbitrary code; model files are "
    "skops files, written by robust_boosting.save_model or 'robust-boosting fit': refit, "
    "or pass --trust-pickle (trust_pickle=True) if you trust where the file comes from"
)

#: a text-protocol pickle is parsed (not loaded) up to this size to tell it from other text
_TEXT_PICKLE_BYTES = 64 * 2**20


def _text_pickle_protocol(path: str) -> int | None:
    """The protocol (0 or 1) of a pickle written in the text protocols, or None when the file
    is not one. ``pickletools`` parses the opcodes; nothing is loaded or run."""
    import pickletools

    if os.path.getsize(path) > _TEXT_PICKLE_BYTES:
        return None
    with open(path, "rb") as fh:
        data = fh.read()
    if not data.rstrip().endswith(b"."):
        return None
    try:
        ops = list(pickletools.genops(data))
    except Exception:  # noqa: BLE001 - not a pickle
        return None
    if not ops or ops[-1][0].name != "STOP" or data[ops[-1][2] + 1:].strip():
        return None
    return max(op.proto for op, _, _ in ops)


def _fitted(model: Any) -> bool:
    """Whether ``model`` is fitted: a classifier's ``classes_``, a regressor's ``ensembles_``
    or a searching regressor's ``best_estimator_``."""
    return any(hasattr(model, name) for name in ("classes_", "ensembles_", "best_estimator_"))


def save_model(model: Any, path: str | os.PathLike[str], *, label: str | None = None,
               metadata: dict[str, Any] | None = None,
               trusted: Sequence[str | type] | None = None) -> None:
    """Save a fitted estimator of this package to ``path`` in ``skops.io`` format.

    The file loads with :func:`load_model` (or ``robust-boosting predict``) without
    running code: besides skops' defaults (numpy, scikit-learn's estimators), only this
    package's own types and scikit-learn's ``make_column_selector`` are trusted on load.
    A model holding any other type (e.g. a pipeline step of your own) is refused, naming
    the type, and no file is left: pass it in ``trusted`` here and to :func:`load_model`.

    Parameters
    ----------
    model : estimator
        A fitted estimator (any classifier of ``robust_boosting``, or
        :class:`~robust_boosting.SPLBoostRegressor`).
    path : path-like
        The file to write, e.g. ``"model.skops"``.
    label : str or None, default=None
        The label column's name, used by ``robust-boosting predict`` to report the
        error against that column when the CSV file has it.
    metadata : dict or None, default=None
        Further entries of the saved bundle (e.g. ``"feature_columns"``, the CLI's
        ``"algorithm"`` and ``"params"``).
    trusted : list of str or type, or None, default=None
        Further types the model may hold, as ``"module.QualName"`` strings (as
        :func:`skops.io.get_untrusted_types` names them) or classes; the file then needs
        the same ``trusted`` in :func:`load_model`.

    Raises
    ------
    ValueError
        If ``model`` is not a fitted estimator, or holds a type that :func:`load_model`
        would refuse (the message names it); no file is left then, and an existing
        ``path`` stays as it was.

    Examples
    --------
    >>> import numpy as np
    >>> import robust_boosting as rb
    >>> X = np.random.default_rng(0).normal(size=(200, 3))
    >>> y = (X[:, 0] + X[:, 1] > 0).astype(int)
    >>> model = rb.SPLBoostClassifier(n_estimators=20).fit(X, y)
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "model.skops")
    >>> rb.save_model(model, path)
    >>> loaded = rb.load_model(path)  # only robust-boosting's own types are trusted
    >>> bool((loaded.predict_proba(X) == model.predict_proba(X)).all())
    True
    """
    import skops.io as sio

    if not (callable(getattr(model, "predict", None)) and _fitted(model)):
        raise ValueError(f"save_model expects a fitted estimator, got a "
                         f"{type(model).__name__}")
    extra = _type_names(trusted)
    columns = getattr(model, "feature_names_in_", None)
    bundle = {"model": model, "label": label,
              "feature_columns": [] if columns is None else [str(c) for c in columns],
              **(metadata or {})}
    # deflated: the archive's schema.json is JSON text, a few hundred bytes of it for
    # every object and array of the model; written to a temporary file beside ``path``
    # and renamed onto it only once its types are known to load, so that neither an
    # interrupted save nor a refused model leaves a file (``path`` stays as it was)
    with replaced_atomically(path) as tmp:
        sio.dump(bundle, tmp, compression=zipfile.ZIP_DEFLATED)
        untrusted = _untrusted(sio.get_untrusted_types(file=tmp), extra)
        if untrusted:
            raise ValueError(
                f"save_model: not writing {os.fspath(path)!r}: the model holds "
                f"{'types' if len(untrusted) > 1 else 'a type'} that load_model would "
                f"refuse to load (not robust-boosting's, nor trusted by skops): "
                f"{', '.join(untrusted)}; if you trust {'them' if len(untrusted) > 1 else 'it'}"
                f", pass trusted={untrusted!r} to save_model and to load_model")


@contextlib.contextmanager
def replaced_atomically(path: str | os.PathLike[str]):
    """Yield a temporary file name in ``path``'s folder; on success it replaces ``path``
    (``os.replace``, atomic on one file system), on any exception (Ctrl-C included) it
    is removed and ``path`` is left as it was."""
    path = os.fspath(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".part",
                               dir=os.path.dirname(os.path.abspath(path)))
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.chmod(tmp, 0o666 & ~umask)  # as open() would create it (mkstemp's is 0600)
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise


def _cause(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _read(path: str, trust_pickle: bool, trusted: list[str]) -> Any:
    if not os.path.exists(path):
        raise ValueError(f"model file {path!r} not found")
    if os.path.isdir(path):
        raise ValueError(f"model file {path!r} is a directory")
    with open(path, "rb") as fh:
        head = fh.read(4)
    if not head:
        raise ValueError(f"cannot load model file {path!r}: the file is empty")
    protocol = head[1] if head[:1] == b"\x80" and len(head) > 1 else (
        None if head[:2] in (b"\x78\x9c", b"PK") else _text_pickle_protocol(path))
    if head[:1] == b"\x80" or head[:2] == b"\x78\x9c" or protocol is not None:
        # a pickle (protocol >= 2 starts with PROTO, 0 and 1 are text), or zlib (joblib)
        if not trust_pickle:
            kind = ("compressed joblib pickle" if protocol is None
                    else f"pickle (protocol {protocol})")
            raise ValueError(f"refusing to load model file {path!r}: "
                             + _PICKLE_HINT.format(kind=kind))
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
                         f"{kind}; model files are skops files, written by "
                         "robust_boosting.save_model or 'robust-boosting fit'")
    if not zipfile.is_zipfile(path):
        raise ValueError(f"cannot load model file {path!r}: truncated or corrupted skops file")
    import skops.io as sio

    try:
        untrusted = _untrusted(sio.get_untrusted_types(file=path), trusted)
    except Exception as exc:  # noqa: BLE001 - a damaged archive, reported in one line
        raise ValueError(f"cannot load model file {path!r}: truncated or corrupted skops "
                         f"file ({_cause(exc)})") from None
    if untrusted:
        raise ValueError(f"refusing to load model file {path!r}: it holds types that are not "
                         f"robust-boosting's: {', '.join(untrusted)}; if you trust them, "
                         f"pass trusted={untrusted!r} to load_model")
    try:
        return sio.load(path, trusted=[*TRUSTED_TYPES, *trusted])
    except Exception as exc:  # noqa: BLE001 - a damaged archive, reported in one line
        raise ValueError(f"cannot load model file {path!r}: truncated or corrupted skops "
                         f"file ({_cause(exc)})") from None


def load_model(path: str | os.PathLike[str], *, trust_pickle: bool = False,
               trusted: Sequence[str | type] | None = None) -> Any:
    """Load a fitted estimator saved by :func:`save_model` or ``robust-boosting fit``.

    Parameters
    ----------
    path : path-like
        A ``skops.io`` file written by :func:`save_model` or ``robust-boosting fit``.
    trust_pickle : bool, default=False
        Also accept a pickle/joblib file (loading one can run arbitrary code).
    trusted : list of str or type, or None, default=None
        Further types to trust besides skops' defaults, robust-boosting's own types and
        ``make_column_selector``, as ``"module.QualName"`` strings or classes (as
        :func:`skops.io.load` takes them); the refusal of a file names the types it holds.

    Returns
    -------
    model : estimator
        The fitted estimator; it predicts bit-identically to the one saved.

    Raises
    ------
    ValueError
        A one-line message naming ``path`` and the cause (see :func:`load_bundle`).

    Examples
    --------
    >>> import numpy as np
    >>> import os, tempfile
    >>> import robust_boosting as rb
    >>> X = np.random.default_rng(0).normal(size=(100, 2))
    >>> model = rb.AdaBoostClassifier(n_estimators=5).fit(X, X[:, 0] + X[:, 1] > 0)
    >>> path = os.path.join(tempfile.mkdtemp(), "model.skops")
    >>> rb.save_model(model, path)
    >>> rb.load_model(path).predict(X[:3]).tolist() == model.predict(X[:3]).tolist()
    True
    """
    return load_bundle(path, trust_pickle=trust_pickle, trusted=trusted)["model"]


def load_bundle(path: str | os.PathLike[str], *, trust_pickle: bool = False,
                trusted: Sequence[str | type] | None = None) -> dict[str, Any]:
    """Read a bundle written by :func:`save_model` and check that it holds a usable model.

    Parameters
    ----------
    path : path-like
        A ``skops.io`` file written by ``robust-boosting fit``.
    trust_pickle : bool, default=False
        Also accept a pickle/joblib file (loading one can run arbitrary code).
    trusted : list of str or type, or None, default=None
        Further types to trust (see :func:`load_model`).

    Returns
    -------
    bundle : dict
        With ``"model"`` (a fitted estimator), ``"label"`` (str or None) and
        ``"feature_columns"`` (list of str).

    Raises
    ------
    ValueError
        A one-line message naming ``path`` and the cause: missing, empty, truncated or
        corrupted file, a pickle without ``trust_pickle``, a file that is not a model
        (e.g. a CSV file), untrusted types, or a bundle without ``model``/``label``.
    """
    path = os.fspath(path)
    bundle = _read(path, trust_pickle, _type_names(trusted))
    if callable(getattr(bundle, "predict", None)) and callable(getattr(bundle, "fit", None)):
        # a bare estimator (e.g. a trusted pickle of a fitted model): its columns are its own
        columns = getattr(bundle, "feature_names_in_", None)
        bundle = {"model": bundle, "label": None,
                  "feature_columns": [] if columns is None else [str(c) for c in columns]}
    if not isinstance(bundle, dict):
        raise ValueError(f"model file {path!r} holds a {type(bundle).__name__}, which is "
                         f"neither an estimator nor a model saved by save_model or "
                         f"'robust-boosting fit'")
    for key in ("model", "label", "feature_columns"):
        if key not in bundle:
            raise ValueError(f"model file {path!r} is not a model saved by 'robust-boosting "
                             f"fit': its bundle has no {key!r} entry")
    model = bundle["model"]
    if not (callable(getattr(model, "predict", None)) and callable(getattr(model, "fit", None))):
        raise ValueError(f"model file {path!r} is not a model saved by 'robust-boosting fit': "
                         f"its 'model' entry is a {type(model).__name__}, not an estimator")
    if not _fitted(model):
        raise ValueError(f"model file {path!r} holds an unfitted "
                         f"{type(model).__name__}")
    if bundle["label"] is not None and not isinstance(bundle["label"], str):
        raise ValueError(f"model file {path!r}: its 'label' entry is not a column name")
    if not isinstance(bundle["feature_columns"], list | tuple):
        raise ValueError(f"model file {path!r}: its 'feature_columns' entry is not a list")
    return bundle
