"""The suspects ``SPLBoostClassifierCV`` lists under annotator-like noise
(docs/design/0027-annotator-noise.md), on data the listing rule was not chosen on.

Each task: ``benchmarks/bench_scale.py``'s generator ``mc`` or ``hard`` with ``n`` training
rows and ``K`` classes (seed ``SEED``), 5,000 clean test rows, and the training labels
flipped by ``bench_noisy_default.add_noise`` (kinds ``sym``, ``hardest``, ``pmd``; the
annotator-like kinds from a 5-fold reference model on the clean labels), or clean. One
JSON line per task: the F1 against the flipped rows of ``label_issues_`` (the count's
suspects and the margin rule's), of the count's alone
(``find_label_issues(oof_proba_, y, only_misclassified=False)``) and of cleanlab's
``CleanLearning(LGBMClassifier())``; each list's share of the rows (on clean labels: the
false alarms); ``noise_rate_`` and the true rate; both models' test error.

    python benchmarks/design/annotator_suspects.py SEED N GENERATORS K RATES [KINDS]
    python benchmarks/design/annotator_suspects.py 3 1000,3000 mc,hard 2,5 0,0.1,0.2
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_noisy_default import add_noise, prf  # noqa: E402
from bench_scale import make_data  # noqa: E402

from robust_boosting import SPLBoostClassifierCV  # noqa: E402
from robust_boosting.label_issues import find_label_issues  # noqa: E402
from robust_boosting.noise import reference_proba  # noqa: E402


def f1(found: np.ndarray, flipped: np.ndarray) -> float:
    """F1 of the boolean mask ``found`` against the boolean mask ``flipped`` (NaN: none
    flipped)."""
    return float(prf(np.flatnonzero(found), flipped)[2]) if flipped.any() else float("nan")


def cleanlab_fit(X, y, Xt, yt, seed):
    """cleanlab + LightGBM: its suspect mask and test error (%)."""
    from cleanlab.classification import CleanLearning
    from lightgbm import LGBMClassifier

    cl = CleanLearning(LGBMClassifier(n_jobs=1, verbose=-1, random_state=seed), seed=seed,
                       verbose=False).fit(X, y)
    found = np.asarray(cl.get_label_issues()["is_label_issue"], dtype=bool)
    return found, 100 * float(np.mean(cl.predict(Xt) != yt))


def main(argv: list[str]) -> None:
    seed = int(argv[0])
    sizes = [int(v) for v in argv[1].split(",")]
    generators = argv[2].split(",")
    class_counts = [int(v) for v in argv[3].split(",")]
    rates = [float(v) for v in argv[4].split(",")]
    kinds = argv[5].split(",") if len(argv) > 5 else ["sym", "hardest", "pmd"]
    warnings.simplefilter("ignore")
    for n in sizes:
        for gen in generators:
            for k in class_counts:
                X, y, Xt, yt = make_data(gen, n, k, 5000, seed)
                ref = reference_proba(X, y, random_state=seed)
                for kind in kinds:
                    for rate in rates:
                        if rate == 0 and kind != kinds[0]:
                            continue  # the clean task once
                        y_fit, flipped = add_noise(y, kind, rate, seed + 7, proba=ref)
                        flipped = np.asarray(flipped, dtype=bool)
                        est = SPLBoostClassifierCV(random_state=seed).fit(X, y_fit)
                        listed = np.zeros(n, dtype=bool)
                        listed[est.label_issues_] = True
                        y_idx = np.searchsorted(est.classes_, y_fit)
                        counted = find_label_issues(est.oof_proba_, y_idx,
                                                    only_misclassified=False)
                        theirs, cl_err = cleanlab_fit(X, y_fit, Xt, yt, seed)
                        print(json.dumps(dict(
                            generator=gen, n=n, K=k, kind=kind if rate else "clean",
                            rate=rate, seed=seed,
                            f1_listed=f1(listed, flipped), f1_count=f1(counted, flipped),
                            f1_cleanlab=f1(theirs, flipped),
                            share_listed=float(listed.mean()),
                            share_count=float(counted.mean()),
                            share_cleanlab=float(theirs.mean()),
                            noise_rate=float(est.noise_rate_), true_rate=float(flipped.mean()),
                            error=100 * float(np.mean(est.predict(Xt) != yt)),
                            error_cleanlab=cl_err,
                            removed=bool(est.remove_label_issues_))), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
