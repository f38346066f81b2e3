"""
SPLBoost's self-paced weights, round by round
=============================================

SPLBoost [SPL]_ multiplies AdaBoost's sample weights by a *self-paced* weight
``v*(λ; ℓ)`` in ``[0, 1]`` computed from each sample's loss ``ℓ = exp(-y F(x))`` and the
*age* ``λ``. With the hard regularizer a sample whose loss exceeds the age (whose
margin falls below ``-log λ``) gets ``v = 0``: it is left out of the next round, so a
mislabelled sample cannot pull the ensemble towards itself as it does in AdaBoost.
This example draws the papers' figures: the weight curves (SPLBoost Fig. 1), the final
weights on the synthetic set (Fig. 3), the samples kept per round and the latent
objective (Fig. 9).
"""

# %%
# Weight as a function of the margin
# ----------------------------------
# AdaBoost's weight ``exp(-m)`` grows without bound as the margin ``m = y F(x)`` falls;
# LogitBoost's and SavageBoost's stay bounded; SPLBoost's (here the linear
# regularizer at several ages) fall to 0 below ``m = -log λ``.
from robust_boosting.plotting import plot_weight_curves

fig = plot_weight_curves(ages=(2.0, 4.0, 6.0), regularizer="linear")

# %%
# The synthetic set: two Gaussians, 15 % of each class flipped
# ------------------------------------------------------------
# Marker area is each sample's final normalised weight. AdaBoost piles its weight on
# the flipped samples (squares and circles); SPLBoost drops them (circled in black).
# ``age_growth=None`` is the paper's fixed age. (With it, the paper's smallest age,
# λ = 1.5, stops after a few rounds on this draw: the kept samples become separable by
# one stump. The library's default, ``age_growth=2.0``, grows the age instead.)
from robust_boosting import AdaBoostClassifier, SPLBoostClassifier
from robust_boosting.datasets import make_splboost_gaussian, splboost_gaussian_log_odds
from robust_boosting.noise import flip_labels_per_class
from robust_boosting.plotting import plot_synthetic_weights

X, y = make_splboost_gaussian(100, random_state=0)
y_noisy, flipped = flip_labels_per_class(y, 0.15, random_state=0)
models = {"AdaBoost": AdaBoostClassifier(n_estimators=100, random_state=0)}
for age in (2.0, 2.5):
    models[f"SPLBoost, λ = {age}"] = SPLBoostClassifier(
        n_estimators=100, age=age, age_growth=None, random_state=0)
for model in models.values():
    model.fit(X, y_noisy)
fig = plot_synthetic_weights(models, X, y_noisy, flipped,
                             log_odds=splboost_gaussian_log_odds, ncols=2)

# %%
# Which samples are left out
# --------------------------
# ``excluded_samples_`` are the samples with ``v = 0`` after the last round;
# ``n_selected_`` counts the kept samples per round (the first 3 rounds are the warm
# start, at a very large age).
for name, model in list(models.items())[1:]:
    dropped = model.excluded_samples_
    print(f"{name}: {len(dropped)} dropped, {flipped[dropped].sum()} of them flipped "
          f"(of {flipped.sum()} flipped)")
    print(f"    kept per round: {model.n_selected_[:3].tolist()} ... "
          f"{model.n_selected_[-3:].tolist()}")

# %%
# The latent objective never increases (Theorem 1)
# ------------------------------------------------
# SPLBoost is a majorization-minimization algorithm on the latent objective
# ``Σ F_λ(exp(-y_i F(x_i)))``: once the warm start is over and the age is fixed
# (``age_growth=None``, the paper's algorithm), it never increases.
from robust_boosting.plotting import plot_latent_objective

fig = plot_latent_objective({k: v for k, v in models.items() if k != "AdaBoost"})
