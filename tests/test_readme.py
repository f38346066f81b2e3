"""The README's Python examples run, print the numbers their comments quote, and warn of
nothing."""

import contextlib
import io
import os
import re
import warnings
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
NUMBER = re.compile(r"\d+(?:\.\d+)?")

pytestmark = pytest.mark.skipif(not README.is_file(), reason="README.md not beside the tests")


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def _matches(printed: float, quoted: str) -> bool:
    """``quoted`` is ``printed`` rounded as written, or as a percentage."""
    decimals = len(quoted.split(".")[1]) if "." in quoted else 0
    return any(round(scale * printed, decimals) == float(quoted) for scale in (1, 100))


@pytest.fixture(scope="module")
def readme_runs(tmp_path_factory):
    """Each Python block of the README run in order in one namespace, as a reader pasting
    them into one session would (in an empty folder: an example writes a model file), with
    its printed lines and every warning it issued."""
    blocks = _python_blocks(README.read_text(encoding="utf-8"))
    assert blocks, "the README has no Python example"
    namespace = {"__name__": "readme"}
    runs = []
    cwd = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("readme"))
    try:
        for code in blocks:
            out = io.StringIO()
            with warnings.catch_warnings(record=True) as caught, \
                    contextlib.redirect_stdout(out):
                warnings.simplefilter("always")
                exec(compile(code, "README.md", "exec"), namespace)
            runs.append((code, out.getvalue().splitlines(), caught))
    finally:
        os.chdir(cwd)
    return runs


def test_readme_example_prints_what_its_comments_say(readme_runs):
    code, printed, _ = readme_runs[0]
    quoted = [line.split("#", 1)[1] for line in code.splitlines()
              if line.startswith("print(") and "#" in line]
    assert len(printed) == len(quoted) == 2
    for got, comment in zip(printed, quoted, strict=True):
        values = [float(v) for v in got.split()]
        claims = NUMBER.findall(comment)
        assert len(values) == len(claims), (got, comment)
        for value, claim in zip(values, claims, strict=True):
            assert _matches(value, claim), f"README says {claim}, the example prints {value}"


def test_readme_examples_warn_of_nothing(readme_runs):
    """The save/load example printed a BoostingStoppedWarning (its labels were one split
    away from perfect, issue 70); a reader's first session shows no warning."""
    for code, _, caught in readme_runs:
        messages = [f"{w.category.__name__}: {w.message}" for w in caught]
        assert not messages, f"the README example {code.splitlines()[1]!r}... warns: {messages}"
