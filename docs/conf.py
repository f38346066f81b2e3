"""Sphinx configuration of the robust-boosting documentation site.

Build (from the repository root, with ``pip install ".[docs]"``)::

    sphinx-build -W --keep-going -n -b html docs docs/_build/html

The package is imported as installed (no ``sys.path`` edits: the compiled kernels live in
the installed copy). Nothing is fetched from the network: no intersphinx.
"""

import os
import re
import sys
import warnings
from datetime import date
from pathlib import Path

import robust_boosting

sys.path.insert(0, str(Path(__file__).parent / "_ext"))  # this site's own helpers

project = "robust-boosting"
author = "robust-boosting developers"
copyright = f"{date.today().year}, {author}"  # noqa: A001
release = robust_boosting.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.autosectionlabel",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
    "rb_refs",
    "rb_mathml",
]
# formulas become MathML when the site is built (docs/_ext/rb_mathml.py): no MathJax from
# a CDN, so the pages read the same offline
html_math_renderer = "mathml"

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
templates_path = ["_templates"]
exclude_patterns = [
    "_build",
    "examples/*",  # the gallery's sources; sphinx-gallery renders them into auto_examples/
    "auto_examples/*.ipynb",
    "auto_examples/*.py",
    "auto_examples/*.zip",
    "auto_examples/*.md5",
    "**/.ipynb_checkpoints",
]
# the reports that `robust-boosting report` generates go from a title straight to level-3
# headings; they are generated files, not edited by hand
suppress_warnings = ["myst.header"]

# -- autodoc / autosummary / numpydoc ----------------------------------------------------
autosummary_generate = True
autosummary_imported_members = False
# members are listed by the class template (docs/_templates/autosummary/class.rst), so that
# an ``automodule`` shows a module's docstring only
autodoc_default_options = {}
autodoc_typehints = "none"  # the numpydoc "Parameters" sections state the types
autodoc_member_order = "groupwise"
numpydoc_show_class_members = False  # autodoc lists the members
numpydoc_show_inherited_class_members = False
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = True
numpydoc_xref_param_type = False

# -- references: every cross-reference must resolve (-n), external ones are plain text --
nitpicky = True
nitpick_ignore_regex = [
    # other projects' objects: no intersphinx (the build does not touch the network)
    (r"py:.*", r"(numpy|np|scipy|sklearn|pandas|pd|dask|distributed|xgboost|matplotlib"
               r"|skops|joblib|cleanlab|lightgbm|logging|typing|collections|pathlib|os"
               r"|sqlite3|concurrent|dataclasses|numbers|io|argparse|shap)(\..*)?"),
    (r"py:.*", r"(int|float|str|bool|dict|list|tuple|set|bytes|object|None|callable"
               r"|Callable|Any|Sequence|Iterable|Iterator|Mapping|NDArray|ArrayLike"
               r"|ValueError|TypeError|UserWarning|RuntimeError|KeyError|Exception|Path)"),
]

# sections are referenced as :ref:`guide:Command line` (the page, then the heading)
autosectionlabel_prefix_document = True
autosectionlabel_maxdepth = 2

# -- MyST: the Markdown pages (design records, results, guide) ----------------------------
myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 4

# -- sphinx-gallery: every example runs at build time --------------------------------------
os.environ.setdefault("OMP_NUM_THREADS", "1")
warnings.filterwarnings("ignore", message="Matplotlib is currently using agg")
sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "matplotlib_animations": False,
    "show_memory": False,
    "reset_modules": ("matplotlib",),
    # the figures robust_boosting.plotting returns (docs/_ext/rb_gallery.py), then pyplot's
    "image_scrapers": ("rb_gallery.figures_scraper", "matplotlib"),
    "abort_on_example_error": False,
    "backreferences_dir": "generated/backreferences",
    "doc_module": ("robust_boosting",),
    "inspect_global_variables": False,
    "write_computation_times": False,  # its page loads scripts from CDNs
    "only_warn_on_example_error": False,
}

# -- HTML ------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"robust-boosting {release}"
html_static_path = ["_static"]
html_css_files = ["custom.css"]
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "navbar_align": "left",
    "header_links_before_dropdown": 5,
    # the examples' code runs to 100 characters a line: no page outline beside it
    "secondary_sidebar_items": {"auto_examples/*": []},
    "footer_start": ["copyright"],
    "footer_end": [],
}
html_show_sourcelink = False
# an API page is reached from the API reference's tables; its own outline is on the right,
# and the list of every other object beside it would only narrow the signature
html_sidebars = {"generated/*": []}


def _constructor_parameters() -> set[str]:
    """Every constructor parameter of the public estimators."""
    import inspect

    import robust_boosting.dask

    names = set()
    for module in (robust_boosting, robust_boosting.dask):
        for name in module.__all__:
            obj = getattr(module, name)
            if isinstance(obj, type) and hasattr(obj, "get_params"):
                names |= set(inspect.signature(obj).parameters)
    return names


#: class attributes named as a constructor parameter are the fallbacks of model files
#: saved before the parameter existed, not something to set: the pages leave them out
_PARAMETERS = _constructor_parameters()
#: members inherited from scikit-learn that the estimators' pages show
_SKLEARN_MEMBERS = {"get_params", "set_params", "score"}


def _skip_member(app, what, name, obj, skip, options):
    """Leave out scikit-learn's metadata-routing methods (``set_fit_request``, ...) and the
    other members inherited from scikit-learn or Python, except ``get_params``,
    ``set_params`` and ``score``."""
    if re.fullmatch(r"set_\w+_request", name) or name == "get_metadata_routing":
        return True
    if what != "class" or name in _SKLEARN_MEMBERS:
        return None
    if name in _PARAMETERS and isinstance(obj, (str, int, float, bool, type(None))):
        return True
    if hasattr(BaseException, name):  # args, with_traceback, add_note of the exceptions
        return True
    module = getattr(obj, "__module__", None) or ""
    if callable(obj) and not module.startswith("robust_boosting"):
        return True
    return None


_SKLEARN_REF = re.compile(r":(?:ref|term):`([^`<]*?)\s*(?:<[^`>]*>)?`")


def _plain_sklearn_refs(app, what, name, obj, options, lines):
    """scikit-learn's own docstrings (``score``, ``get_params``) link to its user guide by
    ``:ref:``/``:term:``; without intersphinx, keep the words and drop the link."""
    if (getattr(obj, "__module__", None) or "").startswith("sklearn"):
        lines[:] = [_SKLEARN_REF.sub(r"\1", line) for line in lines]


def setup(app):
    app.connect("autodoc-skip-member", _skip_member)
    app.connect("autodoc-process-docstring", _plain_sklearn_refs)
