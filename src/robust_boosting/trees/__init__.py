"""Fast histogram decision trees, the default weak learner of the boosters.

Boosting fits hundreds of small trees on the same data with different sample
weights.  The package bins the data once (:class:`BinMapper`, at most 255
quantile bins per feature plus one bin for missing values, ``uint8`` codes held
in a :class:`BinnedData`) and grows each tree from weighted histograms with
compiled kernels (``trees/_*.pyx``, one Cython module per job, built by
``pip install``).

Contract with the boosters: call ``Xp = estimator.prepare_data(X)`` once per
fit, then every round ``clone(estimator).fit(Xp, y, sample_weight=w)`` and
``predict(Xp)`` / ``predict_proba(Xp)``; new raw data can be passed to
``predict(X)`` directly and gives exactly the same result as its binned form.
When the booster was fitted on a DataFrame with categorical columns of more than two
categories it calls ``prepare_data(X, n_categories=...)`` for those: each category gets
its own bin and the trees split such a feature into a set of categories and the rest
(LightGBM-style category partitioning), stored per node as a bitset. A column of two
categories is binned and split as its codes 0 and 1, the same partitions.

The package is split by job: :mod:`.binning` (:class:`BinMapper`,
:class:`BinnedData`), :mod:`.growing` (:class:`HistTree` and the grower),
:mod:`._base` (shared parameters, fit and prediction), :mod:`.estimators` and
:mod:`.batched` (many trees on the same binned rows grown in one compiled call) and
:mod:`.shared` (:class:`SharedSymmetricTree`, one symmetric tree with a value per class
for a multiclass Newton round).
"""

from ._checks import _check_sample_weight, _encode_classes  # noqa: F401 - used by tests
from .binning import BinMapper, BinnedData
from .estimators import HistTreeClassifier, HistTreeRegressor
from .growing import HistTree
from .shared import SharedSymmetricTree

__all__ = [
    "BinMapper",
    "BinnedData",
    "HistTree",
    "HistTreeClassifier",
    "HistTreeRegressor",
    "SharedSymmetricTree",
]
