"""Design experiment: average the cleaned final model with the search's own fold models.

``SPLBoostClassifierCV()`` as it is; its search has already fitted the winning
candidate once per fold (plain LogitBoost of the chosen depth on the noisy labels of
the fold's training rows). This keeps those models (by wrapping
``fit_batched``, which the search calls once with every candidate × fold, in that
order) and averages their probabilities, at the chosen number of rounds (``best``:
``best_params_["cv_n_estimators"]``) or at the out-of-fold round (``oof``:
``oof_n_estimators_``), with the final model's, with weight ``W`` on the fold models'
mean (``foldscore_<W>_<at>``: the binary decision scores averaged instead, then
``P(y = 1) = 1 / (1 + exp(-2 F))``). No model is fitted beyond the estimator's own,
so the fit time is the default's. Runs ``bench_noisy_default.py`` with candidates ``fold_<W>_<at>``; the
fitted default is shared by the candidates of one task::

    PYTHONPATH=src python benchmarks/design/fold_average.py --candidates fold_0_best \\
        fold_0.25_best fold_0.5_best fold_0.75_best fold_0.5_oof --peers cleanlab \\
        --datasets bupa german heart ionosphere mammographic pima \\
        --rates 0 0.1 0.2 0.35 --kinds sym cc --splits 2 --rows fold_A.csv

Results: ``docs/noisy-default-design.md``, evidence item 12.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bench_noisy_default as bench  # noqa: E402

import robust_boosting.splboost_cv as splboost_cv  # noqa: E402
from robust_boosting import SPLBoostClassifierCV  # noqa: E402

_fitted: dict = {}  # the models of the last fit_batched call
_cache: dict = {}  # (data, seed) -> (fitted default, its fold models of the winner)
_fit_batched = splboost_cv.fit_batched


def _keeping_fit_batched(*args, **kwargs):
    _fitted["models"] = _fit_batched(*args, **kwargs)
    return _fitted["models"]


splboost_cv.fit_batched = _keeping_fit_batched


def _default_and_folds(X, y, seed):
    key = (hashlib.md5(np.ascontiguousarray(X).tobytes() + np.asarray(y).tobytes()).hexdigest(),
           seed)
    if key not in _cache:
        _cache.clear()
        est = SPLBoostClassifierCV(random_state=seed).fit(X, y)
        n_folds = sum(k.startswith("split") for k in est.cv_results_)
        b = est.best_index_
        _cache[key] = (est, _fitted["models"][b * n_folds:(b + 1) * n_folds])
    return _cache[key]


def _stage(staged, rounds):
    """The ``rounds``-th item of ``staged`` (its last if it has fewer)."""
    out = None
    for r, out in enumerate(staged, start=1):  # noqa: B007
        if r >= rounds:
            break
    return out


class FoldAverage(ClassifierMixin, BaseEstimator):
    def __init__(self, weight=0.5, at="best", space="proba", random_state=None):
        self.weight = weight
        self.at = at
        self.space = space  # average probabilities, or (binary) scores
        self.random_state = random_state

    def fit(self, X, y):
        self.cv_, self.folds_ = _default_and_folds(X, y, self.random_state)
        self.rounds_ = (self.cv_.best_params_["cv_n_estimators"] if self.at == "best"
                        else self.cv_.oof_n_estimators_)
        self.classes_ = self.cv_.classes_
        self.excluded_samples_ = self.cv_.excluded_samples_
        self.label_issue_scores_ = self.cv_.label_issue_scores_
        self.best_params_ = self.cv_.best_params_
        self.noise_rate_ = self.cv_.noise_rate_
        return self

    def predict_proba(self, X):
        if self.space == "score":
            folds = np.mean([_stage(m.staged_decision_function(X), self.rounds_)
                             for m in self.folds_], axis=0)
            score = (1 - self.weight) * self.cv_.decision_function(X) + self.weight * folds
            p = 1.0 / (1.0 + np.exp(-2.0 * score))
            return np.column_stack([1.0 - p, p])
        folds = np.mean([_stage(m.staged_predict_proba(X), self.rounds_) for m in self.folds_],
                        axis=0)
        return (1 - self.weight) * self.cv_.predict_proba(X) + self.weight * folds

    def predict(self, X):
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]


for _w in (0, 0.25, 0.5, 0.75, 1):
    for _at in ("best", "oof"):
        for _space, _prefix in (("proba", "fold"), ("score", "foldscore")):
            bench.CANDIDATES[f"{_prefix}_{_w}_{_at}"] = bench.Model(
                f"{_prefix}_{_w}_{_at}",
                (lambda w, at, sp: lambda seed: FoldAverage(w, at, sp, random_state=seed))(
                    _w, _at, _space),
                bench._excluded)

if __name__ == "__main__":
    bench.main(sys.argv[1:])
