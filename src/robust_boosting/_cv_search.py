"""The cross-validated search of :class:`~robust_boosting.SPLBoostClassifierCV`.

The folds of an int ``cv`` (:func:`stratified_folds`); every candidate setting fitted
on every fold, with early stopping on the held-out
loss, and the held-out loss curves (:func:`fit_candidates`, the one place the search
trains models); the out-of-fold probabilities of the winner at one round
(:func:`proba_at`); the one booster configuration of every candidate and of the
final fit (:func:`make_booster`). Plain LogitBoost candidates are fitted together by
:func:`~robust_boosting._batched.fit_batched` in one pass over the data binned once,
each stopped by a :class:`_PatienceMonitor` that keeps its held-out loss after every
round; candidates with a self-paced drop fraction are fitted one by one in joblib
workers.

:class:`~robust_boosting.SPLBoostRegressorCV` runs the same search: its
:class:`~robust_boosting._regression_search.RegressionSearch` (passed as ``search``) says
which models are fitted, how their held-out loss is computed from the scores and which
candidates are batched, where :data:`CLASSIFIER_SEARCH` says it for the classifier.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Iterator

import numpy as np
from numpy.typing import NDArray
from sklearn.model_selection import StratifiedKFold, check_cv
from sklearn.utils import _safe_indexing
from sklearn.utils.parallel import Parallel, delayed

from ._auto_rules import PATIENCE, SAMPLE_COUNT
from ._batched import fit_batched, staged_raw_binned_once
from .classical import LogitBoostClassifier, SPLLogitBoostClassifier
from .label_issues import rare_classes
from .losses import softmax_loss
from .trees import HistTreeRegressor
from .trees.binning import _kernel_threads

__all__ = ["CLASSIFIER_SEARCH", "TREE_KEYS", "ClassifierSearch", "checked_partition",
           "fit_candidates", "held_out_curve", "make_booster", "proba_at", "raw_at",
           "stratified_folds", "staged_proba", "tree_params", "warn_rare_classes"]

#: probabilities are clipped to [_EPS, 1] inside the held-out log-loss
_EPS = 1e-12


def make_booster(tree: dict, learning_rate: float, drop_fraction: float, n_estimators: int,
                  random_state: int, multiclass_trees: str = "per_class") -> LogitBoostClassifier:
    """The one configuration every candidate and the final fit use.

    ``tree`` holds the regression trees' ``max_depth``, ``max_leaf_nodes``,
    ``min_samples_leaf``, ``l2_regularization`` and ``grow_policy``. A drop fraction of 0 is the hard self-paced
    regularizer at infinite age, which keeps every sample: that is LogitBoost
    exactly (the same model bit for bit), so it is built as
    :class:`~robust_boosting.classical.LogitBoostClassifier`, without the
    self-paced bookkeeping (every sample's loss each round, for a latent
    objective that would only restate the training loss). A positive drop
    fraction is :class:`~robust_boosting.classical.SPLLogitBoostClassifier`
    with the drop-fraction regularizer. ``multiclass_trees`` is the boosters' (one
    tree per class and round, or one shared symmetric tree). Its ``id_columns`` is
    ``"keep"``: the estimator that searches has applied its own policy to the frame (an
    identifier column it leaves out is already the constant 0), which a subset of the
    rows must not overturn.
    """
    trees = HistTreeRegressor(**tree_params(tree), sample_count=SAMPLE_COUNT)
    if drop_fraction == 0:
        return LogitBoostClassifier(trees, n_estimators=n_estimators,
                                    learning_rate=learning_rate, random_state=random_state,
                                    multiclass_trees=multiclass_trees, id_columns="keep")
    return SPLLogitBoostClassifier(trees, n_estimators=n_estimators,
                                   learning_rate=learning_rate, random_state=random_state,
                                   regularizer="drop_fraction", age=float(drop_fraction),
                                   multiclass_trees=multiclass_trees, id_columns="keep")


def tree_params(candidate: dict) -> dict:
    """The trees' parameters of a candidate (with ``monotonic_cst`` when it has one)."""
    params = {key: candidate[key] for key in TREE_KEYS}
    if candidate.get("monotonic_cst") is not None:  # a constrained search's candidates
        params["monotonic_cst"] = candidate["monotonic_cst"]
    return params


def constrained(candidates: list[dict], mono) -> list[dict]:
    """``candidates`` with the monotone constraints ``mono`` (None: unchanged), which
    every candidate's trees and the final model's take (:func:`tree_params`)."""
    if mono is None:
        return candidates
    cst = tuple(int(v) for v in mono)
    return [dict(c, monotonic_cst=cst) for c in candidates]


#: the candidates' tree parameters (:class:`HistTreeRegressor`'s)
TREE_KEYS = ("max_depth", "max_leaf_nodes", "min_samples_leaf", "l2_regularization",
              "grow_policy", "random_strength")


def staged_proba(est, X) -> Iterator[NDArray[np.float32]]:
    """Class probabilities of a fitted booster after each round, ``(n, K)`` float32 each.

    A generator: one stage is held at a time. ``X`` is the validated numeric
    array (categories as codes); it is binned once with the trees' bin edges,
    so every tree reads codes instead of re-validating the raw data (the same
    predictions, cheaper).
    """
    for raw in staged_raw_binned_once(est, X):
        yield est._proba_from_raw(raw).astype(np.float32)


def held_out_curve(est, X_test, y_test, w_test, trim) -> NDArray[np.float64]:
    """The held-out loss of ``est`` after each round (:func:`_trimmed_losses` of its stages),
    computed stage by stage: the staged probabilities are never all held at once (on
    100,000 rows, 500 stages would take 400 MB)."""
    return np.array([_trimmed_losses(p[None], y_test, w_test, trim)[0]
                     for p in staged_proba(est, X_test)])


def raw_at(est, X_test, t) -> NDArray[np.float64]:
    """The stage ``t`` scores of ``est`` (its last stage if it ran fewer rounds): a
    regressor's predictions, a classifier's raw scores."""
    raw = None
    for i, raw in enumerate(staged_raw_binned_once(est, X_test)):  # noqa: B007
        if i == t:
            break
    return raw


def proba_at(est, X_test, t) -> NDArray[np.float32]:
    """The stage ``t`` probabilities of ``est`` (its last stage if it ran fewer rounds), as
    :func:`staged_proba` gives them; only that stage's scores become probabilities."""
    return est._proba_from_raw(raw_at(est, X_test, t)).astype(np.float32)


class ClassifierSearch:
    """What the search fits and how it scores it, for
    :class:`~robust_boosting.SPLBoostClassifierCV`: :func:`make_booster`'s models, the
    trimmed held-out log-loss, the plain candidates batched. A regressor's search passes
    its own object with the same methods (``robust_boosting.regression_cv``)."""

    #: the monitor's held-out loss from the scores, ``loss(scores, y, w)``; None: the
    #: classifier's trimmed log-loss (which follows one-vs-rest problems)
    loss = None

    @staticmethod
    def n_outputs(y) -> int:
        return int(np.max(y, initial=0)) + 1

    @staticmethod
    def batched(candidate) -> bool:
        return candidate["drop_fraction"] == 0

    @staticmethod
    def template(seed):
        return make_booster(dict(max_depth=1, max_leaf_nodes=None, min_samples_leaf=1,
                                 l2_regularization=0.0, grow_policy="depthwise",
                                 random_strength=0.0), 1.0, 0.0, 1, seed)

    @staticmethod
    def overrides(candidate, rounds) -> dict:
        return {**{f"estimator__{key}": value
                   for key, value in tree_params(candidate).items()},
                "learning_rate": candidate["learning_rate"],
                "multiclass_trees": candidate["multiclass_trees"],
                "n_estimators": rounds}

    #: a model's held-out loss after each round, computed from its stages
    curve = staticmethod(held_out_curve)


CLASSIFIER_SEARCH = ClassifierSearch()


def _fit_one(X, y, sample_weight, train, test, params, n_estimators, seed, trim):
    """Fit one candidate on one fold; the fitted booster and its held-out loss curve.

    ``X`` is the pair ``(X_fit, X_num)`` of :func:`_fit_jobs`.
    """
    X_fit, X_num = X
    est = make_booster(params, params["learning_rate"], params["drop_fraction"],
                        n_estimators, seed, params["multiclass_trees"])
    # a class with no training row here (one of fewer rows than folds) joins at weight 0, so
    # that the model has every class, as the batched models do
    missing = np.setdiff1d(np.arange(int(y.max()) + 1), y[train])
    w = sample_weight[train]
    if missing.size:
        train = np.concatenate([train, [np.flatnonzero(y == k)[0] for k in missing]])
        w = np.concatenate([w, np.zeros(missing.size)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # early stops are handled by padding the curve
        est.fit(_safe_indexing(X_fit, train), y[train], sample_weight=w)
    return est, held_out_curve(est, X_num[test], y[test], sample_weight[test], trim)


def padded(curves, n_rounds):
    """Curves ``(..., T)`` extended to ``n_rounds`` stages along their last axis by
    repeating their last value (a stopped model's)."""
    extra = n_rounds - curves.shape[-1]
    if extra <= 0:
        return curves
    return np.concatenate([curves, np.repeat(curves[..., -1:], extra, axis=-1)], axis=-1)


class _PatienceMonitor:
    """Early stopping and held-out loss curves for
    :func:`~robust_boosting._batched.fit_batched`: a model stops once its held-out loss
    has not improved for ``patience`` rounds (``None``: never), or at its ``caps[j]``
    rounds.

    The loss is the one the search scores (:func:`_trimmed_mean` of the logistic
    loss of the given labels on the model's held-out rows, weighted), computed
    from the scores each fit request carries (``P(y = 1) = 1 / (1 + exp(-2 F))``;
    native multiclass scores: ``-log`` of the softmax probability of the label).
    The loss after each round is kept: :meth:`curve` is the model's held-out loss
    curve, with no second pass over its stages. A one-vs-rest model boosts one
    binary problem (class ``k`` against the rest) after the other, each starting
    again at round 0; each stops on its own, and its curve is computed afterwards
    (:meth:`curve` is None). A decision depends only on the model's own scores,
    so the models do not depend on how they are batched.
    """

    def __init__(self, y, held_out, weights, trim, patience, caps, progress=None, names=None,
                 loss=None, second=None):
        self.y, self.held_out, self.weights = y, held_out, weights
        self.loss = loss  # loss(scores, y, w) of a regressor's search; None: the log-loss
        # (loss, patience, watched, gate): a second loss(scores, y, w) of a regressor's
        # models j in watched, kept after each round too; such a model stops once both
        # losses have, unless gate(scores, y, w) (None: yes) of its held-out rows says no
        # when its first loss stops it (then its second curve is None)
        self.second = second
        self.gated: set = set()  # models whose gate said no
        self.stopped_at: dict = {}  # model -> the round its first loss stopped it
        self.second_best: dict = {}  # model -> (best second loss, its round)
        self.second_losses: dict = {}  # model -> its second loss after rounds 1, 2, ...
        self.second_stopped: set = set()
        self.trim, self.patience, self.caps = trim, patience, caps
        # the search's Progress (verbose): a unit per model round; names[j] for its records
        self.progress, self.names = progress, names
        self.binary = int(y.max()) + 1 <= 2  # else one-vs-rest: problem k is class k vs rest
        self.problem: dict = {}  # model -> index of the binary problem being boosted
        self.best: dict = {}  # model -> (best loss, its round)
        self.losses: dict = {}  # model -> held-out loss after rounds 1, 2, ...
        self.held: dict = {}  # model -> its held-out rows' (labels, weights)
        self.one_vs_rest: set = set()

    def __call__(self, j, request) -> bool:
        stop = j in self.stopped_at or self._decide(j, request)
        watched = self.second is not None and j in self.second[2]
        if stop and j not in self.stopped_at:
            self.stopped_at[j] = request.round
            gate = self.second[3] if watched else None
            if gate is not None and not gate(request.scores[self.held_out[j]], *self.held[j]):
                self.gated.add(j)
        if watched and j not in self.gated:
            stop = self._decide_second(j, request) and stop
        if self.progress is not None:
            # a round done, or every round left of a model that stops here
            self.progress.advance(float(request.round > 0)
                                  + (self.caps[j] - request.round if stop else 0))
            if stop:
                self.progress.debug(f"{self.names[j]} stopped after {self.stopped_at[j]} "
                                    f"rounds (best {self.best[j][1]}, held-out loss "
                                    f"{self.best[j][0]:.4f})"
                                    + ("" if j not in self.second_best or j in self.gated
                                       else
                                       f"; its second loss's best round "
                                       f"{self.second_best[j][1]}, after {request.round}"))
        return stop

    def _decide(self, j, request) -> bool:
        rows = self.held_out[j]
        scores = request.scores[rows]
        if request.round == 0:  # a (new) binary problem starts
            self.problem[j] = self.problem.get(j, -1) + 1
        if j not in self.held:  # the held-out rows' labels and weights, taken once per model
            self.held[j] = (self.y[rows], self.weights[rows])
        y, w = self.held[j]
        if self.loss is not None:  # a regressor's
            loss = self.loss(scores, y, w)
        else:
            if scores.ndim == 2:  # native multiclass (softmax) scores: -log p_y
                losses = softmax_loss(scores, y)
            else:
                if not self.binary:
                    self.one_vs_rest.add(j)
                positive = 1 if self.binary else self.problem[j]
                margin = np.where(y == positive, 1.0, -1.0) * scores
                losses = np.logaddexp(0.0, -2.0 * margin)
            loss = _trimmed_mean(losses[None, :], w, self.trim)[0]
        return self._tracked(self.best, self.losses, j, loss, request, self.patience)

    def _tracked(self, best, losses, j, loss, request, patience) -> bool:
        """Record model ``j``'s held-out ``loss`` after ``request.round`` rounds in
        ``losses`` (its curve, restarted at round 0) and ``best`` (its least loss and that
        loss's round); whether it stops here: at its cap, or ``patience`` rounds (None:
        never) after its best."""
        if request.round == 0:
            best[j] = (np.inf, 0)
            losses[j] = []
        else:
            losses[j].append(loss)
        if request.round >= self.caps[j]:
            return True
        best_loss, best_round = best[j]
        if loss < best_loss:
            best[j] = (loss, request.round)
            return False
        return patience is not None and request.round - best_round >= patience

    def _decide_second(self, j, request) -> bool:
        """Whether model ``j`` is done with the second loss: the first rule
        (:meth:`_tracked`) with the second loss and patience; once done, it stays done."""
        if j in self.second_stopped:
            return True
        loss, patience, _, _ = self.second
        y, w = self.held[j]
        value = loss(request.scores[self.held_out[j]], y, w)
        if self._tracked(self.second_best, self.second_losses, j, value, request, patience):
            self.second_stopped.add(j)
            return True
        return False

    def curve(self, j, model) -> NDArray[np.float64] | None:
        """Model ``j``'s held-out loss after each of its rounds up to the one its loss
        stopped it at, or None where the monitor did not see every one of them
        (one-vs-rest, or a model that ended on its own)."""
        curve = np.asarray(self.losses.get(j, []), dtype=np.float64)
        rounds = self.stopped_at.get(j, model.n_estimators_)
        if j in self.one_vs_rest or curve.shape[0] != min(rounds, model.n_estimators_):
            return None
        return curve

    def second_curve(self, j, model) -> NDArray[np.float64] | None:
        """Model ``j``'s second loss after each of its rounds (None: not watched, or a
        model that ended on its own before the monitor stopped it)."""
        curve = self.second_losses.get(j)
        if curve is None or j in self.gated or len(curve) != model.n_estimators_:
            return None
        return np.asarray(curve, dtype=np.float64)


def _fit_share(X, y, sample_weight, folds, candidates, jobs, seed, trim, patience,
               binned_cache=None, progress=None, search=CLASSIFIER_SEARCH, second=None):
    """Fit ``jobs`` (all plain LogitBoost, or those ``search`` batches) in one batched pass
    with early stopping.

    Returns each job's fitted booster and its held-out loss curve. Each model is
    asked for one round more than its job's and stopped by the monitor at the
    job's count (the same model: see :func:`~robust_boosting._batched.fit_batched`),
    so the monitor sees the scores after every round, the last included, and its
    losses are the curve. ``binned_cache``: :func:`fit_batched`'s, shared by the
    successive passes of one search so that ``X`` is binned once. ``second``: see
    :func:`fit_candidates`; the jobs' second curves are returned as a third item (None
    for a job it does not watch).
    """
    X_fit, X_num = X
    weights = np.zeros((len(jobs), X_num.shape[0]))
    overrides = []
    for row, (c, f, rounds) in enumerate(jobs):
        train = folds[f][0]
        weights[row, train] = sample_weight[train]
        overrides.append(search.overrides(candidates[c], rounds + 1))
    monitor = _PatienceMonitor(y, [folds[f][1] for _, f, _ in jobs], sample_weight, trim,
                               patience, [rounds for _, _, rounds in jobs], progress,
                               [f"candidate {c + 1}, fold {f + 1}" for c, f, _ in jobs],
                               loss=search.loss,
                               second=None if second is None else
                               (second[0], second[1],
                                {j for j, (c, f, _) in enumerate(jobs) if (c, f) in second[2]},
                                second[3]))
    template = search.template(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # early stops are handled by padding the curves
        # the fold models only predict: their trees drop their fit statistics as they go
        # (at 100,000 rows and 5 classes, clean labels, three fold models held 70 MB of trees)
        models = fit_batched(template, X_fit, y, weights, overrides, monitor=monitor,
                             prediction_only=True, binned_cache=binned_cache)
    out = []
    for j, (model, (_, f, _)) in enumerate(zip(models, jobs, strict=True)):
        curve = monitor.curve(j, model)
        if curve is None or curve.shape[0] == 0:
            # (a model of no round, whose first learner made no progress: its one stage
            # is its initial prediction, which the monitor does not record as a round)
            te = folds[f][1]
            curve = search.curve(model, X_num[te], y[te], sample_weight[te], trim)
        second_curve = monitor.second_curve(j, model)
        if j in monitor.stopped_at and monitor.stopped_at[j] < model.n_estimators_:
            _cut(model, monitor.stopped_at[j])  # it ran on for its second loss only
        out.append((model, curve, second_curve))
    return out


def _cut(model, rounds: int) -> None:
    """Cut a (single-ensemble) booster back to its first ``rounds`` rounds: the model the
    monitor would have stopped there (the same trees and predictions up to there)."""
    (ens,) = model.ensembles_
    for name in ("estimators", "coefs", "errors", "rounds"):
        setattr(ens, name, getattr(ens, name)[:rounds])
    ens.stopping_reason = f"stopped by the caller after {rounds} rounds"
    model._publish(model.ensembles_, None)


#: the search's batched models at once hold at most this many bytes of per-row arrays
#: (each model's scores, new scores, Newton response and weights: 32 bytes per row and
#: class, a row's one score for two classes); more models are fitted in successive
#: groups. At 100,000 rows and 5 classes the three folds at once held 24 MB of Newton
#: terms and 12 MB of scores, in a search whose peak was twice cleanlab's.
_IN_FLIGHT_BYTES = 16 * 2**20


def _models_in_flight(n: int, n_classes: int) -> int:
    """How many of the search's batched models to fit at once on ``n`` rows."""
    per_model = 32 * n * (n_classes if n_classes > 2 else 1)
    return max(1, _IN_FLIGHT_BYTES // per_model)


def _fit_jobs(X, y, sample_weight, folds, candidates, jobs, seed, n_jobs, trim=0.0,
              patience=None, progress=None, search=CLASSIFIER_SEARCH, binned=None,
              second=None):
    """Fit ``(candidate, fold, rounds)`` jobs; each one's booster and held-out loss curve.

    Candidates without a drop fraction (plain LogitBoost) are fitted together by
    :func:`~robust_boosting._batched.fit_batched`: one pass in this process over
    the data binned once (on all rows, held-out ones included, which get weight
    0), the same models as separate fits on those weights, the tree kernels on
    ``n_jobs`` threads (in successive passes of :func:`_models_in_flight` models
    each when their per-row arrays would be large); with ``patience``, each stops
    once its held-out loss has not improved for ``patience`` rounds
    (:class:`_PatienceMonitor`, whose losses after each round are the curves: the
    logistic loss of the scores in float64). A drop
    fraction counts rows whatever their weight, so those candidates are fitted
    one by one on their fold's training rows, for their full number of rounds,
    in ``n_jobs`` joblib workers.

    ``X`` is a pair: ``X_fit``, what the boosters are fitted on (the caller's
    DataFrame when it has categorical columns, so the trees split them natively;
    else the validated array), and ``X_num``, the validated numeric array (the
    trees' bin edges apply to it, categories as codes), for the held-out scores.
    ``binned``: the data binned by an earlier call on the same ``X`` (a dict this call
    fills), so that a search of several passes bins it once. ``second``: see
    :func:`fit_candidates`. Returns ``(model, curve, second curve or None)`` per job.
    """
    out: list = [None] * len(jobs)
    batched = [j for j, (c, _, _) in enumerate(jobs) if search.batched(candidates[c])]
    single = [j for j, (c, _, _) in enumerate(jobs) if not search.batched(candidates[c])]
    # in this process (the data binned once), its kernels on n_jobs threads: worker
    # processes would each bin the data and pay their start-up; as many models at once
    # as _IN_FLIGHT_BYTES of their per-row arrays allow (the same models however grouped)
    per_group = _models_in_flight(X[1].shape[0], search.n_outputs(y))
    binned = {} if binned is None else binned  # X binned once for every pass
    for a in range(0, len(batched), per_group):
        share = batched[a:a + per_group]
        with _kernel_threads(n_jobs):
            fitted = _fit_share(X, y, sample_weight, folds, candidates,
                                [jobs[j] for j in share], seed, trim, patience, binned,
                                progress, search, second)
        for j, pair in zip(share, fitted, strict=True):
            out[j] = pair
    results = Parallel(n_jobs=n_jobs)(
        delayed(_fit_one)(X, y, sample_weight, folds[jobs[j][1]][0], folds[jobs[j][1]][1],
                          candidates[jobs[j][0]], jobs[j][2], seed, trim)
        for j in single) if single else []
    for j, (model, curve) in zip(single, results, strict=True):
        out[j] = (model, curve, None)
        if progress is not None:
            progress.advance(jobs[j][2])
    return out


def fit_candidates(X, y, sample_weight, folds, candidates, seed, n_jobs, trim,
                    patience=PATIENCE, progress=None, search=CLASSIFIER_SEARCH, binned=None,
                    second=None):
    """Every candidate fitted on every fold, and its held-out loss curves.

    Returns ``(models, curves)``: ``models[c][f]`` the booster of candidate ``c``
    fitted on fold ``f``'s training rows, ``curves`` an array ``(C, F, T)`` of
    their held-out losses after each round (the trimmed mean held-out log-loss:
    the monitor's, from the scores, for plain candidates; :func:`held_out_curve`,
    from the staged probabilities, for the others), ``T`` the
    most rounds any of these models ran (candidate ``c`` runs at most its
    ``candidates[c]["n_estimators"]``); the curve of a model stopped earlier is
    padded with its last value. Plain candidates run
    on every fold at once, each model stopping once its held-out loss has not
    improved for ``patience`` rounds (``None``: never). Candidates with a drop
    fraction are fitted one by one: the first fold runs all its
    ``n_estimators`` rounds, the other folds at most ``2 r + 12`` rounds, ``r`` the first fold's
    best round. This is the single place where the search trains models
    (through :func:`_fit_jobs`). Only the curves are kept of the staged
    predictions: the out-of-fold probabilities of the winner are predicted
    afterwards at the one round they are needed (:func:`proba_at`). ``progress``
    (a :class:`~robust_boosting._progress.Progress`) counts a unit per model round.
    ``search`` says which models, which held-out loss and which candidates are batched
    (:class:`ClassifierSearch`, or a regressor's). ``binned`` (a dict) keeps ``X`` binned
    for the next call on the same ``X`` (:func:`_fit_jobs`).

    ``second``: ``(loss, patience, curves, gate)``, a second held-out loss
    ``loss(scores, y, w)`` of a regressor's batched models, kept for the
    ``(candidate, fold)`` keys of the dict ``curves``, whose values this call sets to those
    models' curves of it (None where the monitor did not see every round). Such a model
    runs on until both losses have not improved for their patience (or its rounds),
    unless ``gate(scores, y, w)`` (None: always yes) of its held-out rows, asked when the
    search's loss stops it, says no (its entry is then None). The model and its curve of
    the search's loss are cut back to where that loss alone stopped it, so the search is
    the same either way.
    """
    def run(jobs):
        if progress is not None:
            progress.total(sum(rounds for _, _, rounds in jobs))
        return _fit_jobs(X, y, sample_weight, folds, candidates, jobs, seed, n_jobs, trim,
                         patience, progress, search, binned, second)

    plain = [c for c, p in enumerate(candidates) if search.batched(p)]
    paced = [c for c, p in enumerate(candidates) if not search.batched(p)]
    out = [[None] * len(folds) for _ in candidates]
    rounds = [p["n_estimators"] for p in candidates]
    jobs = [(c, f, rounds[c]) for c in plain for f in range(len(folds))]
    jobs += [(c, 0, rounds[c]) for c in paced]
    for (c, f, _), pair in zip(jobs, run(jobs), strict=True):
        out[c][f] = pair
    budget = {c: min(rounds[c], 2 * int(np.argmin(out[c][0][1])) + 12) for c in paced}
    jobs = [(c, f, budget[c]) for c in paced for f in range(1, len(folds))]
    for (c, f, _), pair in zip(jobs, run(jobs), strict=True):
        out[c][f] = pair
    longest = max(curve.shape[0] for row in out for _, curve, _ in row)
    models = [[model for model, _, _ in row] for row in out]
    curves = np.array([[padded(curve, longest) for _, curve, _ in row] for row in out])
    if second is not None:
        for key in second[2]:
            c, f = key
            second[2][key] = out[c][f][2]
    return models, curves


def _trimmed_mean(loss, w, trim):
    """Per row of ``loss`` (T, n), the ``w``-weighted mean without the ``trim`` fraction largest."""
    keep = np.ones_like(loss, dtype=bool)
    m = int(np.floor(trim * loss.shape[1]))
    if m:
        np.put_along_axis(keep, np.argsort(-loss, axis=1, kind="stable")[:, :m], False, axis=1)
    w = np.where(keep, w[None, :], 0.0)
    total = w.sum(axis=1)
    return np.divide((w * loss).sum(axis=1), total, out=np.full(loss.shape[0], np.inf),
                     where=total > 0)


def _trimmed_losses(staged, y_test, w_test, trim):
    """Per stage, the weighted mean held-out log-loss without the ``trim`` fraction largest losses."""
    p = staged[:, np.arange(y_test.shape[0]), y_test].astype(np.float64)
    return _trimmed_mean(-np.log(np.clip(p, _EPS, 1.0)), w_test, trim)


def stratified_folds(y, counts, n_splits: int, seed: int) -> list:
    """``StratifiedKFold(n_splits, shuffle=True, random_state=seed)`` on the rows of the
    classes of at least ``n_splits`` rows; each smaller class's rows in distinct test folds
    (a seeded choice). The classes of ``n_splits`` rows or more get the folds they would get
    without the smaller classes' rows, and scikit-learn's warning about those is not raised."""
    n = y.shape[0]
    small = (counts > 0) & (counts < n_splits)
    common = np.flatnonzero(~small[y])
    splitter = StratifiedKFold(n_splits, shuffle=True, random_state=seed)
    test = [common[te] for _, te in splitter.split(np.zeros((common.size, 1)), y[common])]
    rng = np.random.RandomState(seed)
    for k in np.flatnonzero(small):
        rows = np.flatnonzero(y == k)
        for row, f in zip(rows, rng.permutation(n_splits)[:rows.size], strict=False):
            test[f] = np.append(test[f], row)
    folds = []
    for te in test:
        te = np.sort(te)
        mask = np.ones(n, dtype=bool)
        mask[te] = False
        folds.append((np.flatnonzero(mask), te))
    return folds


def checked_partition(folds: list, n: int) -> list:
    """``folds`` (a ``cv``'s splits) unchanged when their test parts hold each of the ``n``
    rows exactly once, as every row's out-of-fold prediction needs (scikit-learn's
    ``cross_val_predict`` asks the same of its ``cv``); else a ``ValueError``: no split at
    all, or a row named."""
    if not folds:
        raise ValueError("cv produced no train/test split.")
    counts = np.zeros(n, dtype=np.intp)
    for _, te in folds:
        counts += np.bincount(np.asarray(te, dtype=np.intp), minlength=n)[:n]
    wrong = np.flatnonzero(counts != 1)
    if wrong.size:
        row = int(wrong[0])
        raise ValueError(
            "cv must put every row in exactly one test fold (a partition of the rows: each "
            f"row's out-of-fold prediction comes from the one model that held it out); row "
            f"{row} is in {counts[row]} test folds, and {wrong.size} of the {n} rows are not "
            "in exactly one.")
    return folds


def search_folds(cv, X, y, seed: int) -> list:
    """The search's (train, test) splits of :class:`~robust_boosting.SPLBoostClassifierCV`
    (``y``: class indices). An int ``cv``: ``StratifiedKFold`` on the rows of
    the classes of at least ``cv`` rows (the same folds as without the others), and the
    rows of each smaller class in distinct test folds, chosen by ``seed``."""
    if cv is None or isinstance(cv, numbers.Integral):
        n_splits = 3 if cv is None else int(cv)
        if isinstance(cv, bool) or n_splits < 2:
            raise ValueError(f"cv must be an integer >= 2, a splitter or an iterable, got {cv!r}.")
        counts = np.bincount(y)
        if counts.max() < n_splits:
            raise ValueError(
                f"cv={n_splits} folds need at least {n_splits} samples in some class; "
                f"the largest class has {counts.max()}.")
        return stratified_folds(y, counts, n_splits, seed)
    cv = check_cv(cv, y, classifier=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a class smaller than n_splits
        folds = [(np.asarray(tr), np.asarray(te)) for tr, te in cv.split(X, y)]
    return checked_partition(folds, y.shape[0])


#: the parameters of a classifier's candidate, the columns of its ``cv_results_``
RESULT_KEYS = (*TREE_KEYS, "learning_rate", "drop_fraction", "multiclass_trees", "n_estimators")


def results_table(candidates, scores, best_round, keys=RESULT_KEYS) -> dict:
    """``cv_results_`` of the search, as scikit-learn's ``GridSearchCV`` lays it out:
    ``scores`` (candidates x folds) at each candidate's ``best_round``; a ``param_<key>``
    column for each of ``keys``. A candidate with a NaN score (not fitted on that fold)
    has NaN mean and spread and ranks after the others, by its first fold's score."""
    mean = scores.mean(axis=1)
    missing = np.isnan(mean)
    # stable: ties keep the candidates' order; the missing ones last, by first-fold score
    order = np.lexsort((np.where(missing, -scores[:, 0], 0.0),
                        np.where(missing, np.inf, -mean)))
    rank = np.empty(len(candidates), dtype=np.int32)
    rank[order] = np.arange(1, len(candidates) + 1)
    res: dict = {"params": [dict(c) for c in candidates]}
    for key in keys:
        res[f"param_{key}"] = np.array([c[key] for c in candidates])
    res["n_estimators"] = best_round + 1
    for f in range(scores.shape[1]):
        res[f"split{f}_test_score"] = scores[:, f]
    res["mean_test_score"] = mean
    res["std_test_score"] = scores.std(axis=1)
    res["rank_test_score"] = rank
    return res


def _label(value) -> str:
    """A class label as the user wrote it (``3``, ``'cat'``), not as numpy prints it."""
    return repr(value.item() if isinstance(value, np.generic) else value)


def warn_rare_classes(y_idx: NDArray, classes: NDArray, n_folds: int,
                      stacklevel: int = 2) -> NDArray[np.intp]:
    """The classes of fewer rows than the search's ``n_folds`` folds (:func:`rare_classes`),
    as class indices, with a UserWarning naming them and their counts; none when every
    class has fewer rows than the folds (a splitter of many folds, such as leave-one-out).
    Those classes take no part in the label-noise estimate and stay in the final fit
    (docs/design/0021-rare-classes.md)."""
    rare = rare_classes(y_idx, n_folds, classes.shape[0])
    if rare.size == classes.shape[0]:
        return rare[:0]
    if rare.size:
        counts = np.bincount(y_idx, minlength=classes.shape[0])
        named = [f"{_label(classes[k])} ({counts[k]} row{'s' if counts[k] > 1 else ''})"
                 for k in rare]
        which = (f"class {named[0]} has" if rare.size == 1
                 else f"classes {', '.join(named[:-1])} and {named[-1]} have")
        it = "it takes" if rare.size == 1 else "they take"
        warnings.warn(
            f"{which} fewer rows than the search's {n_folds} folds: {it} no part in the "
            "label-noise estimate (noise_rate_, label_issues_, remove_label_issues_) and "
            "stay in the final fit.", UserWarning, stacklevel=stacklevel)
    return rare
