"""The robust default on a Dask cluster: :class:`DaskSPLBoostClassifierCV`.

A package laid out as XGBoost's ``xgboost.dask``, whose distributed engine it trains
through (optional extra ``dask``: ``pip install 'robust-boosting[dask]'``):

- :mod:`~robust_boosting.dask.estimator`: :class:`DaskSPLBoostClassifierCV` and
  :class:`WorkerFailedError`;
- :mod:`~robust_boosting.dask.objective`: what runs inside XGBoost's engine, the
  self-paced objective (:class:`SelfPacedObjective`), the held-out metric
  (:class:`HeldOutLogLoss`) and global quantiles from histograms summed over the
  workers (:func:`top_threshold`);
- :mod:`~robust_boosting.dask.data`: folds as a hash of each row's position
  (:func:`fold_of_rows`), per-partition maps and reductions;
- :mod:`~robust_boosting.dask.engine`: XGBoost's parameters, one distributed fit, and
  the quiet start of its collective;
- :mod:`~robust_boosting.dask.placement`: each partition on a fixed worker (the same
  model from fit to fit), the watch for a lost worker (:class:`WorkerFailedError`);
- :mod:`~robust_boosting.dask.predict`: predictions and contributions.

Importing this package needs neither Dask nor XGBoost; fitting does.
"""

from .data import fold_of_rows
from .estimator import DaskSPLBoostClassifierCV, WorkerFailedError
from .objective import HeldOutLogLoss, SelfPacedObjective, top_threshold

__all__ = ["DaskSPLBoostClassifierCV", "HeldOutLogLoss", "SelfPacedObjective", "WorkerFailedError",
           "top_threshold", "fold_of_rows"]
