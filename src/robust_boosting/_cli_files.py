"""The files of ``robust-boosting fit`` and ``predict``: CSV input read with the file's
physical line numbers, and output paths checked before any work."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["check_outputs", "read_csv"]


def check_field_counts(path: str) -> list[int]:
    """The physical line on which each data record of ``path`` starts; a row with fewer or
    more fields than the header is an error naming its line.

    A column name used twice in the header is an error too, with the name as written
    (pandas would rename the second one, e.g. ``x2`` to ``x2.1``).

    ``pandas.read_csv`` pads a short row with missing values without a word; here every
    row must have as many fields as the header. Blank lines are skipped, as pandas does,
    but counted: a line number is the file's physical line (the first line is 1), so a
    blank line, or a quoted field that spans several lines, does not shift the numbers of
    the records after it. A record spanning lines is named by its first line.
    """
    import csv

    from ._schema import _listing

    bad: dict[int, list[int]] = {}
    width = None
    header_line = 1
    starts: list[int] = []
    end = 0  # the last physical line read so far
    with open(path, newline="", encoding="utf-8") as fh:
        reader = csv.reader(fh, strict=True)
        for record in reader:
            start, end = end + 1, reader.line_num
            if not record:
                continue
            if width is None:
                width, header_line = len(record), start
                seen: dict[str, int] = {}
                for name in record:
                    seen[name] = seen.get(name, 0) + 1
                dup = [name for name, count in seen.items() if count > 1]
                if dup:
                    raise ValueError(f"CSV file {path!r}: the header (line {start}) names "
                                     f"{'columns' if len(dup) > 1 else 'column'} "
                                     f"{', '.join(map(repr, dup))} more than once; give "
                                     f"every column its own name")
                continue
            starts.append(start)
            if len(record) != width:
                bad.setdefault(len(record), []).append(start)
    if bad:
        parts = [f"line{'s' if len(lines) > 1 else ''} {_listing(lines)} "
                 f"{'has' if len(lines) == 1 else 'have'} {n} field{'s' * (n != 1)}"
                 for n, lines in sorted(bad.items(), key=lambda kv: kv[1][0])]
        raise ValueError(f"CSV file {path!r}: the header (line {header_line}) has {width} "
                         f"fields but {'; '.join(parts)}: every row needs one value per "
                         f"column (an empty field is a missing value)")
    return starts


def read_csv(path: str):
    """``path`` as a DataFrame whose index is each row's physical line in the file.

    Every failure (missing file, bad quoting, ragged rows, no data rows) is a one-line
    ``ValueError`` naming the file; see :func:`check_field_counts` for the line numbers.
    """
    import csv

    import pandas as pd

    try:
        lines = check_field_counts(path)
        df = pd.read_csv(path)
    except csv.Error as exc:
        raise ValueError(f"cannot read CSV file {path!r}: {exc}") from None
    except FileNotFoundError:
        raise ValueError(f"CSV file {path!r} not found") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read CSV file {path!r}: {exc}") from None
    if df.empty or df.shape[1] == 0:
        raise ValueError(f"CSV file {path!r} has no data rows")
    if len(lines) != len(df):  # a line pandas and the csv module split differently
        raise ValueError(f"cannot read CSV file {path!r}: it has {len(lines)} records by "
                         f"the CSV standard but pandas reads {len(df)} rows; check the "
                         f"quoting and the blank lines")
    # rows in messages (and the --label-issues file) are the file's physical lines: the
    # line each record starts on, blank lines and quoted line breaks counted
    df.index = pd.Index(lines)
    return df


def check_outputs(outputs: dict[str, str | None], inputs: Sequence[str] = ()) -> None:
    """Check, before any work, that each output file (by its option) can be written.

    Its folder must exist and be writable, the path must not be a folder or an existing
    read-only file, no two options may name the same file, and no output may overwrite
    an input file. A probe file is created and removed in the folder, so that a file
    system mounted read-only, or a folder the user may not write to, is found here rather
    than after a long fit.
    """
    import os
    import tempfile

    seen: dict[str, str] = {}
    for option, path in outputs.items():
        if path is None or path == "-":
            continue
        real = os.path.realpath(path)
        if real in seen:
            raise ValueError(f"{seen[real]} and {option} name the same file {path!r}; give "
                             f"each output its own file")
        seen[real] = option
        for source in inputs:
            if os.path.exists(source) and os.path.realpath(source) == real:
                raise ValueError(f"{option} {path!r} is an input of this command; writing "
                                 f"it would overwrite it: choose another file")
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            raise ValueError(f"{option} {path!r} is a folder; give a file name in it")
        if not os.path.isdir(folder):
            raise ValueError(f"{option} {path!r}: the folder {folder!r} does not exist; "
                             f"create it first")
        if os.path.exists(path) and not os.access(path, os.W_OK):
            raise ValueError(f"{option} {path!r} exists and is read-only")
        try:
            with tempfile.TemporaryFile(dir=folder):
                pass
        except OSError as exc:
            raise ValueError(f"{option} {path!r}: cannot write in the folder {folder!r} "
                             f"({exc.strerror or exc})") from None
