"""Progress of a long fit (``verbose``): logging records per stage, and no effect on the
model."""

from __future__ import annotations

import logging

import numpy as np
import pytest
from sklearn.datasets import make_classification

from robust_boosting import SPLBoostClassifierCV
from robust_boosting._progress import LOGGER_NAME, Progress

STAGES = ("search", "label issues", "final fit", "fit")


@pytest.fixture(scope="module")
def data():
    return make_classification(200, 5, n_informative=3, flip_y=0.1, random_state=0)


def _records(caplog, verbose, X, y, monkeypatch, **params):
    monkeypatch.setattr("robust_boosting._progress.INTERVAL", 0.0)  # every progress line
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger=LOGGER_NAME):
        model = SPLBoostClassifierCV(random_state=0, verbose=verbose, **params).fit(X, y)
    return model, [r for r in caplog.records if r.name == LOGGER_NAME]


def test_verbose_1_logs_every_stage_with_time_left(data, caplog, monkeypatch):
    _, records = _records(caplog, 1, *data, monkeypatch)
    assert records and all(r.levelno == logging.INFO for r in records)
    stages = [r.stage for r in records]
    for stage in STAGES:
        assert stage in stages, stage
    # each stage's start and end, in order, and progress with an estimate of the time left
    first = [stages.index(s) for s in STAGES]
    assert first == sorted(first)
    for stage in ("search", "final fit"):
        lines = [r.getMessage() for r in records if r.stage == stage]
        assert any("% done, about" in m and m.endswith(" left") for m in lines), lines
        assert lines[-1].startswith(f"{stage}: done in ")
    assert records[-1].getMessage().startswith("fit: ") and records[-1].fraction == 1.0


def test_verbose_2_adds_debug_records_0_none_and_no_model_changes(data, caplog, monkeypatch):
    loud, records = _records(caplog, 2, *data, monkeypatch)
    debug = [r.getMessage() for r in records if r.levelno == logging.DEBUG]
    assert any("stopped after" in m for m in debug), debug
    quiet, records = _records(caplog, 0, *data, monkeypatch)
    assert records == []
    X = data[0]
    assert loud.predict_proba(X).tobytes() == quiet.predict_proba(X).tobytes()
    np.testing.assert_array_equal(loud.label_issues_, quiet.label_issues_)


@pytest.mark.parametrize("bad", [-1, 1.5, True, "1"])
def test_bad_verbose(data, bad):
    with pytest.raises(ValueError, match="verbose must be a non-negative integer"):
        SPLBoostClassifierCV(verbose=bad).fit(*data)


def test_progress_prints_on_stderr_when_logging_has_no_handler(capsys, monkeypatch):
    """Without any handler configured, verbose=1 still shows its lines (on stderr), and
    the logger's level and handlers are restored after the fit."""
    logger = logging.getLogger(LOGGER_NAME)
    monkeypatch.setattr(logger, "propagate", False)  # pytest's own root handlers out of sight
    assert not logger.hasHandlers()
    with Progress(1) as progress:
        progress.stage("search", "starting")
        progress.done()
    err = capsys.readouterr().err
    assert "[robust_boosting] search: starting" in err and "search: done in" in err
    assert logger.level == logging.NOTSET and not logger.handlers
