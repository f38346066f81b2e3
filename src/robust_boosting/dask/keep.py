"""Keeping a fitted Dask estimator: clone with the client, pickle and save without it.

A ``distributed.Client`` cannot be copied or pickled, and the per-row fitted attributes
are dask collections whose data live on the cluster of the fit. :class:`KeptWithoutCluster`
gives the estimator what LightGBM's Dask estimators do: :func:`sklearn.base.clone` shares
the client, and pickling (so :func:`~robust_boosting.save_model` too) leaves it out.
"""

from __future__ import annotations

import numpy as np

from .data import require

#: The per-row fitted attributes: dask collections on the cluster of the fit, which
#: pickling and :func:`~robust_boosting.save_model` leave out.
CLUSTER_ATTRIBUTES: tuple[str, ...] = ("oof_proba_", "label_issue_scores_", "label_issues_",
                                       "suggested_labels_", "excluded_samples_")


class KeptWithoutCluster:
    """Mixin of :class:`~robust_boosting.dask.DaskSPLBoostClassifierCV` (first base)."""

    def __sklearn_clone__(self):
        """:func:`sklearn.base.clone`: the same client (shared, never copied: a client
        cannot be copied), every other parameter cloned as usual."""
        from sklearn.base import clone

        params = self.get_params(deep=False)
        client = params.pop("client")
        return type(self)(client=client, **{name: clone(value, safe=False)
                                            for name, value in params.items()})

    def __getstate__(self):
        """Pickle (and :func:`~robust_boosting.save_model`) without the cluster.

        The client is dropped (``client=None``: the loaded model finds the current one
        with ``distributed.default_client()`` when it needs one, or takes one with
        ``set_params(client=...)``), and so are the per-row attributes (see
        :data:`CLUSTER_ATTRIBUTES`), which are collections on the cluster of the fit.
        The booster is kept as XGBoost's own serialized model."""
        state = dict(super().__getstate__())  # (object's may be the instance's own dict)
        state["client"] = None
        for name in CLUSTER_ATTRIBUTES:  # (kept once computed to NumPy by the user)
            if name in state and not isinstance(state[name], np.ndarray):
                del state[name]
        booster = state.get("best_estimator_")
        if booster is not None:
            state["best_estimator_"] = bytes(booster.save_raw("ubj"))
        return state

    def __setstate__(self, state):
        state = dict(state)
        raw = state.get("best_estimator_")
        if isinstance(raw, bytes):
            _, xgboost = require()
            state["best_estimator_"] = xgboost.Booster(model_file=bytearray(raw))
        super().__setstate__(state)

    def __getattr__(self, name):
        # only reached when normal lookup fails
        if name in CLUSTER_ATTRIBUTES and "best_estimator_" in self.__dict__:
            raise AttributeError(
                f"{name} is not kept when a {type(self).__name__} is pickled or saved: it is "
                f"a collection on the cluster of the fit. To keep it, compute it before "
                f"saving: model.{name} = model.{name}.compute().")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
