"""The benchmark scripts use robust_boosting's public API only.

Every ``benchmarks/**/*.py`` is parsed (not run) and refused if it imports a
``_``-prefixed name or module of robust_boosting, reads or writes a ``_``-prefixed
attribute of a robust_boosting module or object it imported, assigns to an attribute of
one (monkeypatching), or patches robust_boosting with ``mock.patch`` / ``setattr``.
A script that needs a private name measures an internal, not the library a user gets:
it belongs in git history, cited by its decision record.
"""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((ROOT / "benchmarks").rglob("*.py"))
PACKAGE = "robust_boosting"
PRIVATE_PATH = re.compile(rf"\b{PACKAGE}(\.\w+)*\._(?!_)\w")


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _ours(module: str | None) -> bool:
    return module is not None and (module == PACKAGE or module.startswith(PACKAGE + "."))


def _root(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def violations(source: str) -> list[str]:
    """What in ``source`` reaches past robust_boosting's public API (empty: nothing)."""
    tree = ast.parse(source)
    bound: set[str] = set()  # local names of robust_boosting modules and objects
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _ours(alias.name):
                    if any(_private(part) for part in alias.name.split(".")):
                        found.append(f"line {node.lineno}: import {alias.name}")
                    bound.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.ImportFrom) and _ours(node.module):
            if any(_private(part) for part in node.module.split(".")):
                found.append(f"line {node.lineno}: from {node.module} import ...")
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"line {node.lineno}: from {node.module} import {alias.name}")
                bound.add(alias.asname or alias.name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr) and _root(node) in bound:
            found.append(f"line {node.lineno}: private attribute .{node.attr}")
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and _root(target) in bound:
                    found.append(f"line {node.lineno}: assignment to .{target.attr}")
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            patching = name in {"patch", "object", "dict", "multiple", "setattr", "setitem"}
            first = node.args[0] if node.args else None
            if patching and first is not None and (
                    _root(first) in bound
                    or (isinstance(first, ast.Constant) and isinstance(first.value, str)
                        and _ours(first.value.split(":")[0]))):
                found.append(f"line {node.lineno}: {name}(...) patches robust_boosting")
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and PRIVATE_PATH.search(node.value) and "\n" not in node.value):
            found.append(f"line {node.lineno}: private module path {node.value!r}")
    return found


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_benchmark_uses_public_api_only(path):
    assert not violations(path.read_text(encoding="utf-8")), violations(
        path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("source", [
    "from robust_boosting._batched import fit_batched",
    "from robust_boosting.splboost_cv import _anchor_floors",
    "import robust_boosting._tree_kernels as k",
    "from robust_boosting.trees import binning\nbinning._kernel_threads(1)",
    "from robust_boosting import splboost_cv as cvm\ncvm._SAMPLE_COUNT = 'exact'",
    "from robust_boosting import splboost_cv as cvm\ncvm.thing = 1",
    "from unittest import mock\nfrom robust_boosting import splboost_cv\n"
    "mock.patch.object(splboost_cv, 'x', 1)",
    "from unittest import mock\nmock.patch('robust_boosting.splboost_cv.x', 1)",
    "import robust_boosting\nsetattr(robust_boosting, 'x', 1)",
    "import importlib\nimportlib.import_module('robust_boosting._model_io')",
])
def test_the_check_catches_private_use(source):
    assert violations(source)


def test_the_check_allows_public_use():
    source = ("import robust_boosting\nfrom robust_boosting import SPLBoostClassifierCV\n"
              "from robust_boosting.splboost_cv import anchor_noise_rate\n"
              "est = SPLBoostClassifierCV(random_state=0)\nest.set_params(n_jobs=1)\n"
              "print(robust_boosting.__version__, est.noise_rate_, anchor_noise_rate)\n"
              "class A:\n    def _own(self):\n        self._x = 1\n")
    assert violations(source) == []
