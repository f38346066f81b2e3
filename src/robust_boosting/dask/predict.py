"""Predictions of the Dask estimator: scores, probabilities, labels and contributions.

:class:`DaskPredictions` is a mixin of
:class:`~robust_boosting.dask.DaskSPLBoostClassifierCV`. Dask input is predicted on
the cluster (``xgboost.dask.predict``) and gives dask arrays; NumPy and pandas input
is predicted locally by the booster and gives NumPy arrays. A frame is coded with the
categories seen at fit (:func:`~robust_boosting.dask.data.frame_codes`).
"""

from __future__ import annotations

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .data import coded_frame, frame_codes, require
from .objective import class_proba

__all__ = ["DaskPredictions"]


class DaskPredictions:
    """The prediction methods of :class:`~robust_boosting.dask.DaskSPLBoostClassifierCV`."""

    def _model_input(self, X):
        """``X`` as the booster's input: a dask array (one chunk of columns) or a NumPy
        array, frames coded with the fitted categories; the columns checked."""
        check_is_fitted(self, "best_estimator_")
        da, _ = require()
        import dask.dataframe as dd
        import pandas as pd

        names = getattr(self, "feature_names_in_", None)
        if isinstance(X, (dd.DataFrame, pd.DataFrame)) and names is not None:
            if [str(c) for c in X.columns] != list(names):
                raise ValueError(f"X's columns {list(X.columns)} are not the fitted ones "
                                 f"{list(names)}.")
            categories = self.feature_categories_
            if isinstance(X, dd.DataFrame):
                X = coded_frame(X, categories,
                                tuple(int(v) for v in X.map_partitions(len).compute()))
            else:
                X = frame_codes(X, categories)
        if isinstance(X, dd.DataFrame):
            X = X.to_dask_array(lengths=True)
        n_features = X.shape[1] if len(X.shape) == 2 else None
        if n_features != self.n_features_in_:
            raise ValueError(f"X has {n_features} features; the model was fitted on "
                             f"{self.n_features_in_}.")
        if isinstance(X, da.Array):
            return X.rechunk({1: -1})
        return X

    def _margin(self, X):
        import xgboost.dask as dxgb

        da, _ = require()
        X = self._model_input(X)
        if isinstance(X, da.Array):
            return dxgb.predict(self._client(), self.best_estimator_, X, output_margin=True)
        return self.best_estimator_.inplace_predict(X, predict_type="margin")

    def _contributions(self, X):
        """XGBoost's exact TreeSHAP contributions (``pred_contribs``): ``(n, n_features + 1)``
        for two classes, ``(n, n_classes, n_features + 1)`` for more; the last column is
        the expected value (with the base margin); each row sums to the raw score."""
        import xgboost
        import xgboost.dask as dxgb

        da, _ = require()
        X = self._model_input(X)
        if isinstance(X, da.Array):
            return dxgb.predict(self._client(), self.best_estimator_, X, pred_contribs=True)
        return self.best_estimator_.predict(xgboost.DMatrix(np.asarray(X), missing=np.nan),
                                            pred_contribs=True)

    def decision_function(self, X):
        """Raw scores of the final model: the log-odds (binary) or per-class margins."""
        return self._margin(X)

    def predict_proba(self, X):
        """Class probabilities, a dask array for dask input (computed on the cluster)."""
        margin = self._margin(X)
        k = self.classes_.shape[0]
        if hasattr(margin, "map_blocks") and not isinstance(margin, np.ndarray):
            if margin.ndim == 1:
                return margin.map_blocks(lambda mm: class_proba(mm, k), new_axis=1,
                                         chunks=(margin.chunks[0], (k,)), dtype=np.float64)
            return margin.map_blocks(lambda mm: class_proba(mm, k), dtype=np.float64)
        return class_proba(np.asarray(margin, dtype=np.float64), k)

    def predict(self, X, *, pred_contrib: bool = False):
        """Predicted class labels (a dask array for dask input), or the contributions.

        Parameters
        ----------
        X : dask array or frame, or NumPy array or pandas frame
            The rows to predict.
        pred_contrib : bool, default=False
            Return each feature's contribution to the raw score instead of the labels:
            XGBoost's exact path-dependent TreeSHAP (``pred_contribs=True``; Lundberg et
            al., "From local explanations to global understanding with explainable AI for
            trees", Nature Machine Intelligence 2, 2020), of shape ``(n_samples, n_features + 1)`` for two classes and
            ``(n_samples, n_classes, n_features + 1)`` for more. The last column is the
            expected value; a row sums to :meth:`decision_function` (to float32
            rounding: XGBoost computes them in float32). Dask input gives a dask
            array, computed on the cluster.
        """
        if pred_contrib:
            return self._contributions(X)
        proba = self.predict_proba(X)
        classes = self.classes_
        if isinstance(proba, np.ndarray):
            return classes[np.argmax(proba, axis=1)]
        return proba.map_blocks(lambda p: classes[np.argmax(p, axis=1)], drop_axis=1,
                                dtype=classes.dtype)

    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba`."""
        proba = self.predict_proba(X)
        return np.log(proba) if isinstance(proba, np.ndarray) else proba.map_blocks(np.log)

    def staged_predict(self, X):
        raise NotImplementedError("staged predictions are not available on Dask.")

    def staged_predict_proba(self, X):
        raise NotImplementedError("staged predictions are not available on Dask.")

    @property
    def feature_importances_(self):
        """Total gain of each feature in the final model, normalised to sum 1."""
        check_is_fitted(self, "best_estimator_")
        gain = self.best_estimator_.get_score(importance_type="total_gain")
        out = np.zeros(self.n_features_in_)
        names = getattr(self, "feature_names_in_", None)
        for key, value in gain.items():
            idx = (list(names).index(key) if names is not None and key in list(names)
                   else int(key.lstrip("f")))
            out[idx] = value
        total = out.sum()
        return out / total if total > 0 else out
