"""``robust-boosting fit``'s progress on a terminal, ``--n-jobs``, and Ctrl-C."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import robust_boosting

#: where the tested package was imported from (the installed copy, or src/ in a
#: development build): the subprocesses import the same one
SRC = os.path.dirname(os.path.dirname(robust_boosting.__file__))


def _csv(path: Path, n: int, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 6))
    y = np.where(X[:, 0] + X[:, 1] + 0.5 * rng.normal(size=n) > 0, "yes", "no")
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(6)])
    frame["label"] = y
    frame.to_csv(path, index=False)
    return path


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = SRC + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _sigint_default():
    """In the child, before it starts: Ctrl-C's default action. A shell starts background
    jobs with SIGINT ignored, and Python keeps an ignored SIGINT ignored, so without this
    the test would depend on how the suite was started."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_on_pty(args, cwd):
    """Start the CLI with stderr on a pseudo-terminal, stdout on a pipe."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "robust_boosting.cli", *args], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=slave, env=_env(),
                            preexec_fn=_sigint_default)
    os.close(slave)
    return proc, master


def _read_until(master, proc, needle: bytes | None, timeout: float) -> bytes:
    """What the terminal shows until ``needle`` appears (None: until the process ends)."""
    out = b""
    end = time.monotonic() + timeout
    while time.monotonic() < end and (needle is None or needle not in out):
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the terminal closed: the process ended
                break
            if not chunk:
                break
            out += chunk
        elif proc.poll() is not None and needle is not None:
            break
    return out


def test_progress_on_a_terminal_not_when_piped(tmp_path):
    csv = _csv(tmp_path / "data.csv", 200)
    args = ["fit", str(csv), "--label", "label", "--model", "m.skops", "--n-jobs", "1"]
    proc, master = _start_on_pty(args, tmp_path)
    shown = _read_until(master, proc, None, 300)
    proc.wait(60)
    os.close(master)
    assert proc.returncode == 0, shown
    text = shown.decode(errors="replace")
    for stage in ("search: ", "label issues: ", "final fit: ", "fit: "):
        assert stage in text, text
    assert "\r" in text and "[####" in text  # one line rewritten, with a bar
    assert b"search" not in proc.stdout.read()  # the progress is on stderr only
    piped = subprocess.run([sys.executable, "-m", "robust_boosting.cli", *args], cwd=tmp_path,
                           capture_output=True, env=_env(), timeout=300)
    assert piped.returncode == 0, piped.stderr
    assert piped.stderr == b"" and b"search" not in piped.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_ctrl_c_during_a_long_fit_writes_nothing(tmp_path):
    csv = _csv(tmp_path / "data.csv", 30_000)
    args = ["fit", str(csv), "--label", "label", "--model", "m.skops",
            "--label-issues", "issues.csv"]
    proc, master = _start_on_pty(args, tmp_path)
    shown = _read_until(master, proc, b"search: ", 300)  # the fit has started
    assert b"search: " in shown, shown
    proc.send_signal(signal.SIGINT)
    rest = _read_until(master, proc, None, 60)
    proc.wait(60)
    os.close(master)
    assert proc.returncode == 130, shown + rest
    assert b"robust-boosting fit: interrupted; nothing written" in rest
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data.csv"]


def test_save_model_leaves_no_partial_file(tmp_path, monkeypatch):
    """An exception during the write (Ctrl-C included) leaves the old file as it was and
    no temporary file."""
    import skops.io as sio
    from sklearn.datasets import make_classification

    from robust_boosting import AdaBoostClassifier, load_model, save_model

    X, y = make_classification(60, 3, n_informative=2, n_redundant=0, random_state=0)
    path = tmp_path / "m.skops"
    save_model(AdaBoostClassifier(n_estimators=2).fit(X, y), path)
    before = path.read_bytes()

    def interrupted(obj, file, **kw):
        Path(file).write_bytes(b"half")
        raise KeyboardInterrupt

    monkeypatch.setattr(sio, "dump", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save_model(AdaBoostClassifier(n_estimators=3).fit(X, y), path)
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["m.skops"]
    monkeypatch.undo()
    assert load_model(path).n_estimators == 2
    assert oct(path.stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_n_jobs_option_reaches_the_model(tmp_path):
    from robust_boosting.cli import main

    csv = _csv(tmp_path / "data.csv", 120)
    assert main(["fit", str(csv), "--label", "label", "--algorithm", "adaboost",
                 "--rounds", "3", "--n-jobs", "2", "--model", str(tmp_path / "m.skops")]) == 0
    from robust_boosting import load_model

    assert load_model(tmp_path / "m.skops").n_jobs == 2
