"""Cold start: the first fit in a fresh process against a second fit in the same process.

Run it with the interpreter of the environment to measure (after ``pip install .``)::

    .venv/bin/python benchmarks/bench_cold_start.py

Every cache the package could leave is cleared first: the ``__pycache__``
directories of the installed ``robust_boosting`` (so even Python's bytecode is
compiled again) and any numba cache directory (``NUMBA_CACHE_DIR``; the package
no longer uses numba, whose first-call compile took about 30 s). Each case runs
in a new process: ``import robust_boosting``, load wdbc, then time
``fit`` twice. The acceptance is a first fit of at most 3 s and at most 2x the second.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

CASE = r"""
import json, sys, time
t0 = time.perf_counter()
import robust_boosting as rb
from robust_boosting.datasets import load_dataset
t_import = time.perf_counter() - t0
X, y = load_dataset("wdbc", return_X_y=True)
make = {"cv": lambda: rb.SPLBoostClassifierCV(random_state=0),
        "ada": lambda: rb.AdaBoostClassifier()}[sys.argv[1]]
times = []
for _ in range(2):
    t = time.perf_counter()
    make().fit(X, y)
    times.append(time.perf_counter() - t)
print(json.dumps({"import": t_import, "first": times[0], "second": times[1]}))
"""


def clear_caches() -> list[str]:
    """Remove the installed package's bytecode caches; returns what was removed."""
    out = subprocess.run([sys.executable, "-c", "import robust_boosting, os; "
                          "print(os.path.dirname(robust_boosting.__file__))"],
                         capture_output=True, text=True, check=True)
    root = Path(out.stdout.strip())
    removed = [str(p) for p in root.rglob("__pycache__")]
    for p in removed:
        shutil.rmtree(p, ignore_errors=True)
    numba_dir = os.environ.get("NUMBA_CACHE_DIR")
    if numba_dir and Path(numba_dir).exists():
        shutil.rmtree(numba_dir, ignore_errors=True)
        removed.append(numba_dir)
    return removed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3,
                        help="fresh processes per case, caches cleared before each")
    args = parser.parse_args(argv)
    print(f"python: {sys.executable}")
    for case, name in (("cv", "SPLBoostClassifierCV(random_state=0).fit(wdbc)"),
                       ("ada", "AdaBoostClassifier().fit(wdbc)")):
        for r in range(args.repeats):
            n_removed = len(clear_caches())
            res = subprocess.run([sys.executable, "-c", CASE, case], capture_output=True,
                                 text=True, check=True)
            m = json.loads(res.stdout.strip().splitlines()[-1])
            print(f"{name}  run {r + 1}: caches removed {n_removed}; import {m['import']:.2f} s, "
                  f"first fit {m['first']:.3f} s, second fit {m['second']:.3f} s, "
                  f"first/second {m['first'] / m['second']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
