"""The tasks of the design experiments: ``benchmarks/bench_scale.py``'s data with a fraction
of the training labels flipped (:func:`noisy_tasks`), ``benchmarks/bench_noisy_default.py``'s
tasks on the bundled sets (:func:`bundled_tasks`), and how a fitted
``SPLBoostClassifierCV`` scores on them. Shared by the design scripts beside this file."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_noisy_default import add_noise  # noqa: E402
from bench_scale import make_data  # noqa: E402

from robust_boosting.noise import flip_labels  # noqa: E402


def task_args(argv: list[str]) -> tuple:
    """``(seed, rows, generators, class counts, flip rates)`` from the command line's first
    five arguments (comma-separated lists), as the design scripts take them."""
    return (int(argv[0]), int(argv[1]), argv[2].split(","),
            [int(v) for v in argv[3].split(",")], [float(v) for v in argv[4].split(",")])


def rate_variants(args: list[str]) -> dict[str, tuple[float, int]]:
    """``{name: (rate, count)}`` from command-line variants ``name=rate:count`` (a learning
    rate and a number of rounds), as the design scripts take them."""
    variants = {}
    for arg in args:
        name, _, spec = arg.partition("=")
        rate, _, count = spec.partition(":")
        variants[name] = (float(rate), int(count))
    return variants


def pop_option(argv: list[str], name: str) -> tuple[str | None, list[str]]:
    """The value of ``--name=value`` in ``argv`` (the last one; None if absent) and ``argv``
    without it, for the design scripts' options beside their positional arguments."""
    flag = f"--{name}="
    values = [a[len(flag):] for a in argv if a.startswith(flag)]
    return (values[-1] if values else None), [a for a in argv if not a.startswith(flag)]


def noisy_tasks(seed: int, n: int, generators, class_counts, rates) -> Iterator[tuple]:
    """``(generator, K, rate, X, y_fit, X_test, y_test, flipped)`` for every task: ``n``
    training rows whose labels ``y_fit`` have the fraction ``rate`` flipped (``flipped``:
    their indices), and 20,000 clean test rows."""
    for gen in generators:
        for k in class_counts:
            X, y, Xt, yt = make_data(gen, n, k, 20_000, seed)
            for rate in rates:
                y_fit = (np.asarray(flip_labels(y, rate, classes=np.arange(k),
                                                random_state=seed)[0]) if rate else y)
                yield gen, k, rate, X, y_fit, Xt, yt, np.flatnonzero(y_fit != y)


#: the bundled binary sets of ``bench_noisy_default.py``
BUNDLED = ["bupa", "german", "heart", "ionosphere", "mammographic", "pima", "tic-tac-toe",
           "titanic", "wdbc", "wisconsin", "yeast"]


#: ``bench_noisy_default.py``'s flips: symmetric and class-conditional, the clean task once
BUNDLED_CELLS = [("sym", 0.0)] + [(kind, rate) for kind in ("sym", "cc")
                                  for rate in (0.1, 0.2, 0.3, 0.35, 0.4)]


def bundled_tasks(datasets, seed: int, splits, cells=BUNDLED_CELLS) -> Iterator[tuple]:
    """``(dataset, split, kind, rate, X, y_fit, X_test, y_test, flipped)`` for
    ``bench_noisy_default.py``'s tasks: its 70/30 split ``seed + s`` for each ``s`` of
    ``splits`` (also the model's seed there), and for each ``(kind, rate)`` of ``cells``
    its flips (``flipped``: a boolean mask); the annotator-like kinds (``hardest``,
    ``pmd``) read the split's reference probabilities."""
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import LabelEncoder

    from robust_boosting.datasets import load_dataset
    from robust_boosting.noise import reference_proba

    for ds in datasets:
        X, y = load_dataset(ds, return_X_y=True)
        X, y = np.asarray(X, float), LabelEncoder().fit_transform(y)
        for s in splits:
            Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y,
                                                  random_state=seed + s)
            ref = (reference_proba(Xtr, ytr, random_state=seed + s)
                   if {"hardest", "pmd"} & {kind for kind, _ in cells} else None)
            for kind, rate in cells:
                y_fit, flipped = add_noise(ytr, kind, rate, seed + 1000 * s + 7, proba=ref)
                yield ds, seed + s, kind, rate, Xtr, y_fit, Xte, yte, flipped


def real_tasks(splits, acceptance: bool = False) -> Iterator[tuple]:
    """``(table, split, noise, X, y_fit, X_test, y_test)`` for ``bench_real_tables.py``'s
    classification tasks (the held-out packages' with ``acceptance``): each table's
    stratified 70/30 split seeded ``s`` for each ``s`` of ``splits``, its clean labels and
    20 % symmetric and annotator-like flips, made as that script makes them."""
    import bench_real_tables as B
    from sklearn.model_selection import train_test_split

    from robust_boosting.noise import reference_proba

    for spec in B.select_tables("classification", acceptance=acceptance):
        X, y = B.load(spec)
        for s in splits:
            Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=s,
                                                  stratify=y)
            proba = reference_proba(Xtr, ytr, random_state=s)
            for noise in ("clean", "sym20", "hardest20"):
                y_fit, _ = B._noisy("classification", ytr, noise, s + 7, proba, "replace")
                yield spec.name, s, noise, Xtr, y_fit, Xte, yte


def scores(est, X_test, y_test, flipped) -> tuple[float, float]:
    """A fitted estimator's test error (%) and the F1 of its suspects (``excluded_samples_``)
    against the ``flipped`` rows (NaN when none was flipped)."""
    err = 100 * float(np.mean(est.predict(X_test) != y_test))
    suspects = np.asarray(est.excluded_samples_)
    hits = np.intersect1d(suspects, flipped).size
    f1 = 2 * hits / max(1, suspects.size + flipped.size) if flipped.size else np.nan
    return err, f1


def fit_and_score(est, X, y_fit, X_test, y_test, flipped) -> tuple[float, float, float]:
    """Fit ``est`` on ``(X, y_fit)``; its :func:`scores` and the fit's seconds."""
    t = time.perf_counter()
    est.fit(X, y_fit)
    secs = time.perf_counter() - t
    return (*scores(est, X_test, y_test, flipped), secs)


def fitted_variants(seed: int, n: int, generators, class_counts, rates, variants,
                    make) -> Iterator[tuple]:
    """``(generator, K, rate, variant, est, error, F1, seconds)`` for every task of
    :func:`noisy_tasks` and every variant: ``est = make(variant)`` fitted on the task
    (:func:`fit_and_score`)."""
    for gen, k, rate, X, y_fit, Xt, yt, flipped in noisy_tasks(seed, n, generators,
                                                               class_counts, rates):
        for variant in variants:
            est = make(variant)
            yield (gen, k, rate, variant, est,
                   *fit_and_score(est, X, y_fit, Xt, yt, flipped))

