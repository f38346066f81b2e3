"""Design experiment: exact or weight-estimated leaf counts in ``SPLBoostClassifierCV``'s trees.

For one ``benchmarks/bench_scale.py`` task (generator, rows, classes, flip rate, seed),
fits ``SPLBoostClassifierCV(random_state=seed)`` once with trees whose
``min_samples_leaf`` counts rows exactly (``sample_count="exact"``, a count channel in
every histogram) and once with counts estimated from the weights
(``sample_count="weight"``, LightGBM's ``min_data_in_leaf``), and prints one JSON line
per variant: the fit's seconds, the test error (%) on the 20,000 clean test rows, the
label-issue F1 of ``excluded_samples_`` against the truly flipped rows, and the search's
early-stopped rounds. The labels are flipped uniformly to another class with
probability ``rate``. Run the two variants of a task one after the other, never next
to another job (the times are compared)::

    PYTHONPATH=src python benchmarks/design/sample_count.py mc 100000 2 0.2 0

Results: ``docs/noisy-default-design.md``, evidence item 16.
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
from robust_boosting import splboost_cv as cvm  # noqa: E402


def main(argv: list[str]) -> None:
    gen, n, k, rate, seed = argv[0], int(argv[1]), int(argv[2]), float(argv[3]), int(argv[4])
    X, y, Xt, yt = make_data(gen, n, k, 20_000, seed)
    rng = np.random.default_rng(seed + 1000)
    flipped = rng.random(len(y)) < rate
    y_noisy = np.where(flipped, (y + rng.integers(1, k, len(y))) % k, y)
    warnings.simplefilter("ignore")
    for variant in ("exact", "weight"):
        cvm._SAMPLE_COUNT = variant
        t0 = time.perf_counter()
        est = SPLBoostClassifierCV(random_state=seed).fit(X, y_noisy)
        fit_s = time.perf_counter() - t0
        f1 = prf(np.asarray(est.excluded_samples_), flipped)[2] if flipped.any() else None
        print(json.dumps(dict(
            generator=gen, n=n, classes=k, rate=rate, seed=seed, sample_count=variant,
            fit_s=round(fit_s, 2), error=round(100 * float(np.mean(est.predict(Xt) != yt)), 2),
            f1=None if f1 is None else round(float(f1), 3),
            cv_rounds=est.best_params_["cv_n_estimators"])), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
