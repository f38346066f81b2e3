"""Network loader for the papers' data sets that are not bundled (OpenML or UCI).

Nothing here touches the network at import time. Downloads go through
:mod:`urllib.request` only when :func:`fetch_dataset` needs a file that is not in the
local cache. Every cached file has a ``.sha256`` side file written at download time and
checked on every later load; OpenML files are also checked against the MD5 checksum
that OpenML publishes in the data set's description, and a registry entry may pin a
SHA-256 of its own.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import tempfile
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import numpy as np
from sklearn.utils import Bunch

from ._base import (
    DatasetChecksumError,
    _binarize,
    _encode_features,
    _sorted_classes,
    make_bunch,
)
from ._remote_catalogue import REMOTE_DATASETS, RemoteDataset, list_remote_datasets

__all__ = [
    "DatasetDownloadError",
    "RemoteDataset",
    "REMOTE_DATASETS",
    "DEFAULT_OPENML_URL",
    "DEFAULT_UCI_URL",
    "get_data_home",
    "list_remote_datasets",
    "fetch_dataset",
]

DEFAULT_OPENML_URL = "https://www.openml.org"
DEFAULT_UCI_URL = "https://archive.ics.uci.edu/ml/machine-learning-databases"
ENV_DATA_HOME = "ROBUST_BOOSTING_DATA_HOME"
ENV_OPENML_URL = "ROBUST_BOOSTING_OPENML_URL"
ENV_UCI_URL = "ROBUST_BOOSTING_UCI_URL"
_USER_AGENT = "robust-boosting data loader (python urllib)"


class DatasetDownloadError(OSError):
    """A data set could not be downloaded (offline, server down, HTTP error) or is not
    in the cache while downloading is disabled."""


def get_data_home(data_home: str | os.PathLike[str] | None = None) -> Path:
    """Cache directory of downloaded data sets.

    Resolution order: the argument, the ``ROBUST_BOOSTING_DATA_HOME`` environment
    variable, ``$XDG_CACHE_HOME/robust_boosting``, ``~/.cache/robust_boosting``. The
    directory is not created here.

    Parameters
    ----------
    data_home : path-like, optional

    Returns
    -------
    path : pathlib.Path
    """
    if data_home is None:
        data_home = os.environ.get(ENV_DATA_HOME) or None
    if data_home is None:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join("~", ".cache")
        data_home = os.path.join(base, "robust_boosting")
    return Path(data_home).expanduser()


def _base_url(source: str, base_url: str | None) -> str:
    if base_url is None:
        env = ENV_OPENML_URL if source == "openml" else ENV_UCI_URL
        default = DEFAULT_OPENML_URL if source == "openml" else DEFAULT_UCI_URL
        base_url = os.environ.get(env) or default
    return base_url.rstrip("/")


# ---------------------------------------------------------------------------
# HTTP and cache
# ---------------------------------------------------------------------------


def _http_get(url: str, timeout: float, what: str, cache_dir: Path) -> bytes:
    request = urllib.request.Request(url, headers={"User-Agent": _USER_AGENT})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read()
            if response.headers.get("Content-Encoding", "").lower() == "gzip":
                body = gzip.decompress(body)
            return body
    except urllib.error.HTTPError as exc:
        raise DatasetDownloadError(
            f"could not download {what} from {url}: HTTP {exc.code} {exc.reason}"
        ) from exc
    except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise DatasetDownloadError(
            f"could not download {what} from {url}: {reason}. The machine seems to be "
            f"offline or the server is unreachable. Run once with network access (files "
            f"are cached in {cache_dir}), copy the files there, or point the base URL at a "
            f"mirror (argument base_url, or ${ENV_OPENML_URL} / ${ENV_UCI_URL})."
        ) from exc


def _digest(data: bytes, algorithm: str) -> str:
    return hashlib.new(algorithm, data).hexdigest()


def _verify(data: bytes, where: str, *, sha256: str | None = None, md5: str | None = None):
    if md5 is not None and _digest(data, "md5") != md5.lower():
        raise DatasetChecksumError(
            f"{where} is corrupted: MD5 {_digest(data, 'md5')} does not match the published {md5}"
        )
    if sha256 is not None and _digest(data, "sha256") != sha256.lower():
        raise DatasetChecksumError(
            f"{where} is corrupted: SHA-256 {_digest(data, 'sha256')} does not match the "
            f"expected {sha256}"
        )


def _write_cached(path: Path, data: bytes) -> None:
    """Atomically write ``data`` and its ``.sha256`` side file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    for target, payload in (
        (path, data),
        (path.with_name(path.name + ".sha256"), (_digest(data, "sha256") + "\n").encode()),
    ):
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{target.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(payload)
            os.replace(tmp, target)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise


def _read_cached(path: Path, *, sha256: str | None = None, md5: str | None = None) -> bytes:
    """Read a cached file and check it against its side file (and given checksums)."""
    data = path.read_bytes()
    side = path.with_name(path.name + ".sha256")
    hint = " Delete it or call fetch_dataset(..., refresh=True) to download it again."
    try:
        recorded = side.read_text().split()[0]
    except (FileNotFoundError, IndexError) as exc:
        raise DatasetChecksumError(
            f"cached file {path} has no checksum record {side.name}; cannot verify it.{hint}"
        ) from exc
    try:
        _verify(data, f"cached file {path}", sha256=recorded, md5=md5)
        _verify(data, f"cached file {path}", sha256=sha256)
    except DatasetChecksumError as exc:
        raise DatasetChecksumError(str(exc) + "." + hint) from None
    return data


def _cached_or_download(
    path: Path,
    url_fn,
    *,
    what: str,
    cache_dir: Path,
    refresh: bool,
    download_if_missing: bool,
    timeout: float,
    sha256: str | None = None,
    md5_fn=None,
) -> tuple[bytes, bool]:
    """Return (bytes, downloaded?) for a cache path, downloading if needed."""
    md5 = md5_fn() if md5_fn is not None else None
    if path.exists() and not refresh:
        return _read_cached(path, sha256=sha256, md5=md5), False
    if not download_if_missing:
        raise DatasetDownloadError(
            f"{what} is not in the cache ({path}) and download_if_missing=False"
        )
    url = url_fn()
    data = _http_get(url, timeout, what, cache_dir)
    _verify(data, f"{what} downloaded from {url}", sha256=sha256, md5=md5)
    _write_cached(path, data)
    return data, True


# ---------------------------------------------------------------------------
# parsing
# ---------------------------------------------------------------------------

_ATTR_RE = re.compile(
    r"""^@attribute\s+('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|\S+)\s+(.*)$""", re.IGNORECASE
)


def _unquote(token: str) -> str:
    token = token.strip()
    if len(token) >= 2 and token[0] == token[-1] and token[0] in "'\"":
        return re.sub(r"\\(.)", r"\1", token[1:-1])
    return token


def _split_values(line: str) -> list[str]:
    """Split an ARFF data line on commas, honouring ' and " quotes."""
    if "'" not in line and '"' not in line:
        return [v.strip() for v in line.split(",")]
    out, cur, quote, i = [], [], None, 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\" and i + 1 < len(line):
                cur.append(line[i + 1])
                i += 1
            elif ch == quote:
                quote = None
            else:
                cur.append(ch)
        elif ch in "'\"":
            quote = ch
        elif ch == ",":
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
        i += 1
    out.append("".join(cur).strip())
    return out


def _parse_arff(text: str, where: str):
    """Minimal dense-ARFF reader: attributes [(name, nominal values or None)], rows."""
    attributes: list[tuple[str, list[str] | None]] = []
    rows: list[list[str]] = []
    in_data = False
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if not in_data:
            low = line.lower()
            if low.startswith("@relation"):
                continue
            if low.startswith("@attribute"):
                m = _ATTR_RE.match(line)
                if not m:
                    raise ValueError(f"{where}:{lineno}: cannot parse attribute line {line!r}")
                name, kind = _unquote(m.group(1)), m.group(2).strip()
                if kind.startswith("{"):
                    inner = kind[1 : kind.rindex("}")]
                    attributes.append((name, [_unquote(v) for v in _split_values(inner)]))
                elif kind.lower().split()[0] in ("numeric", "real", "integer"):
                    attributes.append((name, None))
                elif kind.lower().startswith("string"):
                    attributes.append((name, []))  # categorical, categories from the data
                else:
                    raise ValueError(f"{where}:{lineno}: unsupported ARFF type {kind!r}")
                continue
            if low.startswith("@data"):
                in_data = True
                continue
            raise ValueError(f"{where}:{lineno}: unexpected header line {line!r}")
        if line.startswith("{"):
            raise ValueError(f"{where}: sparse ARFF data is not supported")
        values = [_unquote(v) for v in _split_values(line)]
        if len(values) != len(attributes):
            raise ValueError(f"{where}:{lineno}: {len(values)} values, expected {len(attributes)}")
        rows.append(values)
    if not in_data:
        raise ValueError(f"{where}: no @data section; is this an ARFF file?")
    return attributes, rows


def _canonical_label(v: str) -> str:
    """'1.0' -> '1' so numeric labels compare as written in the registry."""
    try:
        f = float(v)
    except ValueError:
        return v
    return str(int(f)) if f.is_integer() else v


def _positive_labels(spec_positive, spec_negative, labels: Sequence[str]) -> set[str]:
    classes = _sorted_classes(labels)
    if spec_positive == "minority":
        counts = Counter(labels)
        if len(classes) != 2:
            raise ValueError(f"'minority' needs two classes, got {classes}")
        smallest = min(counts.values())
        return {[c for c in classes if counts[c] == smallest][-1]}
    if spec_positive is not None:
        return set(spec_positive)
    missing = sorted(set(spec_negative) - set(classes))
    if missing:
        raise ValueError(f"negative class(es) {missing} not among the classes {classes}")
    return set(classes) - set(spec_negative)


# ---------------------------------------------------------------------------
# public
# ---------------------------------------------------------------------------


def _openml_columns(spec: RemoteDataset, desc: dict, text: str, where: str):
    attributes, rows = _parse_arff(text, where)
    names = [a for a, _ in attributes]
    target = spec.target or desc.get("default_target_attribute")
    if target not in names:
        raise ValueError(f"{where}: target attribute {target!r} not among {names}")
    drop = {target, *spec.drop_columns}
    for key in ("ignore_attribute", "row_id_attribute"):
        extra = desc.get(key) or []
        drop.update([extra] if isinstance(extra, str) else extra)
    keep = [i for i, n in enumerate(names) if n not in drop]
    ti = names.index(target)
    feature_names = [names[i] for i in keep]
    columns = [[r[i] for r in rows] for i in keep]
    categories = {names[i]: attributes[i][1] for i in keep if attributes[i][1] is not None}
    categories = {k: (v or None) for k, v in categories.items()}
    labels = [r[ti] for r in rows]
    return feature_names, columns, categories, labels


def _uci_columns(spec: RemoteDataset, text: str, where: str):
    rows = []
    for line in text.splitlines():
        if not line.strip():
            continue
        fields = line.split(spec.delimiter) if spec.delimiter is not None else line.split()
        rows.append([f.strip() for f in fields])
    if not rows:
        raise ValueError(f"{where}: empty file")
    width = len(rows[0])
    bad = [i for i, r in enumerate(rows) if len(r) != width]
    if bad:
        raise ValueError(
            f"{where}: row {bad[0] + 1} has {len(rows[bad[0]])} fields, expected {width}"
        )
    ti = spec.target % width if isinstance(spec.target, int) else width - 1
    drop = {d % width for d in spec.drop_columns} | {ti}
    keep = [i for i in range(width) if i not in drop]
    feature_names = [f"x{i}" for i in keep]
    columns = [[r[i] for r in rows] for i in keep]
    categories = {f"x{i % width}": None for i in spec.categorical}
    labels = [r[ti] for r in rows]
    return feature_names, columns, categories, labels


def fetch_dataset(
    name: str,
    *,
    data_home: str | os.PathLike[str] | None = None,
    base_url: str | None = None,
    download_if_missing: bool = True,
    refresh: bool = False,
    return_X_y: bool = False,
    encoding: Literal["ordinal", "onehot"] = "ordinal",
    dropna: bool = False,
    positive: Sequence[str] | None = None,
    timeout: float = 60.0,
) -> Bunch | tuple[np.ndarray, np.ndarray]:
    """Download (once) and load one of the papers' non-bundled data sets.

    SPLBoost's Table I sets (adult, bank, blood, connect-4, miniboone, ozone,
    parkinsons, vc-2classes; pb-T-OR-D and oocMerl4D are listed but not available) and
    RILBoost's extra sets come from OpenML (ARFF, verified against OpenML's published
    MD5) or from the UCI file archive. Files are cached under :func:`get_data_home`
    with a SHA-256 record checked on every load.

    Parameters
    ----------
    name : str
        A name from :func:`list_remote_datasets`.
    data_home : path-like, optional
        Cache directory; see :func:`get_data_home`.
    base_url : str, optional
        Server to download from instead of the default (OpenML:
        ``$ROBUST_BOOSTING_OPENML_URL`` or https://www.openml.org; UCI:
        ``$ROBUST_BOOSTING_UCI_URL`` or the UCI archive). OpenML files are requested as
        ``{base_url}/api/v1/json/data/{id}`` and ``{base_url}/data/v1/download/{file_id}``;
        UCI files as ``{base_url}/{path}``.
    download_if_missing : bool, default=True
        If False, a set that is not cached raises :class:`DatasetDownloadError`
        without touching the network.
    refresh : bool, default=False
        Download again even if cached (replaces a corrupted cache).
    return_X_y : bool, default=False
    encoding : {"ordinal", "onehot"}, default="ordinal"
        Encoding of categorical (ARFF nominal) columns; ordinal codes index the
        categories listed in ``categorical_encoding`` (ARFF declaration order).
    dropna : bool, default=False
        Drop rows with a missing feature value (otherwise they are NaN). Rows with a
        missing label are always dropped.
    positive : sequence of str, optional
        Labels mapped to +1 instead of the registry's choice.
    timeout : float, default=60.0
        Seconds per HTTP request.

    Returns
    -------
    data : sklearn.utils.Bunch
        Same fields as :func:`load_dataset` (``y`` in {-1, +1}) plus ``source_url``
        and ``cache_path``.
    (X, y) : tuple of ndarray
        If ``return_X_y`` is True.

    Raises
    ------
    KeyError
        Unknown name.
    DatasetDownloadError
        Offline, server down, HTTP error, or not cached with ``download_if_missing=False``.
    DatasetChecksumError
        A downloaded or cached file does not match its checksum (message names it).
    """
    if name not in REMOTE_DATASETS:
        raise KeyError(
            f"unknown remote data set {name!r}; available: {', '.join(list_remote_datasets())}"
        )
    spec = REMOTE_DATASETS[name]
    if spec.source is None:
        raise DatasetDownloadError(f"data set {name!r} is not available: {spec.note}")
    home = get_data_home(data_home)
    base = _base_url(spec.source, base_url)
    common = dict(
        cache_dir=home, refresh=refresh, download_if_missing=download_if_missing, timeout=timeout
    )

    if spec.source == "openml":
        cache = home / "openml" / str(spec.ref)
        desc_url = f"{base}/api/v1/json/data/{spec.ref}"
        raw_desc, _ = _cached_or_download(
            cache / "description.json",
            lambda: desc_url,
            what=f"OpenML description of {name!r}",
            **common,
        )
        desc = json.loads(raw_desc.decode("utf-8"))["data_set_description"]
        if spec.openml_name and desc.get("name", "").lower() != spec.openml_name.lower():
            raise ValueError(
                f"OpenML data id {spec.ref} is {desc.get('name')!r}, expected "
                f"{spec.openml_name!r} for {name!r}"
            )
        source_url = f"{base}/data/v1/download/{desc['file_id']}"
        data_path = cache / "data.arff"
        raw, _ = _cached_or_download(
            data_path,
            lambda: source_url,
            what=f"OpenML data file of {name!r}",
            sha256=spec.sha256,
            md5_fn=lambda: desc.get("md5_checksum"),
            **common,
        )
        feature_names, columns, categories, labels = _openml_columns(
            spec, desc, raw.decode("utf-8"), str(data_path)
        )
        origin = f"OpenML data set {spec.ref} ({desc.get('name')}, version {desc.get('version')})"
    else:
        data_path = home / "uci" / Path(*str(spec.ref).split("/"))
        source_url = f"{base}/{spec.ref}"
        raw, _ = _cached_or_download(
            data_path,
            lambda: source_url,
            what=f"UCI file of {name!r}",
            sha256=spec.sha256,
            **common,
        )
        feature_names, columns, categories, labels = _uci_columns(
            spec, raw.decode("utf-8", errors="replace"), str(data_path)
        )
        origin = f"UCI Machine Learning Repository file {spec.ref}"

    labels = [_canonical_label(v) for v in labels]
    has_label = np.array([v not in ("?", "") for v in labels])
    X, names, mapping = _encode_features(
        feature_names, columns, list(categories), encoding, categories
    )
    keep = has_label & (~np.isnan(X).any(axis=1) if dropna else True)
    X = X[keep]
    labels = [v for v, k in zip(labels, keep, strict=True) if k]
    pos = (
        set(positive)
        if positive is not None
        else _positive_labels(spec.positive, spec.negative, labels)
    )
    y, target_names = _binarize(labels, pos)
    if return_X_y:
        return X, y
    description = "\n".join(
        [
            f"{name}: {spec.note}",
            f"{X.shape[0]} samples, {X.shape[1]} features after loading"
            + (
                f" (paper: {spec.paper_size[0]} x {spec.paper_size[1]})."
                if spec.paper_size
                else "."
            ),
            f"Positive class (+1): {' + '.join(sorted(pos))}.",
            f"Used by: {', '.join(spec.papers)}.",
            f"Source: {origin}; originally {spec.citation} Licence CC BY 4.0.",
        ]
    )
    return make_bunch(
        X, y, names, target_names, description,
        categorical_features=list(mapping),
        categorical_encoding=mapping,
        encoding=encoding,
        labels=np.asarray(labels, dtype=object),
        positive_class=" + ".join(sorted(pos)),
        name=name,
        source_url=source_url,
        cache_path=str(data_path),
    )
