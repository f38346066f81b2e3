"""The repository stays small (issue 70): no tracked file over 5 MB, at most 25 MB in all,
and no compiled binary (a wheel, a shared library or an executable) under version control.

Sizes are those of the blobs in git's index (what a commit records), listed by
``git ls-files``; outside a git checkout (e.g. an unpacked sdist) the test is skipped.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAX_FILE_BYTES = 5_000_000
MAX_TOTAL_BYTES = 25_000_000
BINARY_SUFFIXES = (".whl", ".so", ".pyd", ".dylib", ".dll", ".exe")


def _git(*args: str, stdin: bytes | None = None) -> bytes:
    return subprocess.run(["git", "-C", str(ROOT), *args], input=stdin, check=True,
                          capture_output=True, timeout=60).stdout


@pytest.fixture(scope="module")
def tracked() -> dict[str, int]:
    """``{path: size in bytes}`` of every file in git's index."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed: the tracked files cannot be listed")
    try:
        top = _git("rev-parse", "--show-toplevel").decode().strip()
    except subprocess.CalledProcessError:
        pytest.skip("not a git checkout (e.g. an unpacked sdist): no tracked files to check")
    if Path(top).resolve() != ROOT:
        pytest.skip(f"{ROOT} is not the top of its git checkout ({top})")
    entries = [e.split(b"\t", 1) for e in _git("ls-files", "-s", "-z").split(b"\0") if e]
    paths = [path.decode() for _, path in entries]
    blobs = b"".join(meta.split()[1] + b"\n" for meta, _ in entries)
    sizes = [int(line.split()[2]) if line.split()[1] == b"blob" else 0
             for line in _git("cat-file", "--batch-check", stdin=blobs).splitlines()]
    assert len(sizes) == len(paths)
    return dict(zip(paths, sizes, strict=True))


def _mb(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


def test_no_tracked_file_over_5_mb(tracked):
    big = {p: _mb(n) for p, n in tracked.items() if n > MAX_FILE_BYTES}
    assert not big, f"tracked files over {_mb(MAX_FILE_BYTES)}: {big}"


def test_tracked_total_at_most_25_mb(tracked):
    total = sum(tracked.values())
    largest = sorted(tracked.items(), key=lambda kv: -kv[1])[:5]
    assert total <= MAX_TOTAL_BYTES, (
        f"the tracked files hold {_mb(total)} (limit {_mb(MAX_TOTAL_BYTES)}); the largest: "
        + ", ".join(f"{p} ({_mb(n)})" for p, n in largest))


def test_no_compiled_binary_is_tracked(tracked):
    binaries = sorted(p for p in tracked if p.lower().endswith(BINARY_SUFFIXES))
    assert not binaries, f"compiled binaries under version control: {binaries}"
