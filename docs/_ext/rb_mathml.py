"""Math as MathML, written at build time: no MathJax script fetched from a CDN.

Sphinx's default math renderer (MathJax) loads its script from a CDN when a page is
viewed, so offline the pages show raw TeX. This renderer converts each formula with
docutils' own LaTeX-to-MathML translator when the site is built; browsers render MathML
natively. A formula the translator cannot read is shown as its TeX source, as code.
"""

from __future__ import annotations

import re

from docutils import nodes
from docutils.utils.math.latex2mathml import tex2mathml


def _mathml(latex: str, block: bool) -> str:
    try:
        return tex2mathml(latex, as_block=block)
    except Exception:  # noqa: BLE001 - any formula docutils cannot translate: its source
        return f'<code class="math">{nodes.Text(latex).astext()}</code>'


def visit_math(self, node):
    self.body.append(_mathml(node.astext(), block=False))
    raise nodes.SkipNode


def visit_displaymath(self, node):
    parts = [p for p in re.split(r"\n\s*\n", node.astext()) if p.strip()]
    self.body.append(self.starttag(node, "div", CLASS="math-display"))
    self.body.extend(_mathml(part.strip(), block=True) for part in parts)
    self.body.append("</div>\n")
    raise nodes.SkipNode


def setup(app):
    app.add_html_math_renderer("mathml", (visit_math, None), (visit_displaymath, None))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
