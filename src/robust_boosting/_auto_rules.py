"""The ``"auto"`` rules of :class:`~robust_boosting.SPLBoostClassifierCV`: one record per data size.

Each regime of the search is one frozen :class:`Regime` record, named; a
:class:`RuleSet` holds the records of one engine and the row counts where they
change: :data:`SINGLE_MACHINE` (the library's trees) and :data:`DASK` (XGBoost's
distributed trees, which have no symmetric form, and its own units of
``min_samples_leaf`` and ``l2_regularization``). :func:`regimes` chooses the
records of a search. The evidence behind each value is in the design records
(``docs/design/``, indexed in ``docs/design/README.md``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

__all__ = [
    "CLEAN_ANCHOR",
    "CLEAN_ANCHOR_POWER",
    "DASK",
    "PATIENCE",
    "REVIEW_MARGIN",
    "SAMPLE_COUNT",
    "SHARED_TREES",
    "SINGLE_MACHINE",
    "Regime",
    "RuleSet",
    "clean_anchor_threshold",
    "regimes",
]

#: the search stops a plain candidate on a fold once its held-out loss has not improved
#: for this many rounds; the out-of-fold probabilities are read this many rounds past the
#: winner's best round (docs/design/0005-early-stopping-in-the-search.md)
PATIENCE = 10

#: how the trees' ``min_samples_leaf`` counts rows (:class:`HistTreeRegressor`'s
#: ``sample_count``): from the Newton weight (docs/design/0010-leaf-counts-from-weights.md)
SAMPLE_COUNT = "weight"

#: ``multiclass_trees`` of one shared symmetric tree per round, a value per class
SHARED_TREES = "shared"

#: ``remove_label_issues="auto"`` keeps every row on a small data set when
#: ``anchor_noise_rate(oof) / (K - 1)`` is below :func:`clean_anchor_threshold`: this at
#: 1,000 rows or fewer, falling as ``(1,000 / n) ** CLEAN_ANCHOR_POWER`` on more (the
#: models grow more confident with more rows; docs/design/0019-keep-rows-when-labels-look-clean.md)
CLEAN_ANCHOR = 0.015
CLEAN_ANCHOR_POWER = 0.8

#: ``label_issues_`` also lists the rows whose out-of-fold probability of another class
#: exceeds their label's by more than this (``margin_suspects``); the final fit keeps their
#: weight (docs/design/0027-annotator-noise.md)
REVIEW_MARGIN = 0.2


def clean_anchor_threshold(n: int) -> float:
    """The largest ``anchor_noise_rate / (K - 1)`` that reads as clean labels on ``n`` rows."""
    return CLEAN_ANCHOR * min(1.0, (1000.0 / n) ** CLEAN_ANCHOR_POWER)


@dataclass(frozen=True)
class Regime:
    """The values the ``"auto"`` parameters take in one group of the search.

    Tuple fields are the candidates' values (the search crosses them); the others
    are one value for the group.
    """

    #: ``max_depth`` values (None: leaf-wise, to ``max_leaf_nodes``)
    max_depth: tuple[int | None, ...]
    #: ``max_leaf_nodes`` (None: depth-first to ``max_depth``)
    max_leaf_nodes: int | None
    #: ``min_samples_leaf``
    min_samples_leaf: int
    #: ``learning_rate`` values
    learning_rate: tuple[float, ...]
    #: ``n_estimators``: the round cap in the search and the final model's rounds
    n_estimators: int
    #: ``l2_regularization`` values
    l2_regularization: tuple[float, ...]
    #: ``grow_policy`` the regime is meant for ("depthwise" or "symmetric")
    grow_policy: str = "depthwise"
    #: ``random_strength`` of its symmetric trees (0: no random split scores)
    random_strength: float = 0.0
    #: ``multiclass_trees`` with more than two classes
    multiclass_trees: str = "per_class"


@dataclass(frozen=True)
class RuleSet:
    """One engine's regimes and the row counts where the search changes."""

    #: at most this many rows: the small-data search (and ``remove_label_issues="auto"``
    #: reads the out-of-fold anchor statistic)
    small_n: int
    #: small data: shallow depth-wise trees
    small: Regime
    #: above ``small_n``, trees grown depth- or leaf-wise (categorical columns of more than
    #: two categories, an explicit ``grow_policy="depthwise"``, or an engine without
    #: symmetric trees)
    large_leafwise: Regime
    #: whether the engine grows symmetric trees (the regimes below, and
    #: ``grow_policy="symmetric"``)
    symmetric: bool = False
    #: above ``small_n``, symmetric trees, below ``deep_n`` rows
    large_symmetric: Regime | None = None
    #: symmetric trees from ``deep_n`` rows
    deep_symmetric: Regime | None = None
    deep_n: int | None = None
    #: the symmetric candidate that joins the small-data search on numeric data
    small_symmetric: Regime | None = None
    #: that candidate with more than two classes on at most ``slow_rate_n`` rows
    small_symmetric_multiclass: Regime | None = None
    slow_rate_n: int | None = None


#: the library's own trees on one machine. The small-data search was tuned on small
#: tables; the symmetric candidate joins it with random split scores (CatBoost's default
#: strength) and shared multiclass trees, at half the rate over twice the rounds with
#: more than two classes on at most 2,000 rows; symmetric trees deepen to 8 from 50,000
#: rows (docs/design/0015-union-search.md, 0016-random-split-scores.md,
#: 0017-shared-multiclass-trees.md, 0018-small-multiclass-schedule.md, 0012-symmetric-trees.md)
SINGLE_MACHINE = RuleSet(
    small_n=5000,
    small=Regime(max_depth=(1, 3), max_leaf_nodes=None, min_samples_leaf=1,
                 learning_rate=(0.3,), n_estimators=100, l2_regularization=(0.0,)),
    large_leafwise=Regime(max_depth=(None,), max_leaf_nodes=31, min_samples_leaf=20,
                          learning_rate=(0.2,), n_estimators=300, l2_regularization=(100.0,)),
    symmetric=True,
    large_symmetric=Regime(max_depth=(6,), max_leaf_nodes=None, min_samples_leaf=1,
                           learning_rate=(0.2,), n_estimators=300, l2_regularization=(10.0,),
                           grow_policy="symmetric", multiclass_trees=SHARED_TREES),
    deep_symmetric=Regime(max_depth=(8,), max_leaf_nodes=None, min_samples_leaf=1,
                          learning_rate=(0.2,), n_estimators=300, l2_regularization=(10.0,),
                          grow_policy="symmetric"),
    deep_n=50_000,
    small_symmetric=Regime(max_depth=(6,), max_leaf_nodes=None, min_samples_leaf=1,
                           learning_rate=(0.2,), n_estimators=300, l2_regularization=(10.0,),
                           grow_policy="symmetric", random_strength=1.0,
                           multiclass_trees=SHARED_TREES),
    small_symmetric_multiclass=Regime(
        max_depth=(6,), max_leaf_nodes=None, min_samples_leaf=1, learning_rate=(0.1,),
        n_estimators=600, l2_regularization=(10.0,), grow_policy="symmetric",
        random_strength=1.0, multiclass_trees=SHARED_TREES),
    slow_rate_n=2000,
)

#: XGBoost's distributed trees (:class:`~robust_boosting.dask.DaskSPLBoostClassifierCV`):
#: no symmetric trees; ``min_samples_leaf`` is XGBoost's ``min_child_weight`` and
#: ``l2_regularization`` its ``reg_lambda`` (Hessian sums), whose defaults of 1 these
#: keep; above ``small_n`` a faster rate over fewer rounds (about the same product)
DASK = RuleSet(
    small_n=SINGLE_MACHINE.small_n,
    small=replace(SINGLE_MACHINE.small, l2_regularization=(1.0,)),
    large_leafwise=replace(SINGLE_MACHINE.large_leafwise, min_samples_leaf=1,
                           learning_rate=(0.3,), n_estimators=160, l2_regularization=(1.0,)),
)


def regimes(rules: RuleSet, n: int, n_classes: int, grow_policy: str,
            join_symmetric: bool) -> list[Regime]:
    """The regimes of a search on ``n`` rows of ``n_classes`` classes.

    Parameters
    ----------
    rules : RuleSet
    n, n_classes : int
    grow_policy : {"depthwise", "symmetric"}
        The resolved grow policy of the main group: its regime is the one of that
        policy for ``n`` rows (a regime forced to another policy takes it, with
        shared multiclass trees where the policy is symmetric below ``deep_n`` rows).
    join_symmetric : bool
        Whether the small-data search is joined by the symmetric candidate (numeric
        data, the tree shape and policy left to ``"auto"``); ignored above
        ``small_n`` rows and by an engine without symmetric trees.

    Returns
    -------
    list of Regime
        The main group first.
    """
    symmetric = grow_policy == "symmetric"
    if n <= rules.small_n:
        main = rules.small
    elif not symmetric:
        main = rules.large_leafwise
    elif n >= rules.deep_n:
        main = rules.deep_symmetric
    else:
        main = rules.large_symmetric
    if main.grow_policy != grow_policy:
        shared = symmetric and (rules.deep_n is None or n < rules.deep_n)
        main = replace(main, grow_policy=grow_policy,
                       multiclass_trees=SHARED_TREES if shared else "per_class")
    out = [main]
    if n <= rules.small_n and join_symmetric and rules.symmetric:
        out.append(rules.small_symmetric_multiclass
                   if n_classes > 2 and n <= rules.slow_rate_n else rules.small_symmetric)
    return out
