"""No import circle among the package's modules (module-level imports).

Each module of ``src/robust_boosting`` is read with :mod:`ast`; its module-level
``import`` / ``from ... import`` statements (outside functions and classes, ``if
TYPE_CHECKING:`` blocks excluded, other ``if``/``try`` blocks included) give the edges
of the graph of intra-package imports, which must have no cycle. ``from . import x``
counts as an import of the submodule ``x`` when there is one, else of the package.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = "robust_boosting"
ROOT = Path(__file__).resolve().parents[1] / "src" / PACKAGE


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _top_level_imports(tree: ast.Module):
    """The import statements executed when the module is imported."""
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                todo += node.body
            todo += node.orelse
        elif isinstance(node, ast.Try):
            todo += node.body + node.orelse + node.finalbody
            for handler in node.handlers:
                todo += handler.body


def import_graph() -> dict[str, set[str]]:
    """``module -> the package's modules it imports at module level``."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        is_pkg = path.name == "__init__.py"
        package = name if is_pkg else name.rpartition(".")[0]
        edges = set()
        for node in _top_level_imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    base = ".".join(base + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules
                           else base for alias in node.names]
            for target in targets:
                while target and target not in modules:  # a name inside a module
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges.add(target)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of modules (first = last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def _without_package_inits(graph):
    """The edges from a module to a package that contains it are the package's import of
    its own parts (``robust_boosting/__init__`` imports ``robust_boosting.x``, and ``x``
    imports ``from . import _loop_kernels``: ``robust_boosting`` is then already being
    imported, no circle of modules). Drop them."""
    return {m: {t for t in edges if not m.startswith(t + ".")} for m, edges in graph.items()}


def test_the_graph_is_read():
    graph = import_graph()
    assert "robust_boosting._boosting" in graph["robust_boosting.adaboost"]
    assert "robust_boosting.trees.binning" in graph["robust_boosting.trees._base"]


def test_no_cycle_of_module_level_imports():
    cycle = find_cycle(_without_package_inits(import_graph()))
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def test_the_check_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
