"""The OpenMP runtime of the kernels starts with a short spin (design records 0022, 0046)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import robust_boosting

#: where the tested package was imported from (the installed copy, or src/ in a
#: development build): the subprocesses import the same one
SRC = os.path.dirname(os.path.dirname(robust_boosting.__file__))


def _spin_counts(**env_extra) -> tuple[list[str], str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME")}
    env.update(PYTHONPATH=SRC, OMP_DISPLAY_ENV="VERBOSE", **env_extra)
    out = subprocess.run([sys.executable, "-c", "import os, robust_boosting; "
                          "print(os.environ.get('OMP_WAIT_POLICY'), "
                          "os.environ.get('GOMP_SPINCOUNT'), os.environ.get('KMP_BLOCKTIME'))"],
                         capture_output=True, text=True, env=env, timeout=120, check=True)
    counts = [line.split("=")[1].strip(" '") for line in out.stderr.splitlines()
              if line.strip().startswith("GOMP_SPINCOUNT")]
    policy, spin, blocktime = out.stdout.split()
    # what the package set for its runtime's start is gone again (a user's setting stays)
    assert spin == env_extra.get("GOMP_SPINCOUNT", "None")
    assert blocktime == env_extra.get("KMP_BLOCKTIME", "None")
    return counts, policy


def test_kernels_spin_briefly_and_the_environment_is_restored():
    counts, policy = _spin_counts()
    if not counts:
        pytest.skip("not libgomp: no GOMP_SPINCOUNT in OMP_DISPLAY_ENV's output")
    # the first runtime shown is the kernels' (loaded first): 1,000 spins, not libgomp's
    # 300,000; the process's environment is as before (nothing set for child processes)
    assert counts[0] == "1000" and policy == "None"


def test_a_wait_policy_the_user_set_is_kept():
    counts, policy = _spin_counts(OMP_WAIT_POLICY="ACTIVE")
    if not counts:
        pytest.skip("not libgomp: no GOMP_SPINCOUNT in OMP_DISPLAY_ENV's output")
    assert counts[0] not in ("0", "1000") and policy == "ACTIVE"
