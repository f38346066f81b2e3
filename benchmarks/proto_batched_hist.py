"""Prototype: one histogram pass that serves k models at once (batched CV / grid search).

Cross-validation folds and candidate settings fit on the *same* binned rows; only
the per-sample statistics differ (a fold's held-out rows have weight 0). The
batched kernel reads each row's bin codes once and adds the k models' gradient /
hessian statistics, instead of k passes that each re-read the codes.

Two cases are timed, each against k calls of the single-model kernel:

* ``root``: every model histograms all rows into one node (the root, or a
  level of trees that share their partition);
* ``level``: a tree level where each model has its own partition; every row
  carries a node id per model (``node[i, j]``), and the kernel scatters model
  j's statistics into its node's histogram. This is the general case: the k
  trees split differently after the root.

Layout as in the kernels of :mod:`robust_boosting.trees`: codes transposed,
``(n_features, n_samples)`` ``uint8``; statistics ``(n_samples, k, 2)`` so a
row's k models are contiguous. Run::

    python benchmarks/proto_batched_hist.py [--n 20000] [--features 20]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit


@njit(cache=True, nogil=True, fastmath=True)
def hist_single(codes, g, h, n_bins, out):
    """out[f, b, 0/1] = sums of g / h over the rows with bin b in feature f (one model)."""
    out[:] = 0.0
    n_features, n = codes.shape
    for f in range(n_features):
        r = codes[f]
        o = out[f]
        for i in range(n):
            b = r[i]
            o[b, 0] += g[i]
            o[b, 1] += h[i]


@njit(cache=True, nogil=True, fastmath=True)
def hist_batched(codes, gh, n_bins, out):
    """out[f, b, j, 0/1] for k models j at once; ``gh`` has shape (n, k, 2).

    Flat indexing (no per-row sub-array views): a row's 2k statistics are
    contiguous in ``gh`` and land in one contiguous run of the histogram.
    """
    out[:] = 0.0
    n_features, n = codes.shape
    k2 = gh.shape[1] * 2
    n_b = out.shape[1]
    src = gh.reshape(-1)
    dst = out.reshape(-1)
    for f in range(n_features):
        r = codes[f]
        base_f = f * n_b * k2
        for i in range(n):
            o = base_f + np.int64(r[i]) * k2
            s = i * k2
            for t in range(k2):
                dst[o + t] += src[s + t]


@njit(cache=True, nogil=True, fastmath=True)
def hist_single_level(codes, g, h, node, n_nodes, out):
    """One model, one tree level: out[node, f, b, 0/1]."""
    out[:] = 0.0
    n_features, n = codes.shape
    for f in range(n_features):
        r = codes[f]
        for i in range(n):
            o = out[node[i], f, r[i]]
            o[0] += g[i]
            o[1] += h[i]


@njit(cache=True, nogil=True, fastmath=True)
def hist_batched_level(codes, gh, node, n_nodes, out):
    """k models, each with its own partition ``node[:, j]``: out[j, node, f, b, 0/1]."""
    out[:] = 0.0
    n_features, n = codes.shape
    k = gh.shape[1]
    n_b = out.shape[3]
    src = gh.reshape(-1)
    dst = out.reshape(-1)
    s_node = n_features * n_b * 2
    s_model = n_nodes * s_node
    for f in range(n_features):
        r = codes[f]
        for i in range(n):
            fb = (f * n_b + np.int64(r[i])) * 2
            s = i * k * 2
            for j in range(k):
                o = j * s_model + np.int64(node[i, j]) * s_node + fb
                dst[o] += src[s + 2 * j]
                dst[o + 1] += src[s + 2 * j + 1]


def _k_singles(kernel, arg_lists):
    for args in arg_lists:
        kernel(*args)


def _best(fn, args, repeat):
    """Best-of-``repeat`` wall time of ``fn(*args)``."""
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - t0)
    return best


def main(argv=None):
    p = argparse.ArgumentParser(description="batched vs k x single histogram timing")
    p.add_argument("--n", type=int, default=20000)
    p.add_argument("--features", type=int, default=20)
    p.add_argument("--bins", type=int, default=255)
    p.add_argument("--nodes", type=int, default=8, help="nodes per level (level case)")
    p.add_argument("--repeat", type=int, default=5)
    a = p.parse_args(argv)
    rng = np.random.default_rng(0)
    codes = np.ascontiguousarray(rng.integers(0, a.bins, (a.features, a.n)).astype(np.uint8))
    n_bins = np.full(a.features, a.bins, np.int32)
    print(f"n={a.n} features={a.features} bins={a.bins} nodes/level={a.nodes}")
    print("| k | root: batched / (k x single) | level: batched / (k x single) |")
    print("|---|---|---|")
    for k in (5, 10, 30):
        gh = rng.standard_normal((a.n, k, 2))
        gh[:, :, 1] = np.abs(gh[:, :, 1])
        node = rng.integers(0, a.nodes, (a.n, k)).astype(np.int32)
        g = [np.ascontiguousarray(gh[:, j, 0]) for j in range(k)]
        h = [np.ascontiguousarray(gh[:, j, 1]) for j in range(k)]
        nd = [np.ascontiguousarray(node[:, j]) for j in range(k)]
        o1 = np.zeros((a.features, a.bins, 2))
        ok = np.zeros((a.features, a.bins, k, 2))
        l1 = np.zeros((a.nodes, a.features, a.bins, 2))
        lk = np.zeros((k, a.nodes, a.features, a.bins, 2))
        # warm-up (compilation) and a check that both kernels agree
        hist_batched(codes, gh, n_bins, ok)
        hist_single(codes, g[k - 1], h[k - 1], n_bins, o1)
        assert np.allclose(ok[:, :, k - 1], o1)
        hist_batched_level(codes, gh, node, a.nodes, lk)
        hist_single_level(codes, g[k - 1], h[k - 1], nd[k - 1], a.nodes, l1)
        assert np.allclose(lk[k - 1], l1)

        r_root = _best(hist_batched, (codes, gh, n_bins, ok), a.repeat) / _best(
            _k_singles, (hist_single, [(codes, g[j], h[j], n_bins, o1) for j in range(k)]),
            a.repeat)
        r_level = _best(hist_batched_level, (codes, gh, node, a.nodes, lk), a.repeat) / _best(
            _k_singles,
            (hist_single_level, [(codes, g[j], h[j], nd[j], a.nodes, l1) for j in range(k)]),
            a.repeat)
        print(f"| {k} | {r_root:.2f} | {r_level:.2f} |")


if __name__ == "__main__":
    main()
