"""Two source trees of the library, the same grid cells, in one run: after / before ratios.

Run:  python benchmarks/bench_compare.py --after . --before /path/to/old/checkout \\
          [--sizes 10000x20] [--shapes stumps "depth 6" "31 leaves" "sym 8"] \\
          [--kinds ada logit2 logit5] [--threads 1 2] [--repeat 3] [--fits 1]
      python benchmarks/bench_compare.py --after . --before OLD --instructions [--rounds 20]

Each cell of ``bench_boosting.py --grid`` (tree shape x booster x size x threads, the
same data and models) is fitted in a fresh subprocess per measurement, with
``PYTHONPATH=<tree>/src`` so that each tree's own build is imported (both trees must be
built in place: ``python setup.py build_ext --inplace``). The two trees alternate,
after, before, after, before, ... ``--repeat`` times each, so that a drift of the
machine's load hits both; each subprocess fits a warm-up model on 2,000 rows, then
times ``--fits`` fits of the cell's model (binning included; the best counts) through
the public API only. The table gives the best time of each tree and their ratio,
after / before (below 1: the after tree is faster).

``--instructions`` counts instead of timing, for machines whose load drifts more than
the difference sought: each cell's fit (``--rounds`` rounds, one thread) runs once per
tree under ``valgrind --tool=callgrind`` with instrumentation switched on
(``callgrind_control``) for the fit only, and the table gives the instructions
executed, which do not depend on the machine's load (run to run: about 0.01 %).
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


_CHILD_COUNT = """
import os, subprocess, sys, warnings
sys.path.insert(0, {here!r})
warnings.simplefilter("ignore")
import bench_boosting as bb
n, d, kind_name, shape, threads = {cell!r}
n_classes, kind = bb.KINDS[kind_name]
X, y = bb._grid_data(n, d, n_classes)
bb._grid_models(kind, shape, threads, 2)[0].fit(X[:500], y[:500])
ours = bb._grid_models(kind, shape, threads, {rounds})[0]
pid = str(os.getpid())
subprocess.run(["callgrind_control", "-i", "on", pid], check=True, capture_output=True)
ours.fit(X, y)
subprocess.run(["callgrind_control", "-i", "off", pid], check=True, capture_output=True)
"""


def _count_cell(tree: str, cell: tuple, rounds: int) -> int:
    """Instructions executed by one fit of ``cell`` (``rounds`` rounds) with the library
    of source tree ``tree``, counted by callgrind."""
    import tempfile

    src = os.path.join(os.path.abspath(tree), "src")
    env = dict(os.environ, PYTHONPATH=src, OMP_NUM_THREADS="1")
    with tempfile.TemporaryDirectory() as tmp:
        out_file = os.path.join(tmp, "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no",
                        f"--callgrind-out-file={out_file}", sys.executable, "-c",
                        _CHILD_COUNT.format(here=_HERE, cell=cell, rounds=rounds)],
                       env=env, capture_output=True, text=True, check=True)
        with open(out_file) as fh:
            for line in fh:
                if line.startswith("totals:"):
                    return int(line.split()[1])
    raise RuntimeError(f"{tree}: callgrind wrote no totals for {cell}")


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
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions with callgrind (one thread) instead of timing")
    parser.add_argument("--rounds", type=int, default=20,
                        help="boosting rounds of a counted fit (--instructions)")
    args = parser.parse_args(argv)
    if args.instructions:
        args.threads, args.repeat = [1], 1

    sys.path.insert(0, _HERE)
    import bench_boosting as bb

    shapes = args.shapes or list(bb.SHAPES)
    for s in shapes:
        if s not in bb.SHAPES:
            parser.error(f"unknown shape {s!r}; one of {list(bb.SHAPES)}")
    print(f"after: {os.path.abspath(args.after)}\nbefore: {os.path.abspath(args.before)}")
    unit = "instr" if args.instructions else "s"
    print(f"{'rows x features':>16} | {'booster':<38} | {'tree':<9} | thr | "
          f"{'after ' + unit:>13} | {'before ' + unit:>14} | after / before")
    for size in args.sizes:
        n, d = (int(v) for v in size.split("x"))
        for kind in args.kinds:
            kind_name = KINDS[kind]
            for shape in shapes:
                if bb.KINDS[kind_name][1] == "ada" and shape in bb.REGRESSION_ONLY:
                    continue
                for threads in args.threads:
                    cell = (n, d, kind_name, shape, threads)
                    if args.instructions:
                        a = _count_cell(args.after, cell, args.rounds)
                        b = _count_cell(args.before, cell, args.rounds)
                        shown = f"{a:13,} | {b:14,}"
                    else:
                        t_after, t_before = [], []
                        for _ in range(args.repeat):
                            t_after.append(_time_cell(args.after, cell, args.fits))
                            t_before.append(_time_cell(args.before, cell, args.fits))
                        a, b = min(t_after), min(t_before)
                        shown = f"{a:13.3f} | {b:14.3f}"
                    print(f"{n:>8,} x {d:<5} | {kind_name:<38} | {shape:<9} | {threads:>3} | "
                          f"{shown} | {a / b:.4f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
