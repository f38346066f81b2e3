"""Fit a model from an installed wheel: the test command of the wheel builds (cibuildwheel).

Run it with the wheel installed, outside the source tree (``python tests/wheel_smoke.py``):
it checks that the package comes from the installed wheel (not from ``src/``), that its
compiled modules load with the shared utility module ``robust_boosting._cyutility``, that
the wheel carries its OpenMP runtime (``--no-openmp`` skips this check, for a local build
without OpenMP), and that ``SPLBoostClassifierCV`` fits a bundled data set with flipped
labels to the same model on one thread and on two.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np


def _vendored_openmp(package: Path) -> list[str]:
    """The OpenMP runtimes the wheel's repair step copied in: auditwheel and delvewheel put
    them in ``robust_boosting.libs/``, delocate in ``robust_boosting/.dylibs/``."""
    places = [package.parent / "robust_boosting.libs", package / ".dylibs"]
    return sorted(p.name for place in places if place.is_dir()
                  for p in place.iterdir() if "omp" in p.name.lower())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-openmp", action="store_true",
                        help="do not require an OpenMP runtime in the wheel")
    args = parser.parse_args(argv)

    import robust_boosting as rb
    from robust_boosting.datasets import load_dataset
    from robust_boosting.noise import flip_labels

    package = Path(rb.__file__).resolve().parent
    if (package.parent.parent / "setup.py").exists():
        raise SystemExit(f"robust_boosting was imported from a source tree ({package}), "
                         "not from the installed wheel")
    if "robust_boosting._cyutility" not in sys.modules:
        raise SystemExit("the compiled modules did not load robust_boosting._cyutility")
    openmp = _vendored_openmp(package)
    if not openmp and not args.no_openmp:
        raise SystemExit(f"no OpenMP runtime in the wheel (looked next to {package})")

    X, y = load_dataset("wdbc", return_X_y=True)
    y_noisy, _ = flip_labels(y, 0.2, random_state=0)
    models = [rb.SPLBoostClassifierCV(random_state=0, n_jobs=n).fit(X, y_noisy)
              for n in (1, 2)]
    accuracy = float(np.mean(models[0].predict(X) == y))
    if accuracy < 0.9:
        raise SystemExit(f"accuracy against the true labels {accuracy:.3f} < 0.9")
    if not np.array_equal(models[0].predict_proba(X), models[1].predict_proba(X)):
        raise SystemExit("the model fitted on two threads differs from the one on one thread")
    print(f"robust-boosting {rb.__version__} from {package}: SPLBoostClassifierCV on wdbc "
          f"with 20% flipped labels, accuracy {accuracy:.3f} against the true labels, the same "
          f"model on 1 and 2 threads; OpenMP runtime: {', '.join(openmp) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
