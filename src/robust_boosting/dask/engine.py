"""XGBoost's side of the Dask estimator: its parameters, one distributed fit, a quiet start.

- :func:`xgb_params`: a search candidate as XGBoost's parameters (trees, units,
  objective, monotone constraints);
- :func:`train`: one ``xgboost.dask.train`` call, early-stopped on the held-out rows
  when asked;
- the quiet start: when XGBoost's communicator starts on a worker it writes a line
  ``Task [xgboost.dask-N]:tcp://... got rank N`` (a ``LOG(CONSOLE)`` of its C++
  collective, printed whatever XGBoost's ``verbosity``; in a Dask task's thread, where
  no Python log callback is registered, it goes to the worker's stderr, which a
  ``LocalCluster`` shares with the user's session). A fit that is not ``verbose``
  drops those lines: :func:`install_quiet_start` (run on each worker) wraps
  ``xgboost.dask.CommunicatorContext`` (:mod:`~robust_boosting.dask.quiet`) so that a
  fit flagged quiet (a key of its collective configuration, :class:`CommConfig`)
  registers, in the training thread, a log callback that drops that one line and
  writes every other message to stderr as before. Other fits are left as they are.
"""

from __future__ import annotations

import numpy as np

from .._auto_rules import PATIENCE
from .objective import HeldOutLogLoss

__all__ = ["CommConfig", "install_quiet_start", "train", "xgb_params"]

#: the key of the collective configuration that marks a quiet fit (XGBoost's C++
#: communicator ignores keys it does not know; the wrapped context removes it first)
QUIET_KEY = "robust_boosting_quiet"

#: the line dropped from a quiet fit (XGBoost's ``InitLog`` of its collective)
RANK_LINE = b" got rank "


def xgb_params(candidate: dict, n_classes: int, seed: int, *, device: str,
               n_jobs: int | None, monotone: np.ndarray | None = None) -> dict:
    """A search candidate as XGBoost's parameters.

    ``monotone`` (one -1/0/1 per feature, or None) is XGBoost's ``monotone_constraints``,
    its tuple form (the matrices carry no feature names)."""
    p = dict(tree_method="hist", learning_rate=candidate["learning_rate"], seed=seed,
             verbosity=0, device=device)
    if candidate["max_depth"] is None:
        p.update(grow_policy="lossguide", max_depth=0,
                 max_leaves=candidate["max_leaf_nodes"])
    else:
        p.update(max_depth=candidate["max_depth"],
                 max_leaves=candidate["max_leaf_nodes"] or 0)
    # in XGBoost's units (Hessian sums); "auto" is XGBoost's default of 1 for both
    p["min_child_weight"] = float(candidate["min_samples_leaf"])
    p["reg_lambda"] = float(candidate["l2_regularization"])
    if n_jobs is not None:
        p["nthread"] = int(n_jobs)
    if n_classes == 2:
        p.update(objective="binary:logistic", base_score=0.5)
    else:
        p.update(objective="multi:softprob", num_class=n_classes, base_score=0.5)
    if monotone is not None:
        p["monotone_constraints"] = "(" + ",".join(str(int(v)) for v in monotone) + ")"
    p["disable_default_eval_metric"] = 1  # the held-out score is HeldOutLogLoss
    return p


class CommConfig:
    """XGBoost's collective ``Config`` (``coll_cfg``), with a quiet fit's flag added to
    what each worker's communicator receives."""

    def __init__(self, config, *, quiet: bool):
        self._config = config
        self.quiet = quiet

    def __getattr__(self, name):
        return getattr(self._config, name)

    def get_comm_config(self, args: dict) -> dict:
        args = self._config.get_comm_config(args)
        if self.quiet:
            args[QUIET_KEY] = 1
        return args


def train(client, params: dict, dtrain, rounds: int, obj, k: int, *, timeout: int,
          quiet: bool, held_out: bool = False) -> dict:
    """One distributed fit (a lost worker is ``fit``'s to report).

    With ``held_out``, early stopping on :class:`HeldOutLogLoss` evaluated on ``dtrain``
    (the held-out rows weighted 0 there, their weights in ``label_upper_bound``).
    """
    import xgboost.dask as dxgb
    from xgboost.collective import Config

    extra = {}
    if held_out:
        extra = dict(evals=[(dtrain, "held_out")], early_stopping_rounds=PATIENCE,
                     custom_metric=HeldOutLogLoss(k, margin=obj is not None))
    return dxgb.train(client, params, dtrain, num_boost_round=rounds, obj=obj,
                      verbose_eval=False,
                      coll_cfg=CommConfig(Config(timeout=int(timeout)), quiet=quiet), **extra)


def install_quiet_start() -> None:
    """On a worker (``client.run``): let a fit flagged quiet start XGBoost's communicator
    without its rank line (:mod:`~robust_boosting.dask.quiet`, imported there: it needs
    XGBoost). Idempotent; fits not flagged quiet are unchanged."""
    from .quiet import install

    install()
