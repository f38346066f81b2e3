"""DaskSPLBoostClassifierCV on a LocalCluster against the engine's own plain Dask model.

Runs a ``LocalCluster`` of 2 worker processes (1 thread each, this is a 2-core
machine) and generates the data chunk by chunk on the workers (never on the
client), then ``--flip`` of the training labels flipped at random. Two generators
(``--generator``), 20 standard-normal features each:

- ``teacher``: a linear teacher with a sine, a product and a gated term, and label
  noise of its own (Bayes error about 5 %);
- ``interactions``: the argmax of two random quadratic forms plus sines of 8
  features, with logistic noise (the binary case of ``bench_scale.py``'s ``hard``
  task).

For each size it fits

- ``plain``: ``xgboost.dask.DaskXGBClassifier()`` with XGBoost's defaults;
- ``plain-lw``: the same with the robust model's trees (leaf-wise, 31 leaves,
  learning rate 0.1, 500 rounds), no label-issue step;
- ``ours``: ``DaskSPLBoostClassifierCV()`` (XGBoost engine), the data in 10 partitions;
- ``ours-1p``: the same data in one partition on a one-worker cluster (the same
  model on one machine);
- ``single``: ``SPLBoostClassifierCV()`` on one machine (the same rows gathered in
  memory, both cores): the accuracy the Dask estimator is compared with (its time
  is not a cluster time and has no ratio);

and prints the error on a clean test set of 200,000 rows, the label-issue F1
(``ours``), the fit time divided by ``plain``'s and each worker's peak memory
(resident set, maximum over the fit) above its idle size, divided by the data it
holds (its partitions: X float32, labels, flips). The workers are restarted
before every fit so each peak is that fit's own.

Usage: ``python benchmarks/bench_dask.py --sizes 100000 1000000 10000000``
"""

from __future__ import annotations

import argparse
import json
import resource
import time

import numpy as np

N_FEATURES = 20
TEST_ROWS = 200_000


def teacher(seed: int):
    rng = np.random.default_rng([seed, 7])
    w = rng.normal(size=N_FEATURES) / np.sqrt(N_FEATURES)
    pairs = rng.choice(N_FEATURES, size=(6, 2))
    return w, pairs


def interaction_labels(X: np.ndarray, rng) -> np.ndarray:
    """The ``interactions`` generator's clean labels: the argmax of two random quadratic
    forms plus sines of the first 8 features, with logistic noise (fixed forms)."""
    Xi = X[:, :8].astype(np.float64)
    forms = np.random.RandomState(12345)
    scores = np.empty((X.shape[0], 2))
    for k in range(2):
        A = forms.standard_normal((8, 8)) / 4.0
        b = forms.standard_normal(8)
        c = forms.standard_normal(8)
        scores[:, k] = np.einsum("ij,jk,ik->i", Xi, A, Xi) + Xi @ b + np.sin(2.0 * Xi @ c)
    scores += rng.logistic(scale=0.3, size=scores.shape)
    return np.argmax(scores, axis=1).astype(np.int64)


def make_chunk(seed: int, chunk: int, rows: int, flip: float, generator: str = "teacher"):
    """Rows of chunk ``chunk``: ``(X float32, y_noisy, flipped, y_clean)``, same teacher everywhere."""
    rng = np.random.default_rng([seed, chunk])
    X = rng.normal(size=(rows, N_FEATURES)).astype(np.float32)
    if generator == "interactions":
        y = interaction_labels(X, rng)
    else:
        w, pairs = teacher(seed)
        f = X @ w + 0.6 * np.sin(2.0 * X[:, 0]) + 0.5 * np.prod(X[:, pairs[0]], axis=1) \
            + 0.4 * (X[:, pairs[1, 0]] > 0.5) * X[:, pairs[1, 1]]
        y = (f + 0.25 * rng.normal(size=rows) > 0).astype(np.int64)
    flipped = rng.random(rows) < flip
    return X, np.where(flipped, 1 - y, y), flipped, y


def dask_data(n: int, parts: int, flip: float, seed: int = 0, generator: str = "teacher"):
    import dask
    import dask.array as da

    sizes = [len(c) for c in np.array_split(np.arange(n), parts)]
    pieces = [dask.delayed(make_chunk, nout=4)(seed, i, r, flip, generator)
              for i, r in enumerate(sizes)]
    X = da.concatenate([da.from_delayed(p[0], (r, N_FEATURES), np.float32)
                        for p, r in zip(pieces, sizes, strict=True)])
    y = da.concatenate([da.from_delayed(p[1], (r,), np.int64) for p, r in zip(pieces, sizes,
                                                                                strict=True)])
    flipped = da.concatenate([da.from_delayed(p[2], (r,), bool)
                              for p, r in zip(pieces, sizes, strict=True)])
    return X, y, flipped


def _warm():
    import xgboost
    import xgboost.dask  # noqa: F401

    import robust_boosting.dask  # noqa: F401
    rng = np.random.default_rng(0)
    xgboost.train({"tree_method": "hist"}, xgboost.DMatrix(rng.normal(size=(64, 2)),
                                                           rng.integers(0, 2, 64)), 1)


def rss_now() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def rss_peak() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_single(n: int, flip: float, seed: int, test, generator: str):
    """``SPLBoostClassifierCV()`` on one machine, on the rows of the 10 partitions."""
    from robust_boosting import SPLBoostClassifierCV

    sizes = [len(c) for c in np.array_split(np.arange(n), 10)]
    chunks = [make_chunk(seed, i, r, flip, generator) for i, r in enumerate(sizes)]
    X = np.concatenate([c[0] for c in chunks])
    y = np.concatenate([c[1] for c in chunks])
    flipped = np.concatenate([c[2] for c in chunks])
    t0 = time.perf_counter()
    model = SPLBoostClassifierCV(random_state=seed).fit(X, y)
    fit_time = time.perf_counter() - t0
    s = np.zeros(n, dtype=bool)
    s[model.label_issues_] = True
    f1 = 2 * np.sum(s & flipped) / (s.sum() + flipped.sum())
    Xt, yt = test
    err = float(np.mean(model.predict(Xt) != yt)) * 100
    return dict(model="single", n=n, error=err, f1=f1, time=fit_time, mem_ratio=np.nan,
                rounds=model.best_params_["cv_n_estimators"], peak_mb=np.nan,
                data_mb=X.nbytes / 2**20)


def run_one(name: str, n: int, flip: float, seed: int, test, params=None,
            generator: str = "teacher"):
    import xgboost.dask as dxgb
    from distributed import Client, LocalCluster, wait

    from robust_boosting.dask import DaskSPLBoostClassifierCV

    if name == "single":
        return run_single(n, flip, seed, test, generator)
    workers = 1 if name == "ours-1p" else 2
    parts = 1 if name == "ours-1p" else 10
    with LocalCluster(n_workers=workers, threads_per_worker=2 // workers, processes=True,
                      memory_limit=0, dashboard_address=None) as cluster, Client(cluster) as c:
        c.run(_warm)  # the engine's libraries are loaded before the idle size is read
        idle = c.run(rss_now)
        X, y, flipped = dask_data(n, parts, flip, seed, generator)
        X, y, flipped = c.persist([X, y, flipped])
        wait([X, y, flipped])
        held = c.run(rss_now)
        data_mb = {w: (held[w] - idle[w]) for w in held}
        t0 = time.perf_counter()
        if name.startswith("plain"):
            kw = {} if name == "plain" else dict(grow_policy="lossguide", max_leaves=31,
                                                   max_depth=0, learning_rate=0.1,
                                                   n_estimators=500)
            model = dxgb.DaskXGBClassifier(tree_method="hist", **kw)
            model.client = c
            model.fit(X, y)
            fit_time = time.perf_counter() - t0
            booster = model.get_booster()
            f1 = np.nan
            rounds = booster.num_boosted_rounds()
        else:
            model = DaskSPLBoostClassifierCV(random_state=seed, client=c, **(params or {}))
            model.fit(X, y)
            rounds = model.best_params_["cv_n_estimators"]
            fit_time = time.perf_counter() - t0
            booster = model.best_estimator_
            s = model.label_issues_
            tp, ns, nf = (int(v) for v in c.compute([(s & flipped).sum(), s.sum(),
                                                     flipped.sum()], sync=True))
            f1 = 2 * tp / (ns + nf)
        peak = c.run(rss_peak)
        Xt, yt = test
        p = booster.inplace_predict(Xt)
        err = float(np.mean((p > 0.5) != yt)) * 100
        mem = max((peak[w] - idle[w]) / max(data_mb[w], 1e-9) for w in peak)
        raw = max(peak.values())
    return dict(model=name, n=n, error=err, f1=f1, time=fit_time, mem_ratio=mem, rounds=rounds,
                peak_mb=raw, data_mb=max(data_mb.values()))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    ap.add_argument("--flip", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--generator", choices=["teacher", "interactions"], default="teacher")
    ap.add_argument("--models", nargs="+",
                    default=["plain", "plain-lw", "ours", "ours-1p", "single"])
    ap.add_argument("--params", default="{}",
                    help="JSON of DaskSPLBoostClassifierCV parameters for ours")
    args = ap.parse_args(argv)
    params = json.loads(args.params)
    Xt, _, _, yt = make_chunk(args.seed, 10**6, TEST_ROWS, 0.0, args.generator)
    print("| rows | model | rounds | test error % | label-issue F1 | fit s | time / plain | "
          "worker peak above idle / its data | worker peak MB | data per worker MB |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for n in args.sizes:
        plain_time = None
        for name in args.models:
            r = run_one(name, n, args.flip, args.seed, (Xt, yt), params, args.generator)
            if name == "plain":
                plain_time = r["time"]
            ratio = r["time"] / plain_time if plain_time and name != "single" else float("nan")
            f1 = "–" if np.isnan(r["f1"]) else f"{r['f1']:.3f}"
            cells = [f"{v:.2f}" if np.isfinite(v) else "–" for v in (ratio, r["mem_ratio"])]
            peak = f"{r['peak_mb']:.0f}" if np.isfinite(r["peak_mb"]) else "–"
            print(f"| {n:,} | {name} | {r['rounds']} | {r['error']:.2f} | {f1} | {r['time']:.1f} | "
                  f"{cells[0]} | {cells[1]} | {peak} | {r['data_mb']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
