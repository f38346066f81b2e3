"""Design experiment: row subsampling per round (stochastic gradient boosting) in the
final fit of ``SPLBoostClassifierCV()``.

The estimator is fitted as it is; its final model is then refitted on the same
(reweighted) training rows with a random fraction of the rows kept in each round (the
others get weight 0 that round, so the trees grow on the kept rows only), for a
number of rounds. The subsampling is emulated by wrapping the boosting loop's round
weights (``robust_boosting._boosting._round_weights``); a fraction of 1 is the model as
built. Prints the final fit's time and the test error on the clean test rows at
100, 200, ... rounds. Arguments: seed, ``fraction:rounds`` variants, tasks
``generator:n:classes:rate``::

    PYTHONPATH=src python benchmarks/design/row_subsample.py 0 1.0:300,0.5:300,0.5:600,0.7:600 \\
        mc:10000:2:0.2,hard:100000:5:0.2

Results: ``docs/noisy-default-design.md``, evidence item 17.
"""

from __future__ import annotations

import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.base import clone

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_scale import make_data  # noqa: E402

import robust_boosting._boosting as boosting  # noqa: E402
from robust_boosting import LogitBoostClassifier, SPLBoostClassifierCV  # noqa: E402
from robust_boosting.noise import flip_labels  # noqa: E402

_captured: dict = {}
_subsample = {"fraction": 1.0, "rng": None}
_fit = LogitBoostClassifier.fit
_round_weights = boosting._round_weights


def _recording_fit(self, X, y, sample_weight=None):
    _captured["args"] = (X, y, sample_weight)  # the last call: the final fit
    return _fit(self, X, y, sample_weight)


def _subsampled_round_weights(step, state, factors):
    w = _round_weights(step, state, factors)
    if w is None or _subsample["fraction"] >= 1.0:
        return w
    w = w * (_subsample["rng"].random_sample(w.shape[0]) < _subsample["fraction"])
    return w / w.sum()


def main(seed: int, variants: list[tuple[float, int]], tasks: list[tuple]) -> None:
    LogitBoostClassifier.fit = _recording_fit
    boosting._round_weights = _subsampled_round_weights
    warnings.simplefilter("ignore")
    for gen, n, k, rate in tasks:
        X, y, Xt, yt = make_data(gen, n, k, 20_000, seed)
        noisy = y
        if rate > 0:
            noisy, _ = flip_labels(y, rate, classes=np.arange(k), random_state=seed)
            noisy = np.asarray(noisy)
        est = SPLBoostClassifierCV(random_state=seed).fit(X, noisy)
        X_fit, y_fit, w_fit = _captured["args"]
        for fraction, rounds in variants:
            model = clone(est.best_estimator_).set_params(n_estimators=rounds)
            _subsample.update(fraction=fraction, rng=np.random.RandomState(seed + 7))
            t0 = time.perf_counter()
            model.fit(X_fit, y_fit, sample_weight=w_fit)
            seconds = time.perf_counter() - t0
            _subsample["fraction"] = 1.0
            errors = {i: round(100 * float(np.mean(p != yt)), 2)
                      for i, p in enumerate(model.staged_predict(Xt), 1) if i % 100 == 0}
            print(json.dumps(dict(task=f"{gen} {n} {k} {rate}", fraction=fraction,
                                  rounds=rounds, final_fit_s=round(seconds, 2),
                                  error=errors)), flush=True)


if __name__ == "__main__":
    seed = int(sys.argv[1])
    variants = [(float(f), int(r)) for f, r in (v.split(":") for v in sys.argv[2].split(","))]
    tasks = [(g, int(n), int(k), float(r)) for g, n, k, r in
             (t.split(":") for t in sys.argv[3].split(","))]
    main(seed, variants, tasks)
