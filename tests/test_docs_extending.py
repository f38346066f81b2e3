"""The ``python`` examples of docs/extending.md run (in order, in one namespace) and pass their asserts."""

import re
import warnings
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "extending.md"


def _blocks():
    return re.findall(r"^```python\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.S | re.M)


def test_extending_has_the_three_examples():
    text = DOC.read_text(encoding="utf-8")
    for heading in ("## A custom margin loss", "## A custom self-paced regularizer",
                    "## A custom weak learner"):
        assert heading in text
    assert len(_blocks()) >= 3


def test_extending_examples_run():
    namespace: dict = {"__name__": "docs_extending"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i, code in enumerate(_blocks()):
            exec(compile(code, f"{DOC.name}[block {i}]", "exec"), namespace)  # noqa: S102
    assert "SigmoidLoss" in namespace and "ExpDecayRegularizer" in namespace
