"""Scale benchmark: the robust default against its peers from 1,000 to 1,000,000 rows.

Synthetic data, binary and multiclass, from two generators:

* ``mc``: :func:`sklearn.datasets.make_classification` (20 features, 10 informative,
  2 clusters per class);
* ``hard``: a harder generator with non-linear, interacting class boundaries
  (:func:`hard_classification`: classes from the argmax of random quadratic and
  sine scores of 8 informative features, 12 noise features).

A fraction of the *training* labels is flipped (``--kinds``: ``sym``, uniformly to
another class, :func:`robust_boosting.noise.flip_labels`; the annotator-like ``hardest``
and ``pmd``, from a reference model's out-of-fold probabilities on the clean labels, as in
``bench_noisy_default.py``); every model is scored on 20,000 clean
test rows (``--test-rows``). Reported per (generator, n, classes, rate) and model:
test error (%), label-issue F1 against the truly flipped rows (models that flag
suspects), fit time divided by the fit time of ``CleanLearning(LGBMClassifier())`` in
the same run, and peak memory above the process's baseline divided by cleanlab's.

Each fit runs in its own freshly started child process (``spawn``: peak resident
memory from ``/proc/self/status`` VmHWM, minus the resident memory once the data
have arrived and the model is made, before the fit); every model gets the same thread
count (``--threads``, default 2). A forked child would inherit the parent's heap, whose
free pages absorb part of a fit's allocations, so its peak would depend on the cells
run before it.

Usage::

    python benchmarks/bench_scale.py --quick            # 10k and 100k binary, 20k 5-class
    python benchmarks/bench_scale.py                    # the full grid (hours)
    python benchmarks/bench_scale.py --n 100000 --classes 2 --rates 0.2 \\
        --generators mc --models ours lgbm cleanlab

The peers need the ``bench`` extra (lightgbm, xgboost, catboost, cleanlab).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from bench_noisy_default import add_noise, prf  # noqa: E402

from robust_boosting.noise import reference_proba  # noqa: E402


def hard_classification(n: int, n_classes: int, seed: int, n_features: int = 20):
    """A harder synthetic task: each class's score is a random quadratic form plus a sine
    term of 8 informative features (interactions, curved boundaries); the label is the
    argmax of the scores plus logistic noise (so the Bayes error is not zero)."""
    rng = np.random.RandomState(seed)
    X = rng.standard_normal((n, n_features)).astype(np.float64)
    Xi = X[:, :8]
    scores = np.empty((n, n_classes))
    r = np.random.RandomState(12345 + n_classes)  # the task, fixed across n and seed
    for k in range(n_classes):
        A = r.standard_normal((8, 8)) / 4.0
        b = r.standard_normal(8)
        c = r.standard_normal(8)
        scores[:, k] = np.einsum("ij,jk,ik->i", Xi, A, Xi) + Xi @ b + np.sin(2.0 * Xi @ c)
    scores += rng.logistic(scale=0.3, size=scores.shape)
    return X, np.argmax(scores, axis=1)


def make_data(generator: str, n: int, n_classes: int, test_rows: int, seed: int):
    total = n + test_rows
    if generator == "mc":
        from sklearn.datasets import make_classification
        X, y = make_classification(total, 20, n_informative=10, n_classes=n_classes,
                                   random_state=seed)
    elif generator == "hard":
        X, y = hard_classification(total, n_classes, seed)
    else:
        raise ValueError(f"unknown generator {generator!r}")
    X = X.astype(np.float32)
    return X[:n], y[:n], X[n:], y[n:]


# ---------------------------------------------------------------------------
# models: (factory, suspects)
# ---------------------------------------------------------------------------
def _ours(seed, threads):
    from robust_boosting import SPLBoostClassifierCV
    return SPLBoostClassifierCV(random_state=seed)


def _ours_300(seed, threads):
    from robust_boosting import SPLBoostClassifierCV
    return SPLBoostClassifierCV(n_estimators=300, random_state=seed)


def _ours_suspects(est):
    # its suspect list, whether or not the final fit left them out (remove_label_issues_)
    return np.asarray(est.label_issues_)


def _lgbm(seed, threads):
    from lightgbm import LGBMClassifier
    return LGBMClassifier(n_jobs=threads, verbose=-1, random_state=seed)


def _cleanlab(seed, threads):
    from cleanlab.classification import CleanLearning
    return CleanLearning(_lgbm(seed, threads), seed=seed, verbose=False)


def _cleanlab_suspects(est):
    return np.flatnonzero(np.asarray(est.get_label_issues()["is_label_issue"]))


def _xgb(seed, threads):
    from xgboost import XGBClassifier
    return XGBClassifier(n_jobs=threads, random_state=seed, tree_method="hist")


def _catboost(seed, threads):
    from catboost import CatBoostClassifier
    return CatBoostClassifier(verbose=0, thread_count=threads, random_seed=seed,
                              allow_writing_files=False)


MODELS = {
    "ours": ("SPLBoostClassifierCV()", _ours, _ours_suspects),
    "ours300": ("SPLBoostClassifierCV(n_estimators=300)", _ours_300, _ours_suspects),
    "lgbm": ("LightGBM", _lgbm, None),
    "xgb": ("XGBoost", _xgb, None),
    "catboost": ("CatBoost", _catboost, None),
    "cleanlab": ("cleanlab+LightGBM", _cleanlab, _cleanlab_suspects),
}


def rss_kb(field: str) -> int:
    """A memory line of ``/proc/self/status`` in kB (``"VmRSS:"``, ``"VmHWM:"``)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1])
    return 0


def _child(key, X, y, Xt, yt, flipped, seed, threads, queue):
    # a spawned child starts its own pools (cleanlab's) with spawn unless told otherwise;
    # a user's process on Linux forks them
    mp.set_start_method("fork", force=True)
    try:
        _, make, suspects = MODELS[key]
        est = make(seed, threads)
        base = rss_kb("VmRSS:")
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est.fit(X, y)
        dt = time.perf_counter() - t0
        peak = rss_kb("VmHWM:") - base
        err = float(np.mean(np.asarray(est.predict(Xt)).ravel() != yt))
        f1 = prf(suspects(est), flipped)[2] if suspects is not None and flipped.any() else np.nan
        queue.put(dict(error=err, time=dt, peak_mb=peak / 1024.0, f1=f1,
                       noise_rate=getattr(est, "noise_rate_", np.nan)))
    except Exception as exc:  # reported, the run goes on
        queue.put(dict(failed=f"{type(exc).__name__}: {exc}"))


def fit_in_child(key, X, y, Xt, yt, flipped, seed, threads, timeout):
    return run_in_child(_child, (key, X, y, Xt, yt, flipped, seed, threads), timeout)


def run_in_child(target, args, timeout):
    """``target(*args, queue)`` in a freshly spawned process: the dict it puts on ``queue``,
    or ``{"failed": ...}`` when none comes within ``timeout`` seconds."""
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=target, args=(*args, queue))
    proc.start()
    try:
        out = queue.get(timeout=timeout)
    except Exception:
        out = dict(failed=f"no result within {timeout} s")
    proc.join(5)
    if proc.is_alive():
        proc.kill()
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--n", type=int, nargs="+", default=[1000, 10_000, 100_000, 1_000_000])
    ap.add_argument("--classes", type=int, nargs="+", default=[2, 5])
    ap.add_argument("--rates", type=float, nargs="+", default=[0.0, 0.1, 0.2, 0.35])
    ap.add_argument("--generators", nargs="+", default=["mc", "hard"])
    ap.add_argument("--kinds", nargs="+", default=["sym"], choices=["sym", "hardest", "pmd"],
                    help="kinds of flips (each at every noisy rate)")
    ap.add_argument("--models", nargs="+", default=[m for m in MODELS if m != "ours300"])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0])
    ap.add_argument("--test-rows", type=int, default=20_000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=3600.0)
    ap.add_argument("--skip-catboost-above", type=int, default=100_000,
                    help="CatBoost only up to this many rows (it does not finish in time above)")
    args = ap.parse_args(argv)
    if args.quick:
        grid = [("mc", 10_000, 2), ("mc", 100_000, 2), ("mc", 20_000, 5)]
        rates = [0.0, 0.2]
    else:
        grid = [(g, n, k) for g in args.generators for n in args.n for k in args.classes]
        rates = args.rates
    print("| data | n | K | flips | model | error % | F1 | noise_rate_ | time / cleanlab |"
          " peak / cleanlab | fit s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    tasks = [(rate, kind) for rate in rates
             for kind in (args.kinds if rate > 0 else args.kinds[:1])]
    for gen, n, k in grid:
        refs = {}  # the annotator-like kinds' reference model, once per data set
        for rate, kind in tasks:
            for seed in args.seeds:
                X, y, Xt, yt = make_data(gen, n, k, args.test_rows, seed)
                ref = None
                if rate > 0 and kind != "sym":  # fitted on the clean labels
                    if seed not in refs:
                        refs[seed] = reference_proba(X, y, random_state=seed)
                    ref = refs[seed]
                y_noisy, flipped = add_noise(y, kind, rate, seed, proba=ref)
                flips = f"{rate:.0%}" if kind == "sym" or rate == 0 else f"{rate:.0%} {kind}"
                rows = {}
                for key in args.models:
                    if key == "catboost" and n > args.skip_catboost_above:
                        continue
                    rows[key] = fit_in_child(key, X, y_noisy, Xt, yt, flipped, seed,
                                             args.threads, args.timeout)
                cl = rows.get("cleanlab", {})
                for key, r in rows.items():
                    if "failed" in r:
                        print(f"| {gen} | {n} | {k} | {flips} | {MODELS[key][0]} | failed: "
                              f"{r['failed']} | | | | | |", flush=True)
                        continue
                    tr = r["time"] / cl["time"] if "time" in cl else np.nan
                    mr = r["peak_mb"] / cl["peak_mb"] if cl.get("peak_mb") else np.nan
                    f1 = "" if np.isnan(r["f1"]) else f"{r['f1']:.3f}"
                    nr = "" if np.isnan(r["noise_rate"]) else f"{r['noise_rate']:.3f}"
                    print(f"| {gen} | {n} | {k} | {flips} | {MODELS[key][0]} | "
                          f"{100 * r['error']:.2f} | {f1} | {nr} | {tr:.2f} | {mr:.2f} | "
                          f"{r['time']:.1f} |", flush=True)


if __name__ == "__main__":
    main()
