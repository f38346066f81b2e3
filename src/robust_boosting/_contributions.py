"""Exact per-row feature contributions of a fitted booster: ``predict(X, pred_contrib=True)``.

The contributions are the Shapley values of path-dependent TreeSHAP (Lundberg et al.,
"From local explanations to global understanding with explainable AI for trees",
Nature Machine Intelligence 2 (2020), Algorithm 2), computed for every tree by the
compiled kernel :mod:`robust_boosting.trees._contrib` and summed over the rounds. They
are exact: each row's contributions plus the expected value (the last column) add up to
the raw score, ``decision_function(X)`` of a classifier (per class with more than two
classes) or ``predict(X)`` of a regressor.

A round adds ``coef * step.output(learner, X)``, a function of the leaf each of the
learner's trees sends a row to. Each leaf's value is the step's own output code run on
a copy of the learner whose ``apply`` returns node numbers (:func:`_leaf_values`), so
no step's leaf formula is written twice. The value function is that of the trees'
training covers (``weighted_n_node_samples``; a shared multiclass tree's covers are each
class's Newton weights), so the expected value is the starting score plus each tree's
cover-weighted mean output.

:func:`explain` gives them as a :class:`shap.Explanation`, for shap's plots.

The features are the model's input columns, identifier columns that ``id_columns="drop"``
left out included (the model sees them as the constant 0: no tree splits on them, so
their contribution is exactly 0); a categorical column has one contribution.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from .learners import PerClassRegressor
from .trees import SharedSymmetricTree
from .trees import _contrib as _kernel
from .trees._base import _BaseHistTree
from .trees.binning import _n_threads

__all__ = ["contributions", "explain"]

#: a tree whose splits have at most this many distinct conditions has its contributions
#: tabulated for each of the ``2**C`` routing patterns (every symmetric tree the library
#: grows by default, stumps, shallow trees); more, and each row recurses
MAX_TABLE_CONDITIONS = 8

#: a tree without pattern tables whose every leaf's path has at most this many features
#: has a table per leaf: the leaf's contributions for each mask of its path's features the
#: row follows (a row then costs each leaf its path's length, not Algorithm 2's squares)
MAX_LEAF_FEATURES = 8
#: the most values of those leaf tables (``2**k k`` a leaf of ``k`` path features): 64 MB;
#: trees past it recurse
LEAF_TABLE_VALUES = 2**23

_REFIT = ("was saved without its trees' node weights (covers), which the contributions "
          "need (model files of earlier versions may not keep them); refit the model to "
          "compute pred_contrib")


@dataclass
class _Trees:
    """The trees of a model, each as the kernel reads it (node arrays end to end)."""

    arrays: dict[str, list] = field(default_factory=lambda: {
        k: [] for k in ("left", "right", "feature", "threshold", "missing_left", "is_cat",
                        "cat_bits", "frac", "values", "cond")})
    counts: list = field(default_factory=list)
    n_out: list = field(default_factory=list)
    out_class: list = field(default_factory=list)
    n_cond: list = field(default_factory=list)
    expected: dict = field(default_factory=dict)

    def add(self, s: dict, values: NDArray, out_class: int) -> None:
        """Add the structure ``s`` (:func:`_structure`) with node values ``values``
        (``(nodes,)`` or ``(nodes, n_out)``), adding to output ``out_class`` on."""
        values = np.asarray(values, dtype=np.float64).reshape(len(s["left"]), -1)
        a = self.arrays
        for name in ("left", "right", "feature", "threshold", "missing_left", "frac", "cond"):
            a[name].append(s[name])
        a["is_cat"].append(s["is_cat"])
        a["cat_bits"].append(s["cat_bits"])
        a["values"].append(np.ascontiguousarray(values).ravel())
        self.counts.append(len(s["left"]))
        self.n_out.append(values.shape[1])
        self.out_class.append(out_class)
        self.n_cond.append(s["n_cond"])


def _tree_learners(learner) -> list:
    """The tree-holding learners of a round's ``learner``, in the order its proxy's
    columns are numbered (:func:`_proxy`); TypeError for a learner that is not one of
    the library's trees."""
    if isinstance(learner, _BaseHistTree | SharedSymmetricTree):
        return [learner]
    if isinstance(learner, PerClassRegressor) and all(
            isinstance(e, _BaseHistTree) for e in getattr(learner, "estimators_", [None])):
        return list(learner.estimators_)
    raise TypeError(
        "pred_contrib needs the library's histogram trees as weak learners (TreeSHAP "
        f"reads their nodes); this model's weak learners are {type(learner).__name__}.")


def _proxy(learner, columns: list[int]):
    """A copy of ``learner`` whose trees' ``apply(X)`` returns column ``j`` of ``X`` (the
    node numbers of tree ``j`` of :func:`_tree_learners`): the learner's own prediction,
    and so the step's output, of the nodes themselves."""
    out = object.__new__(type(learner))
    out.__dict__.update(learner.__dict__)
    if isinstance(learner, PerClassRegressor):
        out.estimators_ = [_proxy(e, [j]) for e, j in zip(learner.estimators_, columns,
                                                            strict=True)]
        return out
    j = columns[0]
    out.apply = lambda X: np.asarray(X[:, j], dtype=np.intp)
    return out


def _fractions(cover: NDArray, left: NDArray, right: NDArray) -> NDArray[np.float64]:
    """Each node's share of its parent's cover: ``cover / (cover_left + cover_right)``
    (a half each when both are 0), 1 at the root."""
    cover = np.maximum(np.asarray(cover, dtype=np.float64), 0.0)
    frac = np.ones(len(left))
    inner = np.flatnonzero(left >= 0)
    cl, cr = cover[left[inner]], cover[right[inner]]
    total = cl + cr
    ok = total > 0
    frac[left[inner]] = np.where(ok, cl / np.where(ok, total, 1.0), 0.5)
    frac[right[inner]] = np.where(ok, cr / np.where(ok, total, 1.0), 0.5)
    return frac


def _conditions(feature, threshold, is_cat, cat_bits, left) -> tuple[NDArray, int]:
    """Each node's split condition (numbered from 0; -1 at a leaf): nodes that send every
    non-missing value the same way share one. Returns ``(cond, n_cond)``."""
    inner = np.flatnonzero(left >= 0)
    cond = np.full(len(left), -1, dtype=np.int32)
    if inner.size == 0:
        return cond, 0
    keys = [feature[inner].astype(np.int64),
            np.ascontiguousarray(threshold[inner], dtype=np.float64).view(np.int64)]
    if is_cat is not None:
        keys.append(is_cat[inner].astype(np.int64))
        keys.append(np.where(is_cat[inner, None] != 0, cat_bits[inner], 0)
                    .view(np.int64).reshape(inner.size, -1).T)
    matrix = np.column_stack([np.atleast_2d(k).T if k.ndim == 1 else k.T for k in keys])
    uniq, inverse = np.unique(matrix, axis=0, return_inverse=True)
    cond[inner] = inverse.ravel()
    return cond, len(uniq)


def _hist_structure(tree, what: str) -> dict:
    """The kernel's arrays of a :class:`~robust_boosting.trees.HistTree`."""
    cover = getattr(tree, "weighted_n_node_samples", None)
    if cover is None:
        raise ValueError(f"{what} {_REFIT}.")
    left = np.asarray(tree.children_left, dtype=np.int32)
    right = np.asarray(tree.children_right, dtype=np.int32)
    feature = np.asarray(tree.feature, dtype=np.int32)
    threshold = np.asarray(tree.threshold, dtype=np.float64)
    cat = tree.has_categorical
    is_cat = np.asarray(tree.is_categorical, dtype=np.uint8) if cat else None
    bits = np.asarray(tree.categories_left, dtype=np.uint8) if cat else None
    cond, n_cond = _conditions(feature, threshold, is_cat, bits, left)
    return dict(left=left, right=right, feature=feature, threshold=threshold,
                missing_left=np.asarray(tree.missing_go_left, dtype=np.uint8),
                is_cat=is_cat, cat_bits=bits, frac=_fractions(cover, left, right),
                cond=cond, n_cond=n_cond)


def _shared_structures(tree: SharedSymmetricTree, what: str) -> tuple[list[dict], NDArray]:
    """A shared symmetric tree as ``n_outputs_`` complete trees, one per class (its
    covers: that class's weights), and each node's leaf number (the proxy's ``apply``)."""
    cover_leaf = getattr(tree, "weighted_n_leaf_samples_", None)
    if cover_leaf is None:
        raise ValueError(f"{what} {_REFIT}.")
    levels = len(tree.feature_)
    n_nodes = 2 ** (levels + 1) - 1
    first_leaf = 2**levels - 1
    left = np.full(n_nodes, -1, dtype=np.int32)
    right = np.full(n_nodes, -1, dtype=np.int32)
    inner = np.arange(first_leaf)
    left[inner] = 2 * inner + 1
    right[inner] = 2 * inner + 2
    level = np.floor(np.log2(np.arange(n_nodes) + 1)).astype(np.intp)
    position = np.arange(n_nodes) - (2**level - 1)
    feature = np.full(n_nodes, -1, dtype=np.int32)
    split_bin = np.full(n_nodes, -1, dtype=np.int32)
    missing = np.zeros(n_nodes, dtype=np.uint8)
    feature[inner] = tree.feature_[level[inner]]
    split_bin[inner] = tree.threshold_bin_[level[inner]]
    missing[inner] = tree.missing_go_left_[level[inner], position[inner]]
    threshold = np.full(n_nodes, np.nan)
    threshold[inner] = tree.bin_mapper_.node_thresholds(feature[inner], split_bin[inner])
    cond = np.full(n_nodes, -1, dtype=np.int32)
    cond[inner] = level[inner]
    leaf_of_node = np.maximum(np.arange(n_nodes) - first_leaf, 0)
    out = []
    for k in range(tree.n_outputs_):
        cover = np.zeros(n_nodes)
        cover[first_leaf:] = cover_leaf[:, k]
        for node in range(first_leaf - 1, -1, -1):
            cover[node] = cover[left[node]] + cover[right[node]]
        out.append(dict(left=left, right=right, feature=feature, threshold=threshold,
                        missing_left=missing, is_cat=None, cat_bits=None,
                        frac=_fractions(cover, left, right), cond=cond, n_cond=levels))
    return out, leaf_of_node


def _add_learner(trees: _Trees, step, learner, coef: float, n_classes: int,
                 out_class: int, what: str) -> None:
    """Add a round's trees, their node values ``coef * step.output`` of the nodes."""
    learners = _tree_learners(learner)
    structures, node_ids = [], []
    for est in learners:
        if isinstance(est, SharedSymmetricTree):
            per_class, ids = _shared_structures(est, what)
            structures.append(per_class)
            node_ids.append(ids)
        else:
            structures.append([_hist_structure(est.tree_, what)])
            node_ids.append(np.arange(len(est.tree_.children_left)))
    longest = max(len(ids) for ids in node_ids)
    X_nodes = np.zeros((longest, len(learners)), dtype=np.intp)
    for j, ids in enumerate(node_ids):
        X_nodes[: len(ids), j] = ids
    values = coef * np.asarray(
        step.output(_proxy(learner, list(range(len(learners)))), X_nodes, n_classes),
        dtype=np.float64)
    if values.ndim == 1:
        values = values[:, None]
    for j, (per_class, ids) in enumerate(zip(structures, node_ids, strict=True)):
        if len(learners) > 1:  # one tree per class (PerClassRegressor): column j is class j
            trees.add(per_class[0], values[: len(ids), j], out_class + j)
        elif len(per_class) > 1:  # one shared tree: class k with its own covers
            for k, s in enumerate(per_class):
                trees.add(s, values[: len(ids), k], out_class + k)
        else:
            trees.add(per_class[0], values[: len(ids)], out_class)


def _model_trees(model) -> tuple[_Trees, NDArray[np.float64]]:
    """Every tree of ``model``'s ensembles, and the starting scores (one per output)."""
    what = f"This {type(model).__name__}"
    step = model.step_
    n_classes = model._run_classes()
    n_cols = 1 if n_classes <= 2 and not model._ovr else n_classes
    trees = _Trees()
    init = np.zeros(n_cols)
    for k, ens in enumerate(model.ensembles_):
        first = k if model._ovr else 0
        run_classes = 2 if model._ovr else n_classes
        init[first: first + (1 if model._ovr else n_cols)] += ens.init_score
        for est, coef in zip(ens.estimators, ens.coefs, strict=True):
            _add_learner(trees, step, est, float(coef), run_classes, first, what)
    return trees, init


def _concat(parts: list, dtype) -> NDArray:
    return np.concatenate(parts).astype(dtype, copy=False) if parts else np.empty(0, dtype)


def _tables(trees: _Trees, node_off, value_off, max_depth: int, args: dict,
            n_threads: int) -> dict:
    """The routing-pattern tables of the trees with few conditions (see
    :data:`MAX_TABLE_CONDITIONS`), with the arrays :func:`_contrib.contributions` reads
    about them."""
    n_cond = np.asarray(trees.n_cond, dtype=np.int32)
    limit = min(MAX_TABLE_CONDITIONS, _kernel.MAX_CONDITIONS)
    ids = np.flatnonzero((n_cond > 0) & (n_cond <= limit))
    table_of = np.full(len(n_cond), -1, dtype=np.int64)
    table_of[ids] = np.arange(ids.size)
    cond, feature, missing = args["cond"], args["feature"], args["missing_left"]
    cond_off = np.zeros(ids.size + 1, dtype=np.int64)
    tf_off = np.zeros(ids.size + 1, dtype=np.int64)
    cond_node, cond_mixed, tf_feat = [], [], []
    node_lf = np.full(len(cond), -1, dtype=np.int32)  # a node's feature among its tree's
    for q, t in enumerate(ids.tolist()):
        a, b = int(node_off[t]), int(node_off[t + 1])
        inner = np.flatnonzero(cond[a:b] >= 0)
        c = cond[a:b][inner]
        # one node of each condition (conditions are numbered 0 .. n_cond - 1), and whether
        # its nodes send missing values different ways
        first = np.full(n_cond[t], -1, dtype=np.int32)
        first[c[::-1]] = inner[::-1]
        lo = np.full(n_cond[t], 2, dtype=np.int64)
        hi = np.full(n_cond[t], -1, dtype=np.int64)
        np.minimum.at(lo, c, missing[a:b][inner])
        np.maximum.at(hi, c, missing[a:b][inner])
        cond_node.append(first)
        cond_mixed.append((lo != hi).astype(np.uint8))
        tf_feat.append(np.unique(feature[a:b][inner]).astype(np.int32))
        node_lf[a + inner] = np.searchsorted(tf_feat[-1], feature[a:b][inner])
        cond_off[q + 1] = cond_off[q] + n_cond[t]
        tf_off[q + 1] = tf_off[q] + tf_feat[-1].size
    n_out = np.asarray(trees.n_out, dtype=np.int64)
    sizes = n_out[ids] * np.diff(tf_off) * (np.int64(1) << n_cond[ids].astype(np.int64))
    table_off = np.zeros(ids.size + 1, dtype=np.int64)
    np.cumsum(sizes, out=table_off[1:])
    tables = np.empty(int(table_off[-1]))
    tf_feat = _concat(tf_feat, np.int32)
    _kernel.condition_tables(node_off, value_off, n_out.astype(np.int32), args["left"],
                             args["right"], args["frac"], args["values"], ids.astype(np.int64),
                             n_cond[ids], cond, node_lf, tf_off, table_off, max_depth, tables,
                             n_threads)
    return dict(table_of=table_of, cond_off=cond_off, cond_node=_concat(cond_node, np.int32),
                cond_mixed=_concat(cond_mixed, np.uint8), tf_off=tf_off, tf_feat=tf_feat,
                table_off=table_off, tables=tables)


def _leaf_tables(node_off, args: dict, max_depth: int, tabulated: NDArray, n_threads: int
                 ) -> dict:
    """The leaves' mask tables of the trees without pattern tables (``tabulated``) whose
    paths have at most :data:`MAX_LEAF_FEATURES` features each, in the trees' order while
    they fit in :data:`LEAF_TABLE_VALUES` values, with the arrays
    :func:`_contrib.contributions` reads about them."""
    left = args["left"]
    n_trees = len(node_off) - 1
    is_leaf = (left < 0).astype(np.int64)
    leaf_off = np.zeros(n_trees + 1, dtype=np.int64)
    np.cumsum(np.add.reduceat(is_leaf, node_off[:-1]), out=leaf_off[1:])
    n_leaves, stride = int(leaf_off[-1]), max(max_depth, 1)
    out = dict(leaf_off=leaf_off, stride=stride,
               leaf_node=np.empty(n_leaves, dtype=np.int32),
               leaf_depth=np.empty(n_leaves, dtype=np.int32),
               path_node=np.empty(n_leaves * stride, dtype=np.int32),
               path_left=np.empty(n_leaves * stride, dtype=np.uint8),
               path_u=np.empty(n_leaves * stride, dtype=np.int32),
               leaf_k=np.empty(n_leaves, dtype=np.int32),
               leaf_feat=np.full(n_leaves * _kernel.MAX_CONDITIONS, -1, dtype=np.int32),
               leaf_z=np.zeros(n_leaves * _kernel.MAX_CONDITIONS))
    _kernel.leaf_paths(node_off, left, args["right"], args["feature"], args["frac"],
                       leaf_off, stride, out["leaf_node"], out["leaf_depth"],
                       out["path_node"], out["path_left"], out["path_u"], out["leaf_k"],
                       out["leaf_feat"], out["leaf_z"])
    limit = min(MAX_LEAF_FEATURES, _kernel.MAX_CONDITIONS)
    k = out["leaf_k"].astype(np.int64)
    size = np.where(k <= limit, k << np.minimum(k, limit), 0)
    tree_size = np.add.reduceat(size, leaf_off[:-1]) if n_leaves else np.zeros(n_trees, int)
    tree_k = np.maximum.reduceat(k, leaf_off[:-1]) if n_leaves else np.zeros(n_trees, int)
    ok = ~tabulated & (tree_k <= limit) & (tree_k > 0)
    ok &= np.cumsum(np.where(ok, tree_size, 0)) <= LEAF_TABLE_VALUES
    leaf_of = np.where(ok, leaf_off[:-1], -1).astype(np.int64)
    listed = np.repeat(ok, np.diff(leaf_off))
    cv_off = np.zeros(n_leaves + 1, dtype=np.int64)
    np.cumsum(np.where(listed, size, 0), out=cv_off[1:])
    cv = np.empty(int(cv_off[-1]))
    _kernel.leaf_tables(np.flatnonzero(listed).astype(np.int64), out["leaf_k"],
                        out["leaf_z"], cv_off, cv, n_threads)
    out.update(leaf_of=leaf_of, cv_off=cv_off, cv=cv)
    return out


def contributions(model, X: NDArray) -> NDArray[np.float64]:
    """The contributions of ``model`` (a fitted booster) on ``X`` (as its ``_check_X``
    returns it): shape ``(n, n_features + 1)``, or ``(n, K, n_features + 1)`` with one
    set per class (more than two classes); the last column is the expected value. See
    the module's docstring."""
    trees, init = _model_trees(model)
    X = np.asarray(X, dtype=np.float64)
    n, n_features = X.shape
    out = np.zeros((n, len(init), n_features + 1))
    if trees.counts:
        init = init + _run_trees(model, trees, X, out, len(init))
    out[:, :, -1] = init
    if not model._ovr and len(init) > 2:  # native multiclass: decision_function centres
        out -= out.mean(axis=1, keepdims=True)
    return out[:, 0, :] if len(init) == 1 else out


def _run_trees(model, trees: _Trees, X: NDArray, out: NDArray, n_cols: int) -> NDArray:
    """Add the trees' contributions on ``X`` to ``out``; returns their expected values
    (one per output)."""
    counts = np.asarray(trees.counts, dtype=np.int64)
    node_off = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=node_off[1:])
    n_out = np.asarray(trees.n_out, dtype=np.int32)
    per_node = np.repeat(n_out, counts)
    value_off = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts * n_out, out=value_off[1:])
    a = trees.arrays
    args = {name: np.concatenate(a[name]) for name in
            ("left", "right", "feature", "threshold", "missing_left", "frac", "values",
             "cond")}
    if any(c is not None for c in a["is_cat"]):
        args["is_cat"] = np.concatenate([
            np.zeros(len(f), dtype=np.uint8) if c is None else c
            for c, f in zip(a["is_cat"], a["frac"], strict=True)])
        args["cat_bits"] = np.concatenate([
            np.zeros((len(f), 32), dtype=np.uint8) if b is None else b
            for b, f in zip(a["cat_bits"], a["frac"], strict=True)])
        mapper = _mapper(model)
        mapper._check_codes(X)
        X = mapper.category_bins(X)  # as the trees' apply reads categorical values
    else:
        args["is_cat"] = np.zeros(0, dtype=np.uint8)
        args["cat_bits"] = np.zeros((0, 32), dtype=np.uint8)
    weight = np.empty(len(args["left"]))
    depth = np.empty(len(args["left"]), dtype=np.int32)
    _kernel.node_weights(node_off, args["left"], args["right"], args["frac"], weight, depth)
    max_depth = int(depth.max())
    # expected values: each leaf's values times the share of the root's cover reaching it
    leaf = np.repeat(args["left"] < 0, per_node)
    value_class = (np.repeat(np.repeat(np.asarray(trees.out_class), counts), per_node)
                   + np.arange(int(per_node.sum())) - np.repeat(np.cumsum(per_node) - per_node,
                                                                per_node))
    expected = np.bincount(value_class[leaf],
                           weights=(args["values"] * np.repeat(weight, per_node))[leaf],
                           minlength=n_cols)
    n_threads = _n_threads(getattr(model, "n_jobs", None))
    tab = _tables(trees, node_off, value_off, max_depth, args, n_threads)
    leaves = _leaf_tables(node_off, args, max_depth, tab["table_of"] >= 0, n_threads)
    _kernel.contributions(
        np.ascontiguousarray(X, dtype=np.float64), node_off, value_off, n_out,
        np.asarray(trees.out_class, dtype=np.int32), args["left"], args["right"],
        args["feature"], args["threshold"], args["missing_left"], args["is_cat"],
        args["cat_bits"], args["frac"], args["values"], tab["table_of"], tab["cond_off"],
        tab["cond_node"], tab["cond_mixed"], tab["tf_off"], tab["tf_feat"], tab["table_off"],
        tab["tables"], leaves["leaf_of"], leaves["leaf_off"], leaves["leaf_node"],
        leaves["leaf_depth"], leaves["path_node"], leaves["path_left"], leaves["path_u"],
        leaves["leaf_k"], leaves["leaf_feat"], leaves["cv_off"], leaves["cv"],
        leaves["stride"], max_depth, out, n_threads)
    return expected


def feature_names(model, n_features: int) -> list[str]:
    """The names of ``model``'s ``n_features`` input columns: ``feature_names_in_``, or
    ``x0, x1, ...`` for a model fitted on an array."""
    names = getattr(model, "feature_names_in_", None)
    if names is not None and len(names) == n_features:
        return [str(n) for n in names]
    return [f"x{j}" for j in range(n_features)]


def _mapper(model):
    """The bin mapper of ``model``'s trees (they share their data's)."""
    for ens in model.ensembles_:
        for est in ens.estimators:
            for tree in _tree_learners(est):
                return tree.bin_mapper_
    raise ValueError("the model has no tree")


def explain(model, X):
    """Explain ``model``'s predictions on ``X`` as a :class:`shap.Explanation`.

    The exact contributions of ``model.predict(X, pred_contrib=True)`` (path-dependent
    TreeSHAP, Lundberg et al. 2020, Algorithm 2) in the form shap's plots take
    (``shap.plots.waterfall(explain(model, X)[0])``, ``shap.plots.beeswarm(...)``, ...).
    Needs `shap <https://shap.readthedocs.io>`_ (``pip install
    'robust-boosting[explain]'``); nothing else of the library does.

    Parameters
    ----------
    model : fitted booster
        Any classifier or regressor of the library whose weak learners are its
        histogram trees, or either cross-validated default.
    X : array-like of shape (n_samples, n_features) or DataFrame
        Rows to explain, as ``predict`` takes them.

    Returns
    -------
    shap.Explanation
        ``values`` of shape ``(n_samples, n_features)`` (``(n_samples, n_features,
        n_classes)`` for more than two classes: one column per class, named by
        ``output_names``), in the units of ``decision_function`` (a classifier's
        margin; a regressor's target); ``base_values`` the expected value (per class);
        ``data`` the rows as given (a categorical column's category labels, missing
        values as NaN or None); ``feature_names`` the model's input columns. An
        identifier column left out by ``id_columns="drop"`` has contribution 0.
    """
    try:
        import shap
    except ImportError as exc:
        raise ImportError(
            "robust_boosting.explain returns a shap.Explanation and needs shap: pip install "
            "'robust-boosting[explain]' (or pip install shap). "
            "model.predict(X, pred_contrib=True) gives the same numbers without it."
        ) from exc
    contrib = model.predict(X, pred_contrib=True)
    names = feature_names(model, contrib.shape[-1] - 1)
    if hasattr(X, "iloc"):  # a frame: the user's values, category labels as they are
        numeric = all(isinstance(dt, np.dtype) and np.issubdtype(dt, np.number)
                      for dt in X.dtypes)
        data = X.to_numpy(dtype=np.float64) if numeric else X.astype(object).to_numpy()
    else:
        data = np.asarray(X)
    extra = {}
    if contrib.ndim == 3:
        values, base = contrib[:, :, :-1].transpose(0, 2, 1), contrib[:, :, -1]
        extra["output_names"] = [str(c) for c in model.classes_]
    else:
        values, base = contrib[:, :-1], contrib[:, -1]
    return shap.Explanation(values=values, base_values=base, data=data, feature_names=names,
                            **extra)
