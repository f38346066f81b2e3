"""Why a row is a suspect: ``suspect_contributions`` and ``explain_suspects``.

What is promised: for each suspect of a CV default, each feature's push from the given
label towards the suggested one, from the final model's exact contributions (two
classes: signed towards the suggested class; more: suggested minus given; a regressor:
towards the suggested target), so that the pushes sum to the raw-score gap they explain;
on labels flipped on purpose along one known feature (rows that feature alone decides),
that feature is the top reason of most flipped suspects; the values shown are the
user's (category labels); only the suspects' rows of ``X`` are read; wrong ``X`` or
``y`` is a clear error.
"""

from __future__ import annotations

import copy
import re

import numpy as np
import pandas as pd
import pytest

from robust_boosting import (
    SPLBoostClassifierCV,
    SPLBoostRegressorCV,
    explain_suspects,
    suspect_contributions,
)

pytestmark = pytest.mark.filterwarnings("ignore::robust_boosting.BoostingStoppedWarning")

#: one reason of a ``why`` text: ``name=value (+push)``
REASON = r"[^=;]+=[^;]+ \(\+[0-9.e+-]+\)"
WHY = re.compile(rf"{REASON}(; {REASON}){{0,2}}")


def flipped_along(k: int, *, n: int = 800, seed: int = 0, n_classes: int = 2,
                  share: float = 1 / 3):
    """Five standard normal features; the true label depends on features 0, 1 and 2
    alike (two classes: the sign of their sum; three: the largest of them). The labels
    flipped are a ``share`` of the rows that feature ``k`` alone decides (``|x_k| > 1``,
    the two others within 0.75 of 0): only ``x_k`` contradicts their given label.
    Returns ``X, y_noisy, flipped`` (a boolean mask)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5))
    others = np.all(np.abs(np.delete(X[:, :3], k, axis=1)) < 0.75, axis=1)
    if n_classes == 2:
        y = (X[:, :3].sum(axis=1) > 0).astype(int)
        candidates = np.flatnonzero((np.abs(X[:, k]) > 1.0) & others)
    else:
        y = np.argmax(X[:, :3], axis=1)
        candidates = np.flatnonzero((X[:, k] > 1.0) & others)
    flip = rng.choice(candidates, size=int(candidates.size * share), replace=False)
    y_noisy = y.copy()
    y_noisy[flip] = (y[flip] + rng.integers(1, n_classes, size=flip.size)) % n_classes
    flipped = np.zeros(n, dtype=bool)
    flipped[flip] = True
    return X, y_noisy, flipped


def top_reason_share(model, X, y, flipped, k) -> tuple[float, int]:
    """The share of the flipped suspects whose largest push is feature ``k``, and how
    many flipped suspects there are."""
    push = suspect_contributions(model, X, y)
    top = np.argmax(push.to_numpy(), axis=1)
    hit = flipped[push.index.to_numpy()]
    return float(np.mean(top[hit] == k)), int(hit.sum())


def raw_gap(model, X, rows, given, towards):
    """What the pushes of each row sum to: the raw-score gap from the given label
    towards the other, less the same gap of the expected values."""
    contrib = model.predict(X[rows], pred_contrib=True)
    if contrib.ndim == 2:  # two classes: signed towards classes_[1]
        sign = np.where(towards == model.classes_[1], 1.0, -1.0)
        return sign * (model.decision_function(X[rows]) - contrib[:, -1])
    r = np.arange(rows.size)
    t, g = np.searchsorted(model.classes_, towards), np.searchsorted(model.classes_, given)
    score = model.decision_function(X[rows])
    return (score[r, t] - score[r, g]) - (contrib[r, t, -1] - contrib[r, g, -1])


@pytest.mark.parametrize("k", [0, 2])
def test_the_top_reason_is_the_feature_the_labels_were_flipped_along(k):
    """Binary: the labels flipped along feature ``k``; the final model left the
    suspects out (the explicit ``remove_label_issues=True``: at this 3 % of flips
    ``"auto"`` keeps them, and a model fitted on a flipped label learns part of it).
    Measured: 96 % of the 198 flipped suspects over k = 0, 1, 2 and 3 seeds (77 % with
    ``"auto"``, which keeps the suspects here); a feature at random would be 1 in 5."""
    X, y, flipped = flipped_along(k)
    clf = SPLBoostClassifierCV(random_state=0, remove_label_issues=True).fit(X, y)
    share, n_hit = top_reason_share(clf, X, y, flipped, k)
    assert n_hit >= 15, n_hit
    assert share >= 0.85, share
    # the pushes are signed: they sum to the raw-score gap towards the suggested class
    table = explain_suspects(clf, X, y)
    rows = table.index.to_numpy()
    push = suspect_contributions(clf, X, y)
    assert np.allclose(push.to_numpy().sum(axis=1),
                       raw_gap(clf, X, rows, table["given_label"].to_numpy(),
                               table["towards"].to_numpy()), atol=1e-6)
    assert (table["given_label"].to_numpy() == y[rows]).all()
    assert (table["suggested_label"].to_numpy() == clf.suggested_labels_[rows]).all()
    assert np.array_equal(table["score"].to_numpy(), clf.label_issue_scores_[rows])
    assert list(push.columns) == [f"x{j}" for j in range(5)]


def test_multiclass_pushes_are_suggested_minus_given():
    """Three classes (native multiclass, per-class trees of depth 3): the push is the
    contribution to the suggested class's score minus the given class's; the flipped
    feature is the top reason of most flipped suspects (measured: 91.5 % of 165 over
    k = 0, 1, 2 and 3 seeds; 71 % with ``remove_label_issues="auto"``)."""
    X, y, flipped = flipped_along(1, n=900, n_classes=3, share=0.5)
    clf = SPLBoostClassifierCV(random_state=0, remove_label_issues=True, max_depth=3,
                               learning_rate=0.3, n_estimators=100).fit(X, y)
    share, n_hit = top_reason_share(clf, X, y, flipped, 1)
    assert n_hit >= 12 and share >= 0.8, (n_hit, share)
    table = explain_suspects(clf, X, y, top=2)
    rows = table.index.to_numpy()
    given, towards = table["given_label"].to_numpy(), table["towards"].to_numpy()
    assert (towards != given).all()
    same = table["suggested_label"].to_numpy() == given
    # where the suggestion is the given label, the push is towards the runner-up
    if same.any():
        p = clf.oof_proba_[rows[same]].copy()
        p[np.arange(same.sum()), given[same]] = -1
        assert (towards[same] == np.argmax(p, axis=1)).all()
    assert (towards[~same] == table["suggested_label"].to_numpy()[~same]).all()
    push = suspect_contributions(clf, X, y).to_numpy()
    assert np.allclose(push.sum(axis=1), raw_gap(clf, X, rows, given, towards), atol=1e-6)
    assert all(WHY.fullmatch(w) and w.count(";") <= 1 for w in table["why"] if w)


def test_categorical_columns_show_their_labels_and_only_suspect_rows_are_read():
    """A categorical column that alone decides the flipped rows shows as
    ``colour=red (+...)``, numbers to 4 significant digits; a cell the model could not
    read, in a row that is no suspect, is never read."""
    rng = np.random.default_rng(0)
    n = 600
    colour = rng.choice(["red", "green", "blue"], size=n)
    a, b = rng.normal(size=n), rng.normal(size=n)
    score = np.select([colour == "red", colour == "blue"], [2.0, -2.0], 0.0) + a + b
    y = np.where(score > 0, "approve", "refuse")
    X = pd.DataFrame({"a": a, "colour": pd.Categorical(colour), "b": b,
                      "c": rng.normal(size=n)}, index=np.arange(n) + 100)
    candidates = np.flatnonzero((colour != "green") & (np.abs(a) < 0.75) & (np.abs(b) < 0.75))
    flip = rng.choice(candidates, size=candidates.size // 3, replace=False)
    y[flip] = np.where(y[flip] == "approve", "refuse", "approve")
    clf = SPLBoostClassifierCV(random_state=0, remove_label_issues=True).fit(X, y)
    table = explain_suspects(clf, X, y)
    hit = np.isin(table.index, flip)
    assert hit.sum() >= 15
    first = table["why"][hit].str.split(" ").str[0]
    assert first.isin(["colour=red", "colour=blue"]).mean() >= 0.9, table[hit].head()
    # empty where no feature pushes away from the given label (the final model agrees)
    assert table["why"].map(lambda w: w == "" or WHY.fullmatch(w) is not None).all()
    assert (table["why"] != "").mean() >= 0.9
    for row, why in table["why"].items():  # each value is the row's own, as given
        for reason in filter(None, why.split("; ")):
            name, value = reason.split(" (")[0].split("=")
            cell = X[name].iloc[row]
            assert value == (cell if name == "colour" else f"{cell:.4g}"), (row, reason)
    # a row that is no suspect holds a value the model cannot read: never read
    broken = X.astype({"a": object})
    clean = np.setdiff1d(np.arange(n), clf.label_issues_)[0]
    broken.iloc[clean, 0] = "not a number"
    assert explain_suspects(clf, broken, y).equals(table)


def test_regression_pushes_are_towards_the_suggested_target():
    """A regressor's push is the contribution to the prediction signed towards the
    suggested target (the out-of-fold prediction): the pushes sum to
    ``sign(suggested - given) * (prediction - expected value)``; a target shifted on the
    rows where ``x0`` is large has ``x0`` as its top reason."""
    rng = np.random.default_rng(0)
    n = 500
    X = rng.normal(size=(n, 4))
    y = 3 * X[:, 0] + X[:, 1] + 0.3 * rng.normal(size=n)
    wrong = rng.choice(np.flatnonzero(np.abs(X[:, 0]) > 1.2), size=20, replace=False)
    y[wrong] -= 6 * X[wrong, 0]  # the sign of x0's effect reversed on these rows
    reg = SPLBoostRegressorCV(random_state=0, n_estimators=80, cv=3).fit(X, y)
    table = explain_suspects(reg, X, y)
    assert list(table.columns) == ["given_target", "suggested_target", "score", "why"]
    rows = table.index.to_numpy()
    push = suspect_contributions(reg, X, y).to_numpy()
    contrib = reg.predict(X[rows], pred_contrib=True)
    sign = np.sign(reg.suggested_targets_[rows] - y[rows])
    assert np.allclose(push.sum(axis=1), sign * (contrib[:, :-1].sum(axis=1)), atol=1e-6)
    hit = np.isin(rows, wrong)
    assert hit.sum() >= 15
    assert np.mean(np.argmax(push[hit], axis=1) == 0) >= 0.9


@pytest.fixture(scope="module")
def small_model():
    X, y, _ = flipped_along(0, n=300)
    return SPLBoostClassifierCV(random_state=0, max_depth=1, n_estimators=20).fit(X, y), X, y


def test_wrong_data_and_models_are_clear_errors(small_model):
    from robust_boosting import AdaBoostClassifier

    clf, X, y = small_model
    with pytest.raises(ValueError, match="fitted on 300"):
        explain_suspects(clf, X[:-1], y[:-1])
    with pytest.raises(ValueError, match="y must be the 300 training labels"):
        explain_suspects(clf, X, y[:-1])
    with pytest.raises(ValueError, match="not the labels the model was fitted on"):
        suspect_contributions(clf, X, 1 - y)
    with pytest.raises(ValueError, match="no class for"):
        explain_suspects(clf, X, y + 5)
    with pytest.raises(ValueError, match="top must be a positive integer"):
        explain_suspects(clf, X, y, top=0)
    with pytest.raises(TypeError, match="ranks suspect labels"):
        explain_suspects(AdaBoostClassifier(n_estimators=3).fit(X, y), X, y)
    # the Dask estimator's suspects are a (lazy) boolean mask, not row numbers
    masked = copy.copy(clf)
    masked.label_issues_ = np.isin(np.arange(len(y)), clf.label_issues_)
    with pytest.raises(TypeError, match="row numbers in memory"):
        explain_suspects(masked, X, y)


@pytest.mark.slow
@pytest.mark.parametrize("n_classes", [2, 3])
def test_the_top_reason_over_features_and_seeds(n_classes):
    """The measurement behind the fast tests: pooled over the flipped feature (0, 1, 2)
    and 3 seeds, the share of flipped suspects whose top reason is that feature, the
    default's final model without the suspects (measured: two classes 96.0 % of 198;
    three classes, depth-3 trees, 91.5 % of 165)."""
    params = {} if n_classes == 2 else dict(max_depth=3, learning_rate=0.3, n_estimators=100)
    hits = total = 0
    for k in range(3):
        for seed in range(3):
            X, y, flipped = flipped_along(k, n=800 if n_classes == 2 else 900, seed=seed,
                                          n_classes=n_classes,
                                          share=1 / 3 if n_classes == 2 else 0.5)
            clf = SPLBoostClassifierCV(random_state=0, remove_label_issues=True,
                                       **params).fit(X, y)
            share, n_hit = top_reason_share(clf, X, y, flipped, k)
            hits, total = hits + share * n_hit, total + n_hit
    print(f"{n_classes} classes: {hits / total:.1%} of {total} flipped suspects")
    assert hits / total >= (0.9 if n_classes == 2 else 0.85)


def test_the_why_text_format():
    """Largest positive pushes first, at most ``top``, values to 4 significant digits, a
    missing value as ``missing``, pushes to 3 with their sign; none pushing: empty."""
    from robust_boosting._suspect_reasons import format_reasons

    names = ["lvrat", "insurance", "age", "income"]
    values = [0.93456, "yes", np.nan, 52000]
    assert format_reasons(names, values, [1.2149, 0.8412, 0.5, -2.0], top=2) == \
        "lvrat=0.9346 (+1.21); insurance=yes (+0.841)"
    assert format_reasons(names, values, [0.1, -0.2, 0.3, 4e-5]) == \
        "age=missing (+0.3); lvrat=0.9346 (+0.1); income=52000 (+4e-05)"
    assert format_reasons(names, values, [-1.0, 0.0, -0.5, -0.1]) == ""
