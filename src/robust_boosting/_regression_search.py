"""The search of :class:`~robust_boosting.regression_cv.SPLBoostRegressorCV`: its models,
its held-out losses, its race over the folds, and the rules that read its out-of-fold
residuals (suspects, a long tail of true targets).

It runs on the search of :mod:`robust_boosting._cv_search` (candidates x folds in batched
passes, early stopping on the held-out loss), with :class:`RegressionSearch` saying which
models it fits and how it scores them.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ._auto_rules import PATIENCE, SAMPLE_COUNT
from ._batched import staged_raw_binned_once
from ._cv_search import fit_candidates, padded
from ._validation import frames_encoded_once
from .regression import SPLBoostRegressor
from .steps import REGRESSION_LOSSES, fdot, robust_scale
from .trees import HistTreeRegressor

#: the held-out loss truncates each squared residual at this many robust spreads of the
#: held-out residuals (3: the default age 4.5 of :class:`SPLBoostRegressor`,
#: ``½ u² = 4.5``)
TRUNCATION = 3.0

#: ``remove_label_issues="auto"`` removes the suspects when they are more than this share
#: of the rows (by weight): normal errors put 0.27 % of the rows beyond 3 standard
#: deviations, clean targets gave 0-1.1 % suspects, and removing them cost 2-14 % of the
#: clean-test RMSE (docs/design/0025-regression-suspects.md)
CLEAN_SHARE = 0.02


#: the search races its candidates (:func:`raced_candidates`): all of them on the first
#: fold, then only this many of least first-fold held-out loss, and the best plain
#: candidate, on the other folds. On 348 real-table fits the clean-test RMSE moved by
#: -0.2 to +0.13 % (geometric means) and the fit took 0.65-0.73 of its time; keeping 3
#: saved less, keeping 1 lost accuracy on the held-out tables
#: (docs/design/0031-regression-race.md)
RACE_KEEP = 2

#: ``remove_label_issues="auto"`` keeps the suspects when their targets follow the
#: features: when the out-of-fold predictions of the best plain candidate (``age=inf``,
#: the squared loss) explain at least this share of their spread
#: (:attr:`SPLBoostRegressorCV.suspects_r2_`). A long tail of true targets (prices, sales,
#: incomes) scored 0.39-1.00 on real tables, replaced, shifted and unit-error targets at
#: most 0.12 (docs/design/0029-long-tails.md)
TAIL_R2 = 0.25

#: the searches (step 1, the refit and the long-tail searches) boost at this many times
#: ``learning_rate``, and the final model at ``learning_rate`` for this many times the
#: rounds they chose: at twice the rate a search's models stop after about half the
#: rounds, and the final model keeps the finer steps. On the real tables the fit took
#: 0.69-0.78 of its time and the clean-test RMSE moved by -4.0 to -0.2 % (geometric
#: means); the same rate for both cost 1-3 % on smooth synthetic targets
#: (docs/design/0033-regression-rate.md)
SEARCH_RATE = 2

#: the final model's rounds are also scaled by the ratio of its rows to a search model's
#: training rows (3/2 with three folds), at most this: a model of more rows fits best
#: after more rounds. On the real tables the clean-test RMSE moved by -1.9 % and -0.5 %
#: (geometric means), the ratio to the best peer from 0.971 to 0.959 and from 1.004 to
#: 0.999, corrupted targets -0.6 % and -0.4 %, at 1.02-1.04 of the time
#: (docs/design/0041-final-rounds.md)
MAX_ROWS_SCALE = 2.0


#: from this many kept rows, the refit search (:meth:`SPLBoostRegressorCV._refit_search`)
#: scores its candidates on the first fold only, as scikit-learn's histogram gradient
#: boosting stops early on one held-out split from 10,000 rows: a third of them is enough
#: held-out rows to choose the rounds, at a third of the cost
#: (docs/design/0026-regression-cost.md)
REFIT_ONE_FOLD_ROWS = 20_000

#: below that, the refit and long-tail searches run on the first this many folds, each
#: model stopping once its held-out loss has not improved for ``REFIT_PATIENCE`` rounds
#: (the search's: 10). They choose only the final model's rounds, which a longer patience
#: finds better and two folds as well as three: on the real tables the RMSE moved by
#: -1.0 to -0.1 % (geometric means) at 0.98-0.99 of the fit time
#: (docs/design/0034-refit-folds.md)
REFIT_FOLDS = 2
REFIT_PATIENCE = 20


def refit_folds(folds, n_kept: int) -> list:
    """The folds of the refit and long-tail searches on ``n_kept`` rows: the first
    :data:`REFIT_FOLDS`, or the first only from :data:`REFIT_ONE_FOLD_ROWS`."""
    return folds[:1 if n_kept >= REFIT_ONE_FOLD_ROWS else REFIT_FOLDS]


def final_rounds(searched: int, folds, n: int) -> int:
    """The final model's rounds at ``learning_rate``: a search's ``searched`` rounds at
    :data:`SEARCH_RATE` times that rate, run :data:`SEARCH_RATE` times over, times the
    ratio of the ``n`` rows to the ``folds``' mean training rows (at most
    :data:`MAX_ROWS_SCALE`), rounded."""
    train = float(np.mean([len(tr) for tr, _ in folds]))
    scale = min(n / train, MAX_ROWS_SCALE) if train > 0 else 1.0
    return max(1, int(round(SEARCH_RATE * searched * scale)))

#: with ``grow_policy="auto"``, the plain candidates (``age=inf``, the squared loss) of
#: at least this depth grow symmetric trees (CatBoost's oblivious trees: one split per
#: level, leaves of any size) on data without monotone constraints. On numeric real
#: tables the clean-test RMSE moved by -1.9 % and -1.1 % (geometric means), the ratio to
#: the best peer from 1.035 to 1.003 and from 1.034 to 1.022, corrupted targets unchanged
#: (+0.07 % and 0.00 %); the robust candidates' trees stay depth-wise: symmetric ones won
#: the search on corrupted synthetic targets and lost up to 2.3x after the refit
#: (docs/design/0037-symmetric-regression-trees.md). With categorical columns too (their
#: categories split at their ranks): -2.1 % and -1.2 %, the ratio to 0.978 and 1.010
#: (docs/design/0038-symmetric-categorical-splits.md). From depth 3 (both default depths):
#: -0.5 % and -0.2 %, the ratio to 0.973 and 1.007, corrupted targets -0.1 % and 0.0 %
#: (docs/design/0039-symmetric-depth-three.md)
SYMMETRIC_DEPTH = 3


def held_out_loss(pred, y, w) -> float:
    """The search's held-out loss of the predictions ``pred`` of targets ``y`` (weights ``w``):
    the weighted mean of ``min(r², (3 s)²)``, ``r = y - pred`` and ``s`` the
    :func:`~robust_boosting.steps.robust_scale` of those residuals. A wrong target costs at
    most ``9 s²`` whatever its error, so the loss ranks models by how well they predict the
    rest; on clean normal errors it is the mean squared error (0.3 % of the rows truncated)."""
    r = np.asarray(y, dtype=np.float64) - pred
    w = np.asarray(w, dtype=np.float64)
    cap = (TRUNCATION * robust_scale(r, w)) ** 2
    total = float(w.sum())
    # fdot: BLAS's dot is slow on a busy machine and may depend on its threads
    return fdot(w, np.minimum(r * r, cap)) / total if total > 0 else np.inf


def mean_squared_error(pred, y, w) -> float:
    """The weighted mean squared residual of the predictions ``pred`` of targets ``y``: the
    held-out loss of the tail search (:data:`TAIL_R2`), where the suspects are true."""
    r = np.asarray(y, dtype=np.float64) - pred
    w = np.asarray(w, dtype=np.float64)
    total = float(w.sum())
    return fdot(w, r * r) / total if total > 0 else np.inf


def explained_share(y, pred, w) -> float:
    """``1 - sum w (y - pred)² / sum w (y - ȳ)²`` (``ȳ`` the weighted mean of ``y``): the
    share of the spread of the targets ``y`` that the predictions ``pred`` explain; NaN
    with fewer than two rows or targets that do not vary."""
    y = np.asarray(y, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    total = float(w.sum())
    if y.shape[0] < 2 or not total > 0:
        return float("nan")
    centred = y - fdot(w, y) / total
    spread = fdot(w, centred * centred)
    if not spread > 0:
        return float("nan")
    r = y - np.asarray(pred, dtype=np.float64)
    return 1.0 - fdot(w, r * r) / spread


def scaled_residuals(y, pred, sample_weight=None) -> tuple[NDArray[np.float64], float]:
    """``(|y - pred| / s, s)``: the absolute residuals in units of their robust spread ``s``
    (``1.4826 ×`` the weighted median absolute deviation,
    :func:`~robust_boosting.steps.robust_scale`)."""
    r = np.asarray(y, dtype=np.float64) - np.asarray(pred, dtype=np.float64)
    w = np.ones_like(r) if sample_weight is None else np.asarray(sample_weight, np.float64)
    s = robust_scale(r, w)
    return np.abs(r) / s, s


class RegressionSearch:
    """What :func:`~robust_boosting._cv_search.fit_candidates` fits for
    :class:`SPLBoostRegressorCV` and how it scores it: :class:`SPLBoostRegressor` models
    (every candidate batched: the hard self-paced weights depend on each row's own loss,
    not on a count of rows), scored by :func:`held_out_loss`."""

    loss = staticmethod(held_out_loss)

    @staticmethod
    def n_outputs(y) -> int:
        return 1

    @staticmethod
    def batched(candidate) -> bool:
        return True

    @staticmethod
    def template(seed) -> SPLBoostRegressor:
        return make_regressor(dict(max_depth=3, min_samples_leaf=1, l2_regularization=0.0,
                                   learning_rate=0.1, age=np.inf, loss="squared_error",
                                   grow_policy="depthwise"),
                              1, seed)

    @staticmethod
    def overrides(candidate, rounds) -> dict:
        return {"estimator__max_depth": candidate["max_depth"],
                "estimator__min_samples_leaf": candidate["min_samples_leaf"],
                "estimator__l2_regularization": candidate["l2_regularization"],
                "learning_rate": candidate["learning_rate"], "age": candidate["age"],
                "loss": candidate["loss"], "n_estimators": rounds,
                "estimator__grow_policy": candidate["grow_policy"],
                **({} if candidate.get("monotonic_cst") is None
                   else {"estimator__monotonic_cst": candidate["monotonic_cst"]})}

    def curve(self, model, X, y, w, trim) -> NDArray[np.float64]:
        return np.array([self.loss(p, y, w) for p in staged_raw_binned_once(model, X)])


class TailSearch(RegressionSearch):
    """:class:`RegressionSearch` scored by the untruncated :func:`mean_squared_error`: the
    search of the final model when the suspects' targets are a true long tail
    (:data:`TAIL_R2`), whose large errors the truncated loss would not count."""

    loss = staticmethod(mean_squared_error)


REGRESSION_SEARCH = RegressionSearch()
TAIL_SEARCH = TailSearch()


def removes(suspects, sw) -> bool:
    """Whether ``remove_label_issues="auto"`` would remove the ``suspects``: when they hold
    more than :data:`CLEAN_SHARE` of the weight ``sw``."""
    return float(sw[suspects].sum()) > CLEAN_SHARE * float(sw.sum())


def read_residuals(y, oof, plain_oof, sw, threshold: float):
    """``(scores, scale, suspects, r2)`` of the winner's out-of-fold predictions ``oof``:
    :func:`scaled_residuals`, the rows whose score exceeds ``threshold``, and the share of
    their targets' spread that the best plain candidate's ``plain_oof`` explain (NaN
    without one)."""
    scores, scale = scaled_residuals(y, oof, sw)
    s = np.flatnonzero(scores > threshold).astype(np.intp)
    r2 = float("nan") if plain_oof is None else explained_share(y[s], plain_oof[s], sw[s])
    return scores, scale, s, r2


def keeps_long_tail(suspects, r2: float, sw) -> bool:
    """Whether ``remove_label_issues="auto"`` keeps the ``suspects`` as a long tail of true
    targets: they hold more than :data:`CLEAN_SHARE` of the weight ``sw`` (so they would
    be removed), and their targets are at least :data:`TAIL_R2` explained (``r2``)."""
    return bool(removes(suspects, sw) and r2 >= TAIL_R2)


def long_tail(y, plain_oof, sw, threshold: float) -> bool:
    """:func:`keeps_long_tail` with the out-of-fold predictions ``plain_oof`` of a plain
    candidate taken as the winner's (:func:`read_residuals`)."""
    _, _, s, r2 = read_residuals(y, plain_oof, plain_oof, sw, threshold)
    return keeps_long_tail(s, r2, sw)


def make_regressor(candidate: dict, n_estimators: int, random_state: int) -> SPLBoostRegressor:
    """The one configuration of every search model and of the final fit (``id_columns``
    ``"keep"``, as :func:`~robust_boosting._cv_search.make_booster`'s)."""
    tree = HistTreeRegressor(max_depth=candidate["max_depth"],
                             min_samples_leaf=candidate["min_samples_leaf"],
                             l2_regularization=candidate["l2_regularization"],
                             sample_count=SAMPLE_COUNT,
                             monotonic_cst=candidate.get("monotonic_cst"),
                             grow_policy=candidate["grow_policy"])
    return SPLBoostRegressor(tree, n_estimators=n_estimators, age=candidate["age"],
                             loss=candidate["loss"], learning_rate=candidate["learning_rate"],
                             random_state=random_state, id_columns="keep")


def _plain(candidates) -> list[int]:
    """The indices of the plain candidates: ``age=inf`` with the squared loss."""
    return [c for c, p in enumerate(candidates)
            if not np.isfinite(p["age"]) and p["loss"] == "squared_error"]


def _check_loss(loss) -> None:
    if not isinstance(loss, str) or loss not in REGRESSION_LOSSES:
        raise ValueError(f"loss must be one of {list(REGRESSION_LOSSES)}, got {loss!r}.")


def raced_candidates(X, y, sw, folds, candidates, seed, n_jobs, progress=None,
                     search=REGRESSION_SEARCH, settled=None, promising=None, tail=None,
                     binned=None, reads_tail=None):
    """:func:`~robust_boosting._cv_search.fit_candidates` as a race: every candidate on
    the first fold, then on the other folds only the :data:`RACE_KEEP` candidates of least
    first-fold held-out loss and the plain candidate (:func:`_plain`) of least loss.

    With ``settled``, the plain candidates run first: all of them on the first fold, then
    the one of least loss on the other folds, and ``settled(c, models, curves)`` is asked
    whether that candidate ``c`` (its fold models and ``(F, T)`` curves) settles the
    search. If it does, no other candidate is fitted
    (``docs/design/0047-long-tail-first.md``); else the race goes on as above. With
    ``promising`` too, the other folds of that candidate are fitted first only when
    ``promising(c, model, curve)`` (its first fold's model and curve) says ``settled``
    may say yes; else they are fitted with the race's other survivors, and ``settled``
    is not asked. Either way the candidates that run every fold are the race's.

    ``tail`` (a dict, with ``settled``): the plain candidates' models of those first
    passes on the long-tail search's folds (:func:`refit_folds`) also keep their
    held-out :func:`mean_squared_error`, running on until it has not improved for
    :data:`REFIT_PATIENCE` rounds; ``tail[c, f]`` is set to that curve (None where it
    could not be kept), for :func:`tail_race`; with ``reads_tail(pred, y, w)``, only the
    models whose held-out predictions it says read a long tail when the search's loss
    stops them run on (the others' entries are None): on other data the squared error
    would cost rounds for nothing. ``binned`` (a dict): the binned data, kept for a later
    search on the same ``X``.

    Returns ``(models, curves)`` as ``fit_candidates`` does, ``models[c][f]`` None and
    ``curves[c, f]`` NaN for a candidate left out of fold ``f``. A model does not depend
    on the pass that fits it (the fits share one seed, and the passes the data binned and
    encoded once), so the candidates that run every fold have the models and curves of
    the search without a race."""
    n_folds = len(folds)
    models = [[None] * n_folds for _ in candidates]
    parts = []  # (candidates, first fold, their curves)
    binned = {} if binned is None else binned
    watched = range(len(refit_folds(folds, int(np.count_nonzero(sw > 0)))))

    def fit(first_fold, chosen, watch=False):
        part = folds[:1] if first_fold == 0 else folds[1:]
        second = None
        if watch and tail is not None:  # the tail search's squared errors too
            second = (mean_squared_error, REFIT_PATIENCE,
                      {(i, f): None for i in range(len(chosen)) for f in range(len(part))
                       if first_fold + f in watched}, reads_tail)
        got, curves = fit_candidates(X, y, sw, part, [candidates[c] for c in chosen], seed,
                                     n_jobs, 0.0,
                                     patience=PATIENCE, progress=progress, search=search,
                                     binned=binned, second=second)
        for c, row in zip(chosen, got, strict=True):
            models[c][first_fold:first_fold + len(row)] = row
        if second is not None:
            for (i, f), curve in second[2].items():
                tail[chosen[i], first_fold + f] = curve
        parts.append((chosen, first_fold, curves))
        return curves

    def assembled():
        n_rounds = max(curves.shape[2] for _, _, curves in parts)
        out = np.full((len(candidates), n_folds, n_rounds), np.nan)
        for chosen, first_fold, curves in parts:
            out[chosen, first_fold:first_fold + curves.shape[1]] = padded(curves, n_rounds)
        return out

    plain = _plain(candidates)
    first = list(range(len(candidates))) if settled is None or not plain else plain
    least = np.full(len(candidates), np.inf)
    with frames_encoded_once():  # the passes share X's encoding
        least[first] = fit(0, first, watch=True)[:, 0, :].min(axis=1)
        if len(first) < len(candidates):  # the plain candidates first
            best_plain = min(plain, key=lambda c: least[c])
            if promising is None or promising(best_plain, models[best_plain][0],
                                              assembled()[best_plain, 0]):
                if n_folds > 1:
                    fit(1, [best_plain], watch=True)
                if settled(best_plain, models[best_plain], assembled()[best_plain]):
                    return models, assembled()
            others = [c for c in range(len(candidates)) if c not in plain]
            least[others] = fit(0, others)[:, 0, :].min(axis=1)
        alive = set(np.argsort(least, kind="stable")[:RACE_KEEP].tolist())
        if plain:
            alive.add(min(plain, key=lambda c: least[c]))
        rest = [c for c in sorted(alive) if models[c][n_folds - 1] is None]
        if n_folds > 1 and rest:
            fit(1, rest)
    return models, assembled()


def tail_race(X, y, sw, folds, candidates, tail, seed, n_jobs, progress=None,
              binned=None) -> dict:
    """The long-tail search (:data:`TAIL_R2`) as a race, on the squared-error curves
    ``tail`` that :func:`raced_candidates` kept: the plain candidate of least held-out
    mean squared error on the first fold, and its round of least mean over the search's
    folds (:func:`refit_folds`). A curve ``tail`` lacks is fitted (:data:`TAIL_SEARCH`,
    patience :data:`REFIT_PATIENCE`): the plain candidates that lost the race on the
    first fold are not fitted on the others (``docs/design/0048-tail-race.md``).

    Returns the winner's parameters with ``n_estimators`` its best round."""
    folds = refit_folds(folds, int(np.count_nonzero(sw > 0)))
    plain = _plain(candidates)

    def curves_of(chosen, fold):
        lacking = [c for c in chosen if tail.get((c, fold)) is None]
        if lacking:
            with frames_encoded_once():
                _, got = fit_candidates(X, y, sw, [folds[fold]],
                                        [candidates[c] for c in lacking], seed, n_jobs, 0.0,
                                        patience=REFIT_PATIENCE, progress=progress,
                                        search=TAIL_SEARCH, binned=binned)
            for c, curve in zip(lacking, got[:, 0], strict=True):
                tail[c, fold] = curve  # (padded with its last loss: the same argmin)
        return [tail[c, fold] for c in chosen]

    first = curves_of(plain, 0)
    best = plain[min(range(len(plain)), key=lambda i: first[i].min())]
    curves = [curves_of([best], f)[0] for f in range(len(folds))]
    n_rounds = max(curve.shape[0] for curve in curves)
    mean = np.mean([padded(curve, n_rounds) for curve in curves], axis=0)
    return dict(candidates[best], n_estimators=int(np.argmin(mean)) + 1)
