"""Presets: the quick demo grid and the papers' experiments.

Each preset's defaults follow the paper's protocol as closely as the library allows
(hours to days on a laptop: meant for a cluster); where it differs, the difference
is stated in the preset's docstring and in the protocol table at the top of its
report. Every size can be reduced with keyword arguments (the ``benchmark``
command's options).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .algorithms import SPLBOOST_AGE_GRID, parse_grid
from .config import AlgorithmConfig, ExperimentConfig

__all__ = ["PRESETS", "get_preset", "list_presets"]

SPL_UCI_ALGORITHMS = ("adaboost", "logitboost", "savageboost", "rboost", "robustboost",
                      "splboost-hard", "splboost-linear", "splboost-lowerconvex",
                      "splboost-upperconvex")
SPL_SYNTHETIC_ALGORITHMS = ("adaboost", "logitboost", "savageboost", "rboost", "robustboost",
                            "splboost-hard")
SAVAGE_ALGORITHMS = ("savageboost", "logitboost", "realboost", "adaboost")

#: The SPLBoost paper's weak learners are C4.5 classification trees (AdaBoost, SPLBoost,
#: RobustBoost) and CART regression trees (LogitBoost, RBoost), Wang et al. (2019), Sec.
#: IV-A; it states no depth or pruning rule. Ours: histogram trees of depth 3, entropy
#: criterion for the classifiers, squared error for the regressors (the registry picks
#: the kind each booster needs).
SPLBOOST_WEAK_LEARNER = "hist-3"

#: The lowerconvex regularizer's lambda lands on the paper's upper edge (6) in most
#: cases, so its grid is widened (the same step 0.1 would be 151 values; step 0.5).
LOWERCONVEX_AGE_GRID = "1:16:0.5"
RILBOOST_EPSILONS = tuple(round(0.05 * i, 2) for i in range(11))  # 0, 0.05, ..., 0.5

#: The RILBoost paper's RBF kernel is exp(-|x - y|^2 / gamma^2) with "parameter 2": read as
#: its gamma, scikit-learn's gamma is 1 / 2^2 = 0.25; read as R's parameter (the paper
#: used R), gamma = 2. Both are run (fixed before looking at the results).
RILBOOST_GAMMAS = (0.25, 2.0)


def _bundled(paper: str) -> list[str]:
    from ..datasets import list_tasks

    return list_tasks(paper, offline_only=True)


def _algs(names: Sequence[str], tune: dict | None = None, **extra) -> list[AlgorithmConfig]:
    out = []
    for n in names:
        spl = n.startswith("splboost") or n.startswith("spl-")
        out.append(AlgorithmConfig(name=n, tune=(tune if spl and tune is not None else None),
                                   **extra))
    return out


def quick(*, repetitions: int | None = None, datasets: Sequence[str] | None = None,
          rates: Sequence[float] | None = None, rounds: int | None = None,
          algorithms: Sequence[str] | None = None, age_grid: Sequence[float] | None = None,
          seed: int = 0, **_: Any) -> ExperimentConfig:
    """One to two CPU-minutes (under a minute on 2 free cores, several minutes on a busy
    machine): 2 bundled sets, 4 noise rates, the library's
    default :class:`~robust_boosting.SPLBoostClassifierCV` against LightGBM (where
    installed) and a random forest with their defaults, and AdaBoost vs SPLBoost, LogitBoost
    and SavageBoost with stumps, their rounds and SPLBoost's age chosen by 5-fold CV."""
    from .algorithms import ALGORITHMS, beyond_the_papers

    boosters = ["adaboost", "splboost-hard", "logitboost", "savageboost"]
    # the library's default and the peers: their own trees, no weak learner of ours
    peers = [a for a in ALGORITHMS if beyond_the_papers(a)]
    names = list(algorithms or [a for a in peers + boosters if ALGORITHMS[a].is_available()])
    tune = {"age": list(age_grid or [1.5, 2.5, 4.0])}
    algs = [AlgorithmConfig(name=n) if n in peers
            else _algs([n], tune=tune, weak_learner="hist-stump")[0] for n in names]
    return ExperimentConfig(
        name="quick", experiment="noise-grid",
        datasets=list(datasets or ["splboost-pima", "savageboost-wdbc"]),
        algorithms=algs,
        noise=["symmetric"], rates=list(rates if rates is not None else [0.0, 0.1, 0.2, 0.3]),
        repetitions=repetitions or 2, seed=seed, rounds=rounds or 50, tune_rounds=True,
        protocol="holdout", split={"test_size": 0.3},
        description="SPLBoostClassifierCV against LightGBM and a random forest, and AdaBoost "
                    "against SPLBoost and robust baselines, under symmetric label noise")


def splboost_synthetic(*, repetitions: int | None = None, rounds: int | None = None,
                       algorithms: Sequence[str] | None = None,
                       age_grid: Sequence[float] | None = None, seed: int = 0,
                       n_test_per_class: int = 2000, weak_learner: str | None = None,
                       **_: Any) -> ExperimentConfig:
    """The SPLBoost paper's two Gaussians (Wang et al. 2019, Sec. IV-A): 100 per class,
    15 % of each class flipped, T <= 200 chosen by 5-fold CV, trees as weak learners
    (:data:`SPLBOOST_WEAK_LEARNER`), SPLBoost (hard) at lambda = 1.5, 2.0, 2.5 (its Fig. 3),
    RobustBoost's error_goal by CV; test error on a fresh clean draw of n_test_per_class
    per class, next to the Bayes error."""
    ages = list(age_grid or [1.5, 2.0, 2.5])
    algs = []
    for n in algorithms or SPL_SYNTHETIC_ALGORITHMS:
        if n.startswith("splboost"):
            algs.append(AlgorithmConfig(name=n, params={"age": ages}, tune={}))
        else:  # the registry's grid: RobustBoost's error_goal, nothing for the others
            algs.append(AlgorithmConfig(name=n, tune=None))
    return ExperimentConfig(
        name="splboost-synthetic", experiment="splboost-synthetic",
        datasets=["splboost-gaussian"], algorithms=algs, noise=["per-class"], rates=[0.15],
        repetitions=repetitions or 50, seed=seed, rounds=rounds or 200, tune_rounds=True,
        protocol="synthetic", weak_learner=weak_learner or SPLBOOST_WEAK_LEARNER,
        split={"n_train_per_class": 100, "n_test_per_class": n_test_per_class},
        description="SPLBoost paper, synthetic experiment (Sec. IV-A)")


def splboost_uci(*, repetitions: int | None = None, datasets: Sequence[str] | None = None,
                 rates: Sequence[float] | None = None, rounds: int | None = None,
                 algorithms: Sequence[str] | None = None, age_grid: Sequence[float] | None = None,
                 seed: int = 0, weak_learner: str | None = None, **_: Any) -> ExperimentConfig:
    """The SPLBoost paper's UCI grid (Wang et al. 2019, Sec. IV-B): 70/30 splits, 0-30 %
    symmetric flips, T <= 200 and lambda in [1, 6] (step 0.1) by 5-fold CV (lowerconvex:
    :data:`LOWERCONVEX_AGE_GRID`, its lambda sits on the edge 6), RobustBoost's
    error_goal by CV, trees as weak learners (:data:`SPLBOOST_WEAK_LEARNER`), 50
    repetitions, the nine algorithms of its Fig. 4."""
    algs = _algs(algorithms or SPL_UCI_ALGORITHMS,
                 tune={"age": list(age_grid or SPLBOOST_AGE_GRID)})
    for a in algs:
        if a.name == "splboost-lowerconvex":
            if age_grid is None:
                a.tune = {"age": LOWERCONVEX_AGE_GRID}
            else:  # the given grid, widened by integers up to 16
                top = max(parse_grid(list(age_grid)))
                a.tune = {"age": sorted({*parse_grid(list(age_grid)),
                                         *(float(v) for v in range(int(top) + 1, 17))})}
    return ExperimentConfig(
        name="splboost-uci", experiment="noise-grid",
        datasets=list(datasets or _bundled("splboost")),
        algorithms=algs,
        noise=["symmetric"],
        rates=list(rates if rates is not None else [0.0, 0.05, 0.1, 0.2, 0.3]),
        repetitions=repetitions or 50, seed=seed, rounds=rounds or 200, tune_rounds=True,
        protocol="holdout", split={"test_size": 0.3},
        weak_learner=weak_learner or SPLBOOST_WEAK_LEARNER,
        description="SPLBoost paper, UCI experiment (Sec. IV-B, Figs. 4 and 5)")


def savageboost_table4(*, repetitions: int | None = None, datasets: Sequence[str] | None = None,
                       rates: Sequence[float] | None = None, rounds: int | None = None,
                       algorithms: Sequence[str] | None = None, seed: int = 0,
                       **_: Any) -> ExperimentConfig:
    """SavageBoost paper (Masnadi-Shirazi & Vasconcelos 2008), Table 4: SavageBoost,
    LogitBoost, RealBoost, AdaBoost, 50 rounds of histogram stumps (the paper does not
    name its weak learner), 5-fold CV, outlier rates 0-40 % (step 5 %), on the eight
    SavageBoost sets available offline."""
    return ExperimentConfig(
        name="savageboost-table4", experiment="savageboost-table4",
        datasets=list(datasets or _bundled("savageboost")),
        algorithms=[AlgorithmConfig(name=n, tune={}) for n in algorithms or SAVAGE_ALGORITHMS],
        noise=["symmetric"],
        rates=list(rates if rates is not None else [round(0.05 * i, 2) for i in range(9)]),
        repetitions=repetitions or 1, seed=seed, rounds=rounds or 50, tune_rounds=False,
        protocol="kfold", split={"n_folds": 5},
        description="SavageBoost paper, Table 4")


def rilboost_small_sample(*, repetitions: int | None = None,
                          datasets: Sequence[str] | None = None,
                          rounds: int | None = None, epsilon_grid: Sequence[float] | None = None,
                          n_train: Sequence[int] | None = None, seed: int = 0,
                          strategies: bool = True, mixing_study: bool = True,
                          **_: Any) -> ExperimentConfig:
    """The RILBoost paper's small-sample study (Utkin & Zhuk, Sec. 5): balanced training
    sets of n = 20, 40 (rest = test), T = 10, weighted RBF SVMs (C = 1, standardised
    features) under both readings of its kernel parameter 2 (:data:`RILBOOST_GAMMAS`),
    accuracy against epsilon for RILBoost I and II (epsilon = 0 is AdaBoost), minimax vs
    minimin, the mixing parameter a on Ionosphere, and the synthetic set of Fig. 13."""
    eps = list(epsilon_grid or RILBOOST_EPSILONS)
    data = list(datasets or [*_bundled("rilboost"), "rilboost-gaussian"])
    svm = {"gamma": list(RILBOOST_GAMMAS), "C": 1.0}
    algs = [AlgorithmConfig(name="rilboost-i", params={"epsilon": eps, **svm}, tune={}),
            AlgorithmConfig(name="rilboost-ii", params={"epsilon": eps, **svm}, tune={})]
    if strategies:
        minimin = [d for d in data if d in ("rilboost-ionosphere", "rilboost-pima",
                                            "rilboost-ecoli")]
        if minimin:
            algs += [AlgorithmConfig(name=n, params={"epsilon": eps, "strategy": "minimin", **svm},
                                     tune={}, datasets=minimin)
                     for n in ("rilboost-i", "rilboost-ii")]
    if mixing_study and "rilboost-ionosphere" in data:
        algs.append(AlgorithmConfig(name="rilboost", params={
            "epsilon": eps, "mixing": [0.25, 0.5, 0.75], **svm}, tune={},
            datasets=["rilboost-ionosphere"]))
    return ExperimentConfig(
        name="rilboost-small-sample", experiment="rilboost-small-sample", datasets=data,
        algorithms=algs, noise=["none"], rates=[0.0], repetitions=repetitions or 100,
        seed=seed, rounds=rounds or 10, tune_rounds=False, protocol="small-sample",
        split={"n_train": list(n_train or [20, 40])}, scale=True,
        description="RILBoost paper, small training sets (Tables 2-7, Figs. 4-13)")


PRESETS: dict[str, Callable[..., ExperimentConfig]] = {
    "quick": quick,
    "splboost-synthetic": splboost_synthetic,
    "splboost-uci": splboost_uci,
    "savageboost-table4": savageboost_table4,
    "rilboost-small-sample": rilboost_small_sample,
}


def list_presets() -> list[str]:
    """Names of the presets."""
    return list(PRESETS)


def get_preset(name: str, **options: Any) -> ExperimentConfig:
    """The configuration of preset ``name``; ``options`` reduce its size (None = default).

    Common options: ``repetitions``, ``datasets``, ``rates``, ``rounds``, ``algorithms``,
    ``age_grid`` (SPLBoost's lambda grid), ``epsilon_grid`` and ``n_train`` (RILBoost),
    ``seed``.
    """
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; available: {', '.join(PRESETS)}")
    options = {k: v for k, v in options.items() if v is not None}
    if isinstance(options.get("age_grid"), str):
        options["age_grid"] = parse_grid(options["age_grid"])
    cfg = PRESETS[name](**options)
    cfg.check()
    return cfg
