"""Design experiment: regularized trees (and more folds) in ``SPLBoostClassifierCV()``.

Every booster the estimator builds (the search's candidates and the final fit) gets
``HistTreeRegressor(min_samples_leaf=MSL)`` trees whose leaf values are shrunk towards
0 as gradient boosting's leaf L2 penalty does (XGBoost's ``lambda``): a leaf's value
``sum(w y) / sum(w)`` becomes ``sum(w y) / (sum(w) + LAM * w_mean)``, ``w_mean`` the
mean weight of the tree's weighted rows, so that ``LAM`` counts rows of average weight.
Splits are chosen as before; the shrinkage is emulated by wrapping the trees'
``_make_tree``, which the single and the batched fits share. ``CV`` sets the
estimator's ``cv``. The candidates are those of ``fold_average.py`` (the final model's
probabilities averaged with the search's fold models', weight ``W``; ``fold_0_best``
is the estimator alone)::

    MSL=5 LAM=3 CV=3 PYTHONPATH=src python benchmarks/design/regularized_trees.py \\
        --candidates fold_0_best fold_0.5_best fold_0.75_best --peers cleanlab \\
        --datasets bupa german heart ionosphere mammographic pima \\
        --rates 0 0.1 --kinds sym cc --splits 2 --rows reg_A.csv

Results: ``docs/noisy-default-design.md``, evidence item 13.
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fold_average  # noqa: E402

import robust_boosting.splboost_cv as splboost_cv  # noqa: E402
from robust_boosting.trees._base import _BaseHistTree  # noqa: E402

MSL = int(os.environ.get("MSL", "1"))
LAM = float(os.environ.get("LAM", "0"))
CV = int(os.environ.get("CV", "3"))


_plain_make_booster = splboost_cv._make_booster


def _make_booster(*args, **kwargs):
    """The estimator's booster, its trees with ``min_samples_leaf=MSL``."""
    return _plain_make_booster(*args, **kwargs).set_params(estimator__min_samples_leaf=MSL)


_plain_make_tree = _BaseHistTree._make_tree


def _shrunk_make_tree(self, grower, mapper, ybar):
    tree = _plain_make_tree(self, grower, mapper, ybar)
    if self._is_reg and LAM > 0:
        tot = np.array(grower.tot, dtype=np.float64)
        w = tot[:, 0]
        w_mean = w[0] / max(tot[0, -1], 1.0)
        tree.value = (tot[:, 1] + ybar * w) / (w + LAM * w_mean)
    return tree


splboost_cv._make_booster = _make_booster
_BaseHistTree._make_tree = _shrunk_make_tree
fold_average.SPLBoostClassifierCV = functools.partial(fold_average.SPLBoostClassifierCV, cv=CV)

if __name__ == "__main__":
    fold_average.bench.main(sys.argv[1:])
