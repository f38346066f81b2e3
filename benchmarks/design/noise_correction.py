"""Design experiment: every row kept, the prediction corrected by the estimated flip matrix.

``bench_scale.py``'s data with ``bench_noisy_default.py``'s symmetric (``sym``) or
class-conditional (``cc``) flips, or ``uneven`` ones (two classes flipped at the rate, the
others at 5 %, :func:`flips`). Per task: ``SPLBoostClassifierCV()`` with the removal
forced (``err_remove``) and without it (``err_keep``); the kept model's prediction
corrected by the flip matrix ``T[j, i] = P(given i | true j)`` estimated from the confident
joint of its out-of-fold probabilities (``err_corr``: the class of largest ``p~ T^-1``,
where ``p~`` are its probabilities of the given labels, Patrini et al. 2017's backward
correction applied to the prediction), by the true flip matrix (``err_oracle``), and the
anchor statistic ``p = anchor_noise_rate_ / (K - 1)``, and two statistics of the estimated
flip matrix: ``chg``, the fraction of out-of-fold predictions the correction changes,
``conc``, how concentrated its flips are (:func:`concentration`), and ``asym``
(:func:`flip_asymmetry`). ``--keep-only`` skips the
fit with the removal; ``--save=DIR`` writes each task's out-of-fold and test probabilities
and labels to ``DIR`` (``.npz``). JSON lines.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/design/noise_correction.py 100000 2,5 0 sym,cc 0.1,0.2

    PYTHONPATH=src python benchmarks/design/noise_correction.py 100000 5 0 uneven 0.3,0.45

Results: ``docs/noisy-default-design.md``, evidence item 37.
"""

from __future__ import annotations

import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _noisy_tasks import pop_option  # noqa: E402
from bench_noisy_default import add_noise  # noqa: E402
from bench_scale import make_data  # noqa: E402

from robust_boosting import SPLBoostClassifierCV  # noqa: E402
from robust_boosting.noise import flip_labels_class_conditional  # noqa: E402
from robust_boosting.splboost_cv import confident_joint  # noqa: E402


def flips(y: np.ndarray, kind: str, rate: float, seed: int) -> np.ndarray:
    """``bench_noisy_default.py``'s ``sym`` and ``cc`` flips, and ``uneven``: classes 0 and 1
    flipped at ``rate``, the others at 5 %, each to every other class alike."""
    if kind != "uneven":
        return add_noise(y, kind, rate, seed)[0]
    k = int(y.max()) + 1
    out = np.full(k, 0.05)
    out[:2] = rate
    T = np.repeat((out / (k - 1))[:, None], k, axis=1)
    T[np.diag_indices(k)] = 1.0 - out
    return np.asarray(flip_labels_class_conditional(y, T, classes=np.arange(k),
                                                    random_state=seed)[0])


def flip_asymmetry(joint: np.ndarray) -> float:
    """How unevenly the estimated flips spread over the wrong labels: with K >= 3 classes the
    mean over classes of the largest estimated flip into one class minus their mean, times
    (K - 1) / (K - 2) (the rate of flips each into the next class; 0 for even ones); with two
    classes ``|T[0, 1] - T[1, 0]|``."""
    T = flip_matrix(joint)
    k = T.shape[0]
    if k == 2:
        return float(abs(T[0, 1] - T[1, 0]))
    off = T[~np.eye(k, dtype=bool)].reshape(k, k - 1)
    return float((off.max(axis=1) - off.mean(axis=1)).mean() * (k - 1) / (k - 2))


def flip_matrix(joint: np.ndarray) -> np.ndarray:
    """``T[j, i] = P(given i | true j)`` from a confident joint ``C[given, true]``."""
    true_counts = joint.sum(axis=0)
    return (joint / np.where(true_counts > 0, true_counts, 1.0)).T


def true_flip_matrix(y: np.ndarray, y_noisy: np.ndarray, k: int) -> np.ndarray:
    counts = np.zeros((k, k))
    np.add.at(counts, (y, y_noisy), 1.0)
    return counts / counts.sum(axis=1, keepdims=True)


def corrected_error(proba: np.ndarray, T: np.ndarray, yt: np.ndarray) -> float:
    clean = proba @ np.linalg.inv(T)
    return 100.0 * float(np.mean(np.argmax(clean, axis=1) != yt))


def change_fraction(proba: np.ndarray, T: np.ndarray) -> float:
    """Fraction of rows whose class of largest probability changes under the correction."""
    return float(np.mean(np.argmax(proba @ np.linalg.inv(T), axis=1) != np.argmax(proba, axis=1)))


def concentration(T: np.ndarray) -> float:
    """Per true class, the largest off-diagonal flip over all of them, averaged (1 / (K - 1)
    for flips spread evenly, 1 for flips into one class); with two classes the imbalance
    ``|T01 - T10| / (T01 + T10)``."""
    off = T - np.diag(np.diag(T))
    if T.shape[0] == 2:
        return float(abs(off[0, 1] - off[1, 0]) / max(off.sum(), 1e-12))
    return float(np.mean(off.max(axis=1) / np.maximum(off.sum(axis=1), 1e-12)))


def main(argv: list[str]) -> None:
    warnings.simplefilter("ignore")
    keep_only = "--keep-only" in argv
    save, argv = pop_option([a for a in argv if a != "--keep-only"], "save")
    n, seed = int(argv[0]), int(argv[2])
    class_counts = [int(v) for v in argv[1].split(",")]
    kinds = argv[3].split(",")
    rates = [float(v) for v in argv[4].split(",")]
    gens = argv[5].split(",") if len(argv) > 5 else ["mc", "hard"]
    for gen in gens:
        for k in class_counts:
            X, y, Xt, yt = make_data(gen, n, k, 20_000, seed)
            for kind in kinds:
                for rate in rates:
                    if rate == 0 and kind != "sym":
                        continue
                    y_noisy = flips(y, kind, rate, 7 + seed)
                    row = dict(task=f"{gen}-{n}", seed=seed, K=k, kind=kind, rate=rate)
                    for remove in (False,) if keep_only else (False, True):
                        t0 = time.perf_counter()
                        est = SPLBoostClassifierCV(random_state=seed, remove_label_issues=remove)
                        est.fit(X, y_noisy)
                        tag = "remove" if remove else "keep"
                        row[f"s_{tag}"] = round(time.perf_counter() - t0, 1)
                        proba = est.predict_proba(Xt)
                        row[f"err_{tag}"] = round(100.0 * float(np.mean(
                            np.argmax(proba, axis=1) != yt)), 2)
                        if not remove:
                            joint = confident_joint(est.oof_proba_, y_noisy)
                            T = flip_matrix(joint)
                            row["T_diag"] = np.round(np.diag(T), 3).tolist()
                            row["err_corr"] = round(corrected_error(proba, T, yt), 2)
                            row["err_oracle"] = round(corrected_error(
                                proba, true_flip_matrix(y, y_noisy, k), yt), 2)
                            row["p"] = round(est.anchor_noise_rate_ / (k - 1), 4)
                            row["chg"] = round(change_fraction(est.oof_proba_, T), 4)
                            row["conc"] = round(concentration(T), 3)
                            row["asym"] = round(flip_asymmetry(joint), 3)
                            if save:
                                np.savez_compressed(
                                    Path(save) / f"{gen}-{n}-{seed}-{k}-{kind}-{rate}.npz",
                                    oof=est.oof_proba_, y=y_noisy, y_true=y, proba=proba, yt=yt)
                    print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
