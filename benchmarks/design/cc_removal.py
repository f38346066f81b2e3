"""Design experiment: ``remove_label_issues="auto"`` under class-conditional flips.

``bench_scale.py``'s data with ``bench_noisy_default.py``'s class-conditional noise (binary:
class 0 flipped at 1.5 x the rate and class 1 at 0.5 x; more classes: each flipped to the
next). Per task: the test error (%) of ``SPLBoostClassifierCV()`` with ``"auto"``, with the
removal forced (``True``) and without it (``False``), whether ``"auto"`` kept every row and
its ``anchor_noise_rate_ / (K - 1)``. JSON lines.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/design/cc_removal.py 1000 2,5 0
    PYTHONPATH=src python benchmarks/design/cc_removal.py 100000 2,5 0 0.1,0.2

Results: ``docs/noisy-default-design.md``, evidence item 36.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _noisy_tasks import scores  # noqa: E402
from bench_noisy_default import add_noise  # noqa: E402
from bench_scale import make_data  # noqa: E402

from robust_boosting import SPLBoostClassifierCV  # noqa: E402


def main(argv: list[str]) -> None:
    warnings.simplefilter("ignore")
    n, seed = int(argv[0]), int(argv[2])
    class_counts = [int(v) for v in argv[1].split(",")]
    rates = [float(v) for v in argv[3].split(",")] if len(argv) > 3 else [0.1, 0.2, 0.35]
    for gen in ("mc", "hard"):
        for k in class_counts:
            X, y, Xt, yt = make_data(gen, n, k, 20_000, seed)
            for rate in rates:
                y_noisy, flipped = add_noise(y, "cc", rate, 7 + seed)
                row = dict(task=f"{gen}-{n}", seed=seed, K=k, rate=rate, kind="cc")
                for remove in ("auto", True, False):
                    est = SPLBoostClassifierCV(random_state=seed, remove_label_issues=remove)
                    est.fit(X, y_noisy)
                    row[f"err_{remove}"] = scores(est, Xt, yt, np.flatnonzero(flipped))[0]
                    if remove == "auto":
                        row["kept"] = not est.remove_label_issues_
                        row["p"] = est.anchor_noise_rate_ / (k - 1)
                print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
