"""Shared test fixtures."""

import os
import subprocess
import sys


def _pin_numpy_simd() -> None:
    """Run numpy at its AVX2 (x86-64-v3) level: no AVX-512 loops.

    numpy picks its ``exp``/``log``/... loops by the processor, and its AVX-512 loops
    round some results differently in the last bit. The recorded fingerprints and
    predictions (``test_bit_identity``, ``test_old_model_files``) were made without
    AVX-512, so the suite disables those loops (``NPY_DISABLE_CPU_FEATURES``, read when
    numpy is imported: here, before any test imports it, and inherited by every
    subprocess and pytest-xdist worker). It changes no machine without AVX-512.
    """
    if "NPY_DISABLE_CPU_FEATURES" in os.environ or "numpy" in sys.modules:
        return
    probe = ("import numpy._core._multiarray_umath as m; "
             "print(' '.join(f for f in m.__cpu_dispatch__ "
             "if f.startswith(('AVX512', 'X86_V4'))))")
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    if found.returncode == 0 and found.stdout.strip():
        os.environ["NPY_DISABLE_CPU_FEATURES"] = found.stdout.strip()


_pin_numpy_simd()

# Under pytest-xdist each worker process takes its share of the cores, as joblib's
# workers do (robust_boosting.trees.binning._default_threads reads OMP_NUM_THREADS):
# two workers with two OpenMP threads each on two cores wait on each other's threads.
# Tests that need several threads pass n_jobs, which this does not cap.
if os.environ.get("PYTEST_XDIST_WORKER") and "OMP_NUM_THREADS" not in os.environ:
    _workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    os.environ["OMP_NUM_THREADS"] = str(max(1, (os.cpu_count() or 1) // max(1, _workers)))

import numpy as np
import pytest

import robust_boosting
from robust_boosting.datasets import make_splboost_gaussian
from robust_boosting.noise import flip_labels_per_class


def pytest_collection_modifyitems(items):
    """Ignore the boosters' documented notice that boosting stopped early.

    It is expected on the tiny data sets of scikit-learn's estimator checks and of some
    tests; the tests that check it use ``pytest.warns``, which still sees it.
    """
    ignore = pytest.mark.filterwarnings(
        f"ignore::{robust_boosting.BoostingStoppedWarning.__module__}.BoostingStoppedWarning")
    for item in items:
        item.add_marker(ignore, append=False)


@pytest.fixture
def noisy_binary():
    """SPEC §8A set, 100 per class, 15 % of each class flipped: (X, y_noisy, y_clean, flipped)."""
    X, y = make_splboost_gaussian(100, random_state=0)
    y_noisy, flipped = flip_labels_per_class(y, 0.15, random_state=0)
    return X, y_noisy, y, flipped


@pytest.fixture
def data():
    """A small, well-separated binary problem: 60 samples, 3 features, labels -1/+1."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=60) > 0, 1, -1)
    return X, y


@pytest.fixture(scope="module")
def bench(request):
    """The benchmark script named by the test module's ``BENCHMARK`` (``benchmarks/NAME.py``),
    imported as the module ``NAME`` (dataclasses look it up in ``sys.modules``), with its
    folder on ``sys.path`` for the scripts it imports; both are undone afterwards."""
    import importlib.util
    from pathlib import Path

    name = request.module.BENCHMARK
    folder = Path(__file__).resolve().parents[1] / "benchmarks"
    sys.path.insert(0, str(folder))
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop(name, None)
        sys.path.remove(str(folder))
