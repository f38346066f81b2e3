"""Design experiment: average the cleaned final model with a model of every sample.

``SPLBoostClassifierCV()`` as it is, plus a second final model of the same depth
and rounds fitted on every sample (no suspect removed), optionally with the default's
class reweighting (each weight divided by the estimated ``P(given label | true
class)`` of its label); predictions average the two models' probabilities with weight
``W`` on the second. Runs ``bench_noisy_default.py`` with this model as its candidate
``average``::

    PYTHONPATH=src python benchmarks/design/final_average.py 0.5,cw --candidates average \\
        --peers cleanlab --datasets bupa german heart ionosphere mammographic pima \\
        --rates 0 0.1 0.2 0.3 0.35 0.4 --kinds sym cc --splits 2 --rows average_A.csv

(``0.5`` without ``,cw``: no class reweighting.) Results: ``docs/noisy-default-design.md``,
evidence item 11.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bench_noisy_default as bench  # noqa: E402

from robust_boosting import SPLBoostClassifierCV  # noqa: E402
from robust_boosting.splboost_cv import (  # noqa: E402
    _label_retention,
    _make_booster,
    confident_joint,
)


class AveragedFinal(ClassifierMixin, BaseEstimator):
    def __init__(self, weight=0.5, reweight=True, random_state=None):
        self.weight = weight
        self.reweight = reweight
        self.random_state = random_state

    def fit(self, X, y):
        self.cv_ = SPLBoostClassifierCV(random_state=self.random_state).fit(X, y)
        p = self.cv_.best_params_
        self.all_ = _make_booster(p["max_depth"], p["learning_rate"], 0.0,
                                  self.cv_.n_estimators, 0)
        w = None
        if self.reweight:
            y_idx = np.searchsorted(self.cv_.classes_, y)
            w = 1.0 / _label_retention(confident_joint(self.cv_.oof_proba_, y_idx))[y_idx]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.all_.fit(X, y, sample_weight=w)
        self.classes_ = self.cv_.classes_
        self.excluded_samples_ = self.cv_.excluded_samples_
        self.best_params_ = self.cv_.best_params_
        return self

    def predict_proba(self, X):
        return ((1 - self.weight) * self.cv_.predict_proba(X)
                + self.weight * self.all_.predict_proba(X))

    def predict(self, X):
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]


if __name__ == "__main__":
    spec = sys.argv[1]
    weight, reweight = float(spec.split(",")[0]), spec.endswith(",cw")
    bench.CANDIDATES["average"] = bench.Model(
        f"average {spec}",
        lambda seed: AveragedFinal(weight, reweight, random_state=seed),
        bench._excluded)
    bench.main(sys.argv[2:])
