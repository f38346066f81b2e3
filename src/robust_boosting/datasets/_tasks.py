"""The papers' binary tasks under stable names ("rilboost-wine", "splboost-adult", ...)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sklearn.utils import Bunch

from ._base import _binarize, list_datasets, load_dataset, make_bunch
from ._remote import fetch_dataset
from ._synthetic import make_rilboost_gaussian, make_splboost_gaussian

__all__ = ["Task", "TASKS", "list_tasks", "load_task", "load_xy"]


@dataclass(frozen=True)
class Task:
    """A binary classification task of one of the papers.

    Attributes
    ----------
    name : str
        ``"<paper>-<data set>"``, e.g. ``"rilboost-wine"``.
    paper : str
        ``"splboost"``, ``"savageboost"`` or ``"rilboost"``.
    dataset : str
        Bundled (:func:`load_dataset`) or remote (:func:`fetch_dataset`) data set name.
    bundled : bool
    positive : tuple of str or None
        Original labels mapped to +1; None keeps the data set's own binary mapping.
    note : str
    """

    name: str
    paper: str
    dataset: str
    bundled: bool
    positive: tuple[str, ...] | None = None
    note: str = ""


def _bundled(paper: str, dataset: str, positive=None, note: str = "") -> Task:
    return Task(f"{paper}-{dataset}", paper, dataset, True, positive, note)


_SPL_REMOTE = [
    "adult",
    "bank",
    "blood",
    "connect-4",
    "miniboone",
    "ozone",
    "parkinsons",
    "pb-T-OR-D",
    "oocMerl4D",
    "vc-2classes",
]
_RIL_REMOTE = [
    "parkinsons",
    "breast-tissue",
    "ilpd",
    "lung-cancer",
    "seeds",
    "vc-2classes",
    "blood",
    "steel-plates-fault",
    "planning-relax",
    "fertility",
    "madelon",
    "qsar-biodeg",
    "seismic-bumps",
]

#: All named tasks. SPLBoost: its Table I (17 sets; ``splboost-st-german-credit`` is the
#: bundled ``german``). SavageBoost: the eight of its ten sets available offline.
#: RILBoost: its Table 1 sets, with its sign convention where it differs from the
#: manifest (wine: class 1 = -1, classes 2 + 3 = +1; ecoli: cp = -1, the rest = +1).
TASKS: dict[str, Task] = {
    t.name: t
    for t in [
        *[
            _bundled("splboost", d)
            for d in ["magic", "pima", "ringnorm", "spambase", "titanic", "twonorm"]
        ],
        Task(
            "splboost-st-german-credit",
            "splboost",
            "german",
            True,
            None,
            "Statlog German credit, 13 categorical columns; positive = bad credit.",
        ),
        *[Task(f"splboost-{d}", "splboost", d, False, None, "") for d in _SPL_REMOTE],
        *[
            _bundled("savageboost", d)
            for d in [
                "bupa",
                "haberman",
                "heart",
                "pima",
                "sonar",
                "tic-tac-toe",
                "wdbc",
                "wisconsin",
            ]
        ],
        _bundled(
            "rilboost",
            "wine",
            ("2", "3"),
            "RILBoost: classes 2 and 3 merged (+1, 119) against class 1 (-1, 59).",
        ),
        _bundled(
            "rilboost",
            "ecoli",
            ("rest",),
            "RILBoost: cytoplasm 'cp' (143) is the negative class (-1), the rest (193) "
            "+1 -- the opposite sign of the manifest's positive class.",
        ),
        *[_bundled("rilboost", d) for d in ["haberman", "pima", "ionosphere"]],
        _bundled(
            "rilboost",
            "mammographic",
            None,
            "Rows with missing values removed: 830 of the paper's 961.",
        ),
        _bundled(
            "rilboost",
            "wisconsin",
            None,
            "BCWO, rows with missing values removed: 683 of the paper's 699.",
        ),
        *[Task(f"rilboost-{d}", "rilboost", d, False, None, "") for d in _RIL_REMOTE],
    ]
}


def list_tasks(paper: str | None = None, *, offline_only: bool = False) -> list[str]:
    """Names of the papers' binary tasks.

    Parameters
    ----------
    paper : {"splboost", "savageboost", "rilboost"}, optional
        Only this paper's tasks.
    offline_only : bool, default=False
        Only tasks on bundled data sets (no download needed).

    Returns
    -------
    names : list of str
        Sorted. RILBoost's yeast (CYT vs rest) is absent: the bundled copy cannot
        rebuild that labelling.
    """
    if paper is not None and paper.lower() not in {t.paper for t in TASKS.values()}:
        raise ValueError(f"unknown paper {paper!r}; use splboost, savageboost or rilboost")
    return sorted(
        t.name
        for t in TASKS.values()
        if (paper is None or t.paper == paper.lower()) and (t.bundled or not offline_only)
    )


def load_task(name: str, *, return_X_y: bool = False, as_frame: bool = False,
              **kwargs: Any) -> Bunch | tuple:
    """Load one of the papers' binary tasks with labels in {-1, +1}.

    Parameters
    ----------
    name : str
        A name from :func:`list_tasks`, e.g. ``"rilboost-wine"`` or ``"splboost-adult"``.
    return_X_y : bool, default=False
    as_frame : bool, default=False
        As in :func:`load_dataset`.
    **kwargs
        Passed to :func:`load_dataset` (bundled sets) or :func:`fetch_dataset` (the
        others, e.g. ``data_home``, ``base_url``, ``download_if_missing``).

    Returns
    -------
    data : sklearn.utils.Bunch
        As :func:`load_dataset`, with ``target`` in {-1, +1}, ``task`` (the
        :class:`Task`) and the task's note appended to ``DESCR``.
    (X, y) : tuple of ndarray
        If ``return_X_y`` is True.
    """
    if name not in TASKS:
        raise KeyError(f"unknown task {name!r}; available: {', '.join(sorted(TASKS))}")
    task = TASKS[name]
    if task.bundled:
        data = load_dataset(task.dataset, **kwargs)
        if task.positive is not None:
            data.target, data.target_names = _binarize(list(data.labels),
                                                       set(task.positive))
            data.positive_class = " + ".join(task.positive)
    else:
        data = fetch_dataset(task.dataset, positive=task.positive, **kwargs)
    data.task = task
    data.name = name
    if task.note:
        data.DESCR += f"\nTask {name}: {task.note}"
    if as_frame or return_X_y:
        extra = {k: v for k, v in data.items() if k not in _BUNCH_KEYS}
        return make_bunch(data.data, data.target, data.feature_names, data.target_names,
                          data.DESCR, return_X_y=return_X_y, as_frame=as_frame, **extra)
    return data


_BUNCH_KEYS = ("data", "target", "feature_names", "target_names", "DESCR", "frame")


def load_xy(name: str, *, random_state: int = 0) -> tuple[Any, Any]:
    """Features and labels of any named data: a task, a bundled set or a synthetic set.

    The one name resolution used by the experiment runner and ``robust-boosting plot``.

    Parameters
    ----------
    name : str
        A task of :func:`list_tasks` (labels -1/+1), a bundled data set of
        :func:`~robust_boosting.datasets.list_datasets` (its own labels), or
        ``"splboost-gaussian"`` / ``"rilboost-gaussian"``: one draw of 100 samples per
        class of the SPLBoost (Wang et al. 2019, Sec. IV-A) or RILBoost (Utkin & Zhuk 2014,
        Fig. 13) Gaussians.
    random_state : int, default=0
        Seed of the synthetic draw; unused for the other names.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)

    Raises
    ------
    ValueError
        For an unknown name, listing the valid ones.
    """
    if name == "splboost-gaussian":
        return make_splboost_gaussian(100, random_state=random_state)
    if name == "rilboost-gaussian":
        return make_rilboost_gaussian(100, random_state=random_state)
    if name in TASKS:
        return load_task(name, return_X_y=True)
    if name in list_datasets():
        return load_dataset(name, return_X_y=True)
    raise ValueError(
        f"unknown data set {name!r}; use a task ({', '.join(sorted(TASKS))}), a bundled data "
        f"set ({', '.join(list_datasets())}), 'splboost-gaussian' or 'rilboost-gaussian'"
    )
