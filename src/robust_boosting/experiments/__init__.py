"""Experiment runner: reproduce the papers' experiments, locally or on a Dask cluster.

- :mod:`.algorithms`: the registry (name -> estimator + the paper's tuning grid).
- :mod:`.tasks`: :class:`Task`, one data set x noise x rate x algorithm x repetition,
  with a deterministic id.
- :mod:`.config`, :mod:`.presets`: grids of tasks (files or the papers' presets).
- :mod:`.runner`: model selection by CV with staged predictions; joblib / Dask execution.
- :mod:`.store`: the SQLite results store (resumable, one row per finished task).
- :mod:`.report`: Markdown + PNG reports with the papers' published numbers alongside.
"""

from .algorithms import ALGORITHMS, AlgorithmSpec, get_algorithm, make_estimator
from .config import AlgorithmConfig, ExperimentConfig, load_config
from .presets import PRESETS, get_preset, list_presets
from .runner import Progress, RunSummary, run_task, run_tasks, select_model
from .store import ResultStore
from .tasks import Task

__all__ = [
    "ALGORITHMS",
    "PRESETS",
    "AlgorithmConfig",
    "AlgorithmSpec",
    "ExperimentConfig",
    "Progress",
    "ResultStore",
    "RunSummary",
    "Task",
    "get_algorithm",
    "get_preset",
    "list_presets",
    "load_config",
    "make_estimator",
    "run_task",
    "run_tasks",
    "select_model",
]
