"""``robust-boosting results compact STORE...``: pack the rows of existing result stores.

:func:`add_parser` adds the ``results`` command to the ``robust-boosting`` parser
(``cli.build_parser`` calls it). ``compact`` moves every unpacked row of each store
into a compressed block (:meth:`robust_boosting.experiments.ResultStore.pack`, lossless:
reports and runs read the store as before) and prints its size before and after.
"""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = ["add_parser"]


def _size(path: Path) -> int:
    """Bytes of a store with its write-ahead log, if one lies beside it."""
    wal = path.with_name(path.name + "-wal")
    return path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def _megabytes(n: int) -> str:
    return f"{n / 1e6:.2f} MB"


def _cmd_compact(args: argparse.Namespace) -> int:
    """Pack the finished rows of result stores into compressed blocks (lossless)."""
    from .experiments import ResultStore

    paths = [Path(p) for p in args.stores]
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:  # ResultStore would create them
        raise ValueError(f"results file(s) not found: {', '.join(missing)}")
    total = [0, 0]
    for path in paths:
        before = _size(path)
        with ResultStore(path) as store:
            n_packed = store.pack()
            n_rows = len(store)
        after = _size(path)
        total[0] += before
        total[1] += after
        print(f"{path}: {n_rows} rows ({n_packed} newly packed), "
              f"{_megabytes(before)} -> {_megabytes(after)}")
    if len(paths) > 1:
        print(f"total: {_megabytes(total[0])} -> {_megabytes(total[1])}")
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``results compact`` to the sub-commands ``sub`` of the main parser."""
    res = sub.add_parser("results", help="maintain result stores written by 'benchmark'",
                         description="Maintain result stores written by 'benchmark'.")
    res_sub = res.add_subparsers(dest="action", metavar="ACTION")
    res_sub.required = True
    compact = res_sub.add_parser(
        "compact", help="pack the rows of result stores into compressed blocks",
        description=_cmd_compact.__doc__ + " Reports, claims and resumed runs read a packed "
        "store exactly as before; 'benchmark' packs its store at the end of every run.")
    compact.add_argument("stores", nargs="+", metavar="STORE",
                         help="SQLite results file written by 'benchmark'")
    compact.set_defaults(func=_cmd_compact)
