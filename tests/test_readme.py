"""The README's Python example runs and prints the numbers its comments quote."""

import contextlib
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def _matches(printed: float, quoted: str) -> bool:
    """``quoted`` is ``printed`` rounded as written, or as a percentage."""
    decimals = len(quoted.split(".")[1]) if "." in quoted else 0
    return any(round(scale * printed, decimals) == float(quoted) for scale in (1, 100))


@pytest.mark.skipif(not README.is_file(), reason="README.md not beside the tests")
def test_readme_example_prints_what_its_comments_say():
    blocks = _python_blocks(README.read_text(encoding="utf-8"))
    assert blocks, "the README has no Python example"
    code = blocks[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
    printed = out.getvalue().splitlines()
    quoted = [line.split("#", 1)[1] for line in code.splitlines()
              if line.startswith("print(") and "#" in line]
    assert len(printed) == len(quoted) == 2
    for got, comment in zip(printed, quoted, strict=True):
        values = [float(v) for v in got.split()]
        claims = NUMBER.findall(comment)
        assert len(values) == len(claims), (got, comment)
        for value, claim in zip(values, claims, strict=True):
            assert _matches(value, claim), f"README says {claim}, the example prints {value}"
