"""The layout's size limits (issue 55): small modules, no oversized kernels, a short README."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "robust_boosting"
MAX_PY_LINES = 800
MAX_CYTHON_LINES = 1500
MAX_README_LINES = 150


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _cython_files() -> list[Path]:
    return sorted(p for ext in ("*.pyx", "*.pxd") for p in SRC.rglob(ext))


def test_no_python_module_over_800_lines():
    long = {str(p.relative_to(ROOT)): n for p in sorted(SRC.rglob("*.py"))
            if (n := _lines(p)) > MAX_PY_LINES}
    assert not long, f"modules over {MAX_PY_LINES} lines: {long}"


def test_no_cython_file_over_1500_lines():
    long = {str(p.relative_to(ROOT)): n for p in _cython_files()
            if (n := _lines(p)) > MAX_CYTHON_LINES}
    assert not long, f"Cython files over {MAX_CYTHON_LINES} lines: {long}"


def test_no_def_statement_in_cython():
    pattern = re.compile(r"^\s*DEF\s+\w+\s*=", re.M)
    found = [str(p.relative_to(ROOT)) for p in _cython_files()
             if pattern.search(p.read_text(encoding="utf-8"))]
    assert not found, f"compile-time DEF constants in {found}"


def test_kernels_share_a_pxd():
    assert list(SRC.rglob("*.pxd")), "no .pxd declares the kernels' shared parts"


def test_readme_at_most_150_lines():
    assert _lines(ROOT / "README.md") <= MAX_README_LINES
