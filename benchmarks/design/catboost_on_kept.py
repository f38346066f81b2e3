"""Design experiment: CatBoost fitted on the rows ``SPLBoostClassifierCV`` keeps.

Separates the two halves of the robust default where CatBoost's defaults lead: the
removal of the suspects and the final model. Per task, ``SPLBoostClassifierCV()``'s test
error, then CatBoost fitted on the rows it keeps (every row but ``excluded_samples_``,
unweighted) with its defaults (1,000 rounds at its automatic learning rate, depth 6) and
with our final fit's schedule (depth 8, rate 0.2, 300 rounds); test error (%) and fit
seconds.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/design/catboost_on_kept.py 0 100000 hard 5 0.1,0.35

Results: ``docs/noisy-default-design.md``, evidence item 41.
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _noisy_tasks import fit_and_score, noisy_tasks, task_args  # noqa: E402

from robust_boosting import SPLBoostClassifierCV  # noqa: E402

#: CatBoost's settings per column (its defaults, and our final fit's schedule)
CATBOOST = {"defaults": {},
            "d8 0.2x300": {"depth": 8, "learning_rate": 0.2, "iterations": 300}}


def main(argv: list[str]) -> None:
    from catboost import CatBoostClassifier

    warnings.simplefilter("ignore")
    seed, n, gens, ks, rates = task_args(argv)
    for gen, k, flip, X, y, Xt, yt, flipped in noisy_tasks(seed, n, gens, ks, rates):
        est = SPLBoostClassifierCV(random_state=seed)
        err, _, _ = fit_and_score(est, X, y, Xt, yt, flipped)
        kept = np.setdiff1d(np.arange(len(y)), est.excluded_samples_)
        out = [f"{gen} n={n} K={k} flips={flip:.2f} ours={err:.2f} kept={kept.size}"]
        for name, params in CATBOOST.items():
            t = time.perf_counter()
            cb = CatBoostClassifier(verbose=0, thread_count=2, random_seed=seed,
                                    allow_writing_files=False, **params).fit(X[kept], y[kept])
            err = 100 * np.mean(cb.predict(Xt).ravel() != yt)
            out.append(f"CatBoost {name}: err={err:.2f} s={time.perf_counter() - t:.1f} "
                       f"rate={cb.get_all_params()['learning_rate']:.3f}")
        print(" | ".join(out), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
