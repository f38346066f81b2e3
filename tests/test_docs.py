"""The documentation site (issue 59): every public name has an API entry, the docstrings'
examples run, and the site builds with no warning.

The build test runs ``sphinx-build -W --keep-going -n`` (warnings are errors, every
cross-reference must resolve; the gallery's examples run) when the ``docs`` extra is
installed, and is skipped otherwise.
"""

import doctest
import importlib
import importlib.util
import inspect
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import robust_boosting
import robust_boosting.dask

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
API = DOCS / "api.rst"
GALLERY = DOCS / "examples"

#: modules whose public functions and classes must all have an API entry
DOCUMENTED_MODULES = ("robust_boosting", "robust_boosting.dask", "robust_boosting.label_issues",
                      "robust_boosting.noise", "robust_boosting.datasets",
                      "robust_boosting.losses", "robust_boosting.self_paced",
                      "robust_boosting.steps", "robust_boosting.plotting",
                      "robust_boosting.interfaces")

needs_docs = pytest.mark.skipif(not API.is_file(), reason="docs/ not beside the tests")


def _api_entries() -> set[str]:
    """Dotted names listed by the autosummary tables of docs/api.rst."""
    entries, module, in_table = set(), None, False
    for line in API.read_text(encoding="utf-8").splitlines():
        if m := re.match(r"\.\. currentmodule:: (\S+)", line):
            module = m.group(1)
        elif line.startswith(".. autosummary::"):
            in_table = True
        elif in_table and line.strip() and not line.startswith(" "):
            in_table = False
        elif in_table and re.fullmatch(r"   [A-Za-z_]\w*", line):
            entries.add(f"{module}.{line.strip()}")
    return entries


def _public_objects(module_name: str) -> list[str]:
    module = importlib.import_module(module_name)
    return [f"{module_name}.{name}" for name in module.__all__
            if callable(getattr(module, name)) or inspect.isclass(getattr(module, name))]


@needs_docs
@pytest.mark.parametrize("module_name", DOCUMENTED_MODULES)
def test_every_public_name_has_an_api_entry(module_name):
    missing = sorted(set(_public_objects(module_name)) - _api_entries())
    assert not missing, f"public names without an entry in docs/api.rst: {missing}"


@needs_docs
def test_api_entries_exist():
    for entry in _api_entries():
        module, _, name = entry.rpartition(".")
        assert hasattr(importlib.import_module(module), name), entry


#: a module whose name (or a parent's) starts with an underscore: not for users to import
PRIVATE_MODULE = re.compile(r"robust_boosting(?:\.[A-Za-z]\w*)*\._[A-Za-z]\w*")


@needs_docs
def test_api_reference_names_no_private_module():
    """The API reference documents public modules only (issue 70: it listed the loop's
    contracts from ``robust_boosting._interfaces``)."""
    private = sorted(set(PRIVATE_MODULE.findall(API.read_text(encoding="utf-8"))))
    assert not private, f"docs/api.rst names private modules: {private}"


#: "A, and B, C": an "and" before an item that is not the last of its list
MISPLACED_AND = re.compile(r"`,\s+and\s+:\w+:`[^`]+`,")


@needs_docs
def test_no_misplaced_and_in_lists_of_classes():
    """The home page's estimator table read "AdaBoostClassifier, and RealBoostClassifier,
    GentleBoostClassifier, ..." (issue 70)."""
    pages = [ROOT / "README.md", *DOCS.glob("*.rst"), *DOCS.glob("*.md"),
             *(DOCS / "user_guide").glob("*.rst")]
    bad = [p.name for p in pages if p.is_file()
           and MISPLACED_AND.search(p.read_text(encoding="utf-8"))]
    assert not bad, f"a list with 'and' before an item that is not its last: {bad}"


def _examples_of(obj) -> list[doctest.DocTest]:
    finder = doctest.DocTestFinder(recurse=False)
    return [t for t in finder.find(obj, globs={}) if t.examples]


ESTIMATORS = [getattr(robust_boosting, n) for n in robust_boosting.__all__
              if inspect.isclass(getattr(robust_boosting, n))
              and hasattr(getattr(robust_boosting, n), "fit")]


@pytest.mark.parametrize("obj", ESTIMATORS + [robust_boosting.dask.DaskSPLBoostClassifierCV],
                         ids=lambda o: o.__name__)
def test_estimator_docstring_has_an_example(obj):
    assert _examples_of(obj), f"{obj.__name__}'s docstring has no Examples section"


@pytest.mark.parametrize(
    "obj", ESTIMATORS + [robust_boosting.save_model, robust_boosting.load_model],
    ids=lambda o: o.__name__)
def test_docstring_examples_run(obj):
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for test in _examples_of(obj):
            runner.run(test)
    assert runner.failures == 0, f"{runner.failures} failing example(s) in {obj.__name__}"


def _docs_extra_missing() -> list[str]:
    return [m for m in ("sphinx", "numpydoc", "myst_parser", "sphinx_gallery",
                        "pydata_sphinx_theme") if importlib.util.find_spec(m) is None]


def broken_viewcode_backlinks(site: Path) -> list[str]:
    """The "[docs]" links of the highlighted-source pages (``_modules/``, sphinx.ext.viewcode)
    whose page or anchor does not exist in the built ``site``.

    viewcode writes each back-link's anchor from the module name the *first* documented
    object of that source file was listed under, so an object listed under another module
    than its siblings (e.g. a class re-exported by the package) breaks theirs (issue 70).
    """
    from urllib.parse import unquote

    anchors: dict[Path, set[str] | None] = {}
    broken = []
    for page in sorted((site / "_modules").rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        for href in re.findall(r'<a class="viewcode-back" href="([^"]+)"', html):
            target, _, anchor = href.partition("#")
            path = (page.parent / unquote(target)).resolve()
            if path not in anchors:
                anchors[path] = (set(re.findall(r'\bid="([^"]+)"', path.read_text(
                    encoding="utf-8"))) if path.is_file() else None)
            ids = anchors[path]
            if ids is None or (anchor and unquote(anchor) not in ids):
                broken.append(f"{page.relative_to(site)} -> {href}")
    return broken


@needs_docs
@pytest.mark.skipif(bool(_docs_extra_missing()), reason="the docs extra is not installed")
def test_site_builds_without_warnings(tmp_path):
    """The README's test command installs the docs extra, so CI builds the site here."""
    out = tmp_path / "html"
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MPLBACKEND": "Agg"}
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-b", "html",
         "-d", str(tmp_path / "doctrees"), str(DOCS), str(out)],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=900)
    assert proc.returncode == 0, proc.stderr[-6000:]
    # every public estimator and the Dask estimator have a page
    pages = {p.stem for p in (out / "generated").glob("*.html")}
    expected = {f"robust_boosting.{n}" for n in robust_boosting.__all__ if n != "__version__"}
    expected.add("robust_boosting.dask.DaskSPLBoostClassifierCV")
    assert not expected - pages, sorted(expected - pages)
    # every "[docs]" link of the source pages leads to its object's entry
    broken = broken_viewcode_backlinks(out)
    assert not broken, f"{len(broken)} broken viewcode back-links: {broken[:10]}"
    # every gallery example ran and shows output or a figure
    for script in sorted(GALLERY.glob("plot_*.py")):
        html = (out / "auto_examples" / f"{script.stem}.html").read_text(encoding="utf-8")
        assert "sphx-glr-script-out" in html or "sphx-glr-single-img" in html \
            or "sphx-glr-multi-img" in html, script.name
