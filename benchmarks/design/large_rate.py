"""Design experiment: learning rate and rounds of ``SPLBoostClassifierCV`` above 5,000 rows.

For one ``benchmarks/bench_scale.py`` task (generator, rows, classes, flip rate, seed),
fits ``SPLBoostClassifierCV(learning_rate=lr, cv=folds, n_estimators=1000)`` for each
``lr:folds`` given and prints one JSON line per setting: the fit's seconds, the search's
early-stopped rounds, the label-issue F1 of the suspects
against the truly flipped rows, and the final model's test error (%) on the 20,000
clean test rows after 50 ... 1,000 rounds (its staged predictions)::

    PYTHONPATH=src python benchmarks/design/large_rate.py mc 100000 2 0.2 0 0.1:3 0.2:3 0.2:2

Results: ``docs/design/0009-large-data-rate-and-rounds.md``.
"""

from __future__ import annotations

import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_noisy_default import prf  # noqa: E402
from bench_scale import make_data  # noqa: E402

from robust_boosting import SPLBoostClassifierCV  # noqa: E402
from robust_boosting.noise import flip_labels  # noqa: E402

CHECKS = (50, 100, 150, 200, 250, 300, 400, 500, 700, 1000)


def main(argv: list[str]) -> None:
    gen, n, k, rate, seed = argv[0], int(argv[1]), int(argv[2]), float(argv[3]), int(argv[4])
    settings = [tuple(a.split(":")) for a in argv[5:]]
    X, y, Xt, yt = make_data(gen, n, k, 20_000, seed)
    y_noisy = (np.asarray(flip_labels(y, rate, classes=np.arange(k), random_state=seed)[0])
               if rate else y)
    flipped = y_noisy != y
    warnings.simplefilter("ignore")
    for lr, folds in settings:
        t0 = time.perf_counter()
        est = SPLBoostClassifierCV(learning_rate=float(lr), cv=int(folds), n_estimators=1000,
                                   random_state=seed).fit(X, y_noisy)
        total = time.perf_counter() - t0
        errors = {t: round(100 * float(np.mean(p != yt)), 2)
                  for t, p in enumerate(est.staged_predict(Xt), 1) if t in CHECKS}
        f1 = prf(np.asarray(est.excluded_samples_), flipped)[2] if flipped.any() else None
        print(json.dumps(dict(
            generator=gen, n=n, classes=k, rate=rate, seed=seed, learning_rate=float(lr),
            folds=int(folds), fit_s=round(total, 2),
            cv_rounds=est.best_params_["cv_n_estimators"],
            f1=None if f1 is None else round(float(f1), 3), errors=errors)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
