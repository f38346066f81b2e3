"""A sphinx-gallery image scraper for the figures of :mod:`robust_boosting.plotting`.

The library's plotting functions build their figures with matplotlib's object API and
never register them with ``pyplot`` (so they work on any backend, in any thread), so
sphinx-gallery's own scraper, which reads ``pyplot``'s figures, does not see them. This
one saves every such ``Figure`` that a cell leaves in the example's namespace.
"""

from __future__ import annotations

from matplotlib.figure import Figure
from sphinx_gallery.scrapers import figure_rst

#: per example, the figures already shown (kept alive, so that identity is meaningful)
_SHOWN: dict[str, list[Figure]] = {}


def figures_scraper(block, block_vars, gallery_conf):
    """Runs before sphinx-gallery's matplotlib scraper, while ``pyplot``'s figures of the
    cell are still open: those are left to it (and remembered, so that a later cell does
    not show them again once they are closed)."""
    import matplotlib.pyplot as plt

    shown = _SHOWN.setdefault(str(block_vars["src_file"]), [])
    shown.extend(plt.figure(num) for num in plt.get_fignums())
    new = [value for value in block_vars["example_globals"].values()
           if isinstance(value, Figure) and not any(value is old for old in shown)]
    paths = []
    for fig, path in zip(new, block_vars["image_path_iterator"], strict=False):
        fig.savefig(path, dpi=100, bbox_inches="tight")
        shown.append(fig)
        paths.append(path)
    return figure_rst(paths, gallery_conf["src_dir"])
