"""Sphinx helpers of the robust-boosting site: citations and references to internal names.

- Docstrings cite the papers as ``[SPL]_``, ``[CL]_``, ...; a module docstring defines
  them, and the classes of the module cite them without repeating the definition.
  ``docs/references.rst`` defines every label once for the whole site, so each citation
  resolves there (numpydoc gives a docstring's own definitions a unique name).
  A docstring's own definition of a label it does not cite is dropped (it is on the
  references page), instead of warning that it is not referenced.
- With ``nitpicky``, every cross-reference must resolve. A reference to a name of
  robust_boosting that the API reference does not document (a private helper such as
  ``BaseBoostingClassifier``, or a public class under the module path it is defined in)
  is resolved by importing it: if the object is documented under another name, the
  reference links there; if it exists but is not documented, it is rendered as code.
  A reference to a name that does not exist still warns.
"""

from __future__ import annotations

import importlib
import re

_CITE_DEF = re.compile(r"^(\s*)\.\. \[([A-Za-z][\w-]*)\]")
_CITE_REF = re.compile(r"\[([A-Za-z][\w-]*)\]_")


def drop_uncited_definitions(app, what, name, obj, options, lines):
    used = set(_CITE_REF.findall("\n".join(lines)))
    out, skip_indent = [], None
    for line in lines:
        if skip_indent is not None:
            if not line.strip() or len(line) - len(line.lstrip()) > skip_indent:
                if line.strip():
                    continue
                skip_indent = None
            else:
                skip_indent = None
        m = _CITE_DEF.match(line)
        if m and m.group(2) not in used:
            skip_indent = len(m.group(1))
            continue
        out.append(line)
    # a "References" heading left with nothing under it goes too
    lines[:] = _without_empty_references(out)


def _is_heading(lines: list[str], i: int) -> bool:
    return (i + 1 < len(lines) and lines[i].strip() != ""
            and set(lines[i + 1].strip()) == {"-"})


def _without_empty_references(lines: list[str]) -> list[str]:
    out, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "References" and _is_heading(lines, i):
            j = i + 2
            while j < len(lines) and not lines[j].strip():
                j += 1
            if j == len(lines) or _is_heading(lines, j):
                i = j
                continue
        out.append(lines[i])
        i += 1
    return out


def _resolve(path: str):
    """The Python object named by a dotted ``path``, or raise."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(path)


def _documented_by_id(env) -> dict[int, str]:
    cache = getattr(env, "_rb_documented", None)
    if cache is None:
        cache = {}
        for fullname, entry in env.get_domain("py").objects.items():
            if entry.objtype not in {"class", "function", "method", "exception", "module"}:
                continue
            try:
                obj = _resolve(fullname)
            except Exception:  # noqa: BLE001 - an object autodoc saw but we cannot import
                continue
            cache.setdefault(id(obj), (fullname, entry.objtype))
        env._rb_documented = cache
    return cache


def _context_objects(node) -> list[str]:
    """Dotted names of the objects whose documentation holds ``node``."""
    names = []
    mod, cls = node.get("py:module"), node.get("py:class")
    if mod and cls:
        names.append(f"{mod}.{cls}")
    doc = node.get("refdoc", "")
    if doc.startswith("generated/"):
        names.append(doc.split("/", 1)[1])
    return names


def _candidates(target: str, node) -> list[str]:
    target = target.lstrip("~.")
    mod, cls = node.get("py:module"), node.get("py:class")
    out = []
    if mod and cls:
        out.append(f"{mod}.{cls}.{target}")
    if mod:
        out.append(f"{mod}.{target}")
    for name in _context_objects(node):
        try:
            obj = _resolve(name)
        except Exception:  # noqa: BLE001 - no such object: no candidates from it
            continue
        for owner in getattr(obj, "__mro__", (obj,)):
            defining = getattr(owner, "__module__", None) or name
            if defining.startswith("robust_boosting"):
                out.append(f"{defining}.{target}")
                out.append(f"{defining.rsplit('.', 1)[0]}.{target}")
    out += [target, f"robust_boosting.{target}"]
    return out


def _fitted_attribute(target: str, node) -> bool:
    """``target`` is a fitted attribute (``name_``) that its class's docstring names."""
    name = target.lstrip("~.").rsplit(".", 1)[-1]
    if not (name.endswith("_") and not name.startswith("_")):
        return False
    owner = target.lstrip("~.").rsplit(".", 1)[0] if "." in target else None
    for path in ([owner, f"robust_boosting.{owner}"] if owner else _context_objects(node)):
        try:
            obj = _resolve(path)
        except Exception:  # noqa: BLE001 - not this candidate
            continue
        if f"{name} :" in (obj.__doc__ or "") or f"{name}," in (obj.__doc__ or ""):
            return True
    return False


def resolve_internal(app, env, node, contnode):
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"]
    if node.get("reftype") == "attr" and _fitted_attribute(target, node):
        return contnode  # set by fit: no attribute of the class to link to
    for path in _candidates(target, node):
        if not path.startswith("robust_boosting"):
            continue
        try:
            obj = _resolve(path)
        except Exception:  # noqa: BLE001 - not this candidate
            continue
        documented = _documented_by_id(env).get(id(obj)) if callable(obj) or isinstance(
            obj, type) or type(obj).__name__ == "module" else None
        if documented is not None:
            fullname, objtype = documented
            role = {"module": "mod", "function": "func", "method": "meth"}.get(objtype, "class")
            ref = env.get_domain("py").resolve_xref(
                env, node.get("refdoc", ""), app.builder, role, fullname, node, contnode)
            if ref is not None:
                return ref
        # it exists, and the API reference does not document it: plain code, no link
        return contnode
    return None


def setup(app):
    # before numpydoc renames each docstring's citations (numpydoc uses the default 500)
    app.connect("autodoc-process-docstring", drop_uncited_definitions, priority=400)
    app.connect("missing-reference", resolve_internal, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
