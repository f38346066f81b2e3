"""Two source trees of the library, the same grid cells, in one run: after / before ratios.

Run:  python benchmarks/bench_compare.py --after . --before /path/to/old/checkout \\
          [--sizes 10000x20] [--shapes stumps "depth 6" "31 leaves" "sym 8"] \\
          [--kinds ada logit2 logit5] [--threads 1 2] [--repeat 3] [--fits 1]

Each cell of ``bench_boosting.py --grid`` (tree shape x booster x size x threads, the
same data and models) is fitted in a fresh subprocess per measurement, with
``PYTHONPATH=<tree>/src`` so that each tree's own build is imported (both trees must be
built in place: ``python setup.py build_ext --inplace``). The two trees alternate,
after, before, after, before, ... ``--repeat`` times each, so that a drift of the
machine's load hits both; each subprocess fits a warm-up model on 2,000 rows, then
times ``--fits`` fits of the cell's model (binning included; the best counts) through
the public API only. The table gives the best time of each tree and their ratio,
after / before (below 1: the after tree is faster).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))

#: short names of bench_boosting's booster kinds
KINDS = {
    "ada": "AdaBoost (classification trees)",
    "logit2": "LogitBoost (Newton trees), 2 classes",
    "logit5": "LogitBoost (Newton trees), 5 classes",
}

_CHILD = """
import json, sys, time, warnings
sys.path.insert(0, {here!r})
warnings.simplefilter("ignore")
import robust_boosting
import bench_boosting as bb
n, d, kind_name, shape, threads = {cell!r}
n_classes, kind = bb.KINDS[kind_name]
X, y = bb._grid_data(n, d, n_classes)
rounds = 20 if n >= 1_000_000 else 100
bb._grid_models(kind, shape, threads, 2)[0].fit(X[:2000], y[:2000])
ours = bb._grid_models(kind, shape, threads, rounds)[0]
best = float("inf")
for _ in range({fits}):
    t0 = time.perf_counter()
    ours.fit(X, y)
    best = min(best, time.perf_counter() - t0)
print(json.dumps({{"seconds": best, "module": robust_boosting.__file__}}))
"""


def _time_cell(tree: str, cell: tuple, fits: int = 1) -> float:
    """The best of ``fits`` timed fits of ``cell`` with the library of source tree
    ``tree``, in one subprocess."""
    src = os.path.join(os.path.abspath(tree), "src")
    env = dict(os.environ, PYTHONPATH=src)
    out = subprocess.run([sys.executable, "-c", _CHILD.format(here=_HERE, cell=cell, fits=fits)],
                         env=env, capture_output=True, text=True, check=True)
    res = json.loads(out.stdout.strip().splitlines()[-1])
    if not os.path.abspath(res["module"]).startswith(src + os.sep):
        raise RuntimeError(f"{tree}: imported {res['module']}, not the tree's own build")
    return res["seconds"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--after", required=True, help="source tree of the change")
    parser.add_argument("--before", required=True, help="source tree to compare against")
    parser.add_argument("--sizes", nargs="+", default=["10000x20"], help="rows x features")
    parser.add_argument("--shapes", nargs="+", default=None,
                        help="bench_boosting tree shapes (default: all)")
    parser.add_argument("--kinds", nargs="+", choices=list(KINDS), default=list(KINDS))
    parser.add_argument("--threads", nargs="+", type=int, default=[2])
    parser.add_argument("--repeat", type=int, default=3,
                        help="subprocesses per tree and cell, alternating")
    parser.add_argument("--fits", type=int, default=1,
                        help="timed fits per subprocess (the best counts)")
    args = parser.parse_args(argv)

    sys.path.insert(0, _HERE)
    import bench_boosting as bb

    shapes = args.shapes or list(bb.SHAPES)
    for s in shapes:
        if s not in bb.SHAPES:
            parser.error(f"unknown shape {s!r}; one of {list(bb.SHAPES)}")
    print(f"after: {os.path.abspath(args.after)}\nbefore: {os.path.abspath(args.before)}")
    print(f"{'rows x features':>16} | {'booster':<38} | {'tree':<9} | thr | "
          f"{'after s':>7} | {'before s':>8} | after / before")
    for size in args.sizes:
        n, d = (int(v) for v in size.split("x"))
        for kind in args.kinds:
            kind_name = KINDS[kind]
            for shape in shapes:
                if bb.KINDS[kind_name][1] == "ada" and shape in bb.REGRESSION_ONLY:
                    continue
                for threads in args.threads:
                    cell = (n, d, kind_name, shape, threads)
                    t_after, t_before = [], []
                    for _ in range(args.repeat):
                        t_after.append(_time_cell(args.after, cell, args.fits))
                        t_before.append(_time_cell(args.before, cell, args.fits))
                    a, b = min(t_after), min(t_before)
                    print(f"{n:>8,} x {d:<5} | {kind_name:<38} | {shape:<9} | {threads:>3} | "
                          f"{a:7.3f} | {b:8.3f} | {a / b:.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
