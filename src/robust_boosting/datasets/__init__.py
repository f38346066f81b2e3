"""Data sets of the robust-boosting papers.

- Bundled UCI/KEEL sets (offline, checksum-verified): :func:`list_datasets`,
  :func:`load_dataset`, :func:`get_dataset_info`.
- The papers' binary tasks under stable names: :func:`list_tasks`, :func:`load_task`
  (e.g. ``"rilboost-wine"``: class 1 vs 2 + 3; ``"rilboost-ecoli"``: cp vs rest);
  :func:`load_xy` resolves any of these names (tasks, bundled sets, synthetic sets).
- Synthetic generators: :func:`make_splboost_gaussian` (Wang et al. 2019, Sec. IV-A),
  :func:`make_rilboost_gaussian` (Utkin & Zhuk 2014, Fig. 13), :func:`make_twonorm`, :func:`make_ringnorm`,
  and :func:`small_sample_split` for RILBoost's n/2-per-class training sets.
- Network loader with a local cache for the sets that are not bundled:
  :func:`fetch_dataset`, :func:`list_remote_datasets`, :func:`get_data_home`. Nothing is
  downloaded at import time.
"""

from ._base import DatasetChecksumError, get_dataset_info, list_datasets, load_dataset
from ._remote import (
    DEFAULT_OPENML_URL,
    DEFAULT_UCI_URL,
    REMOTE_DATASETS,
    DatasetDownloadError,
    RemoteDataset,
    fetch_dataset,
    get_data_home,
    list_remote_datasets,
)
from ._synthetic import (
    RILBOOST_GAUSSIAN_PARAMS,
    SPLBOOST_GAUSSIAN_PARAMS,
    make_rilboost_gaussian,
    make_ringnorm,
    make_splboost_gaussian,
    make_twonorm,
    rilboost_gaussian_log_odds,
    small_sample_split,
    splboost_gaussian_log_odds,
)
from ._tasks import TASKS, Task, list_tasks, load_task, load_xy

__all__ = [
    "DEFAULT_OPENML_URL",
    "DEFAULT_UCI_URL",
    "REMOTE_DATASETS",
    "RILBOOST_GAUSSIAN_PARAMS",
    "SPLBOOST_GAUSSIAN_PARAMS",
    "TASKS",
    "DatasetChecksumError",
    "DatasetDownloadError",
    "RemoteDataset",
    "Task",
    "fetch_dataset",
    "get_data_home",
    "get_dataset_info",
    "list_datasets",
    "list_remote_datasets",
    "list_tasks",
    "load_dataset",
    "load_task",
    "load_xy",
    "make_rilboost_gaussian",
    "make_ringnorm",
    "make_splboost_gaussian",
    "make_twonorm",
    "rilboost_gaussian_log_odds",
    "small_sample_split",
    "splboost_gaussian_log_odds",
]
