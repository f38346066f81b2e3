"""The papers' published numbers, as data, for the reports to set ours against.

Sources: SPEC section 8 and the papers in the steering repository's ``papers/``.
The SPLBoost paper gives its UCI results (Figs. 4 and 5) only as plots, so no
numbers are stored for them; its text's claims are in :data:`SPLBOOST_CLAIMS`.
"""

from __future__ import annotations

__all__ = [
    "RILBOOST_DATASETS",
    "RILBOOST_DELTAS",
    "RILBOOST_MIXING_IONOSPHERE",
    "RILBOOST_STRATEGIES",
    "RILBOOST_TTEST",
    "RILBOOST_TTEST_STRATEGIES",
    "SAVAGEBOOST_TABLE4",
    "SPLBOOST_CLAIMS",
]

#: SavageBoost paper, Table 4: rate -> algorithm -> (wins, mean error %) over its ten
#: UCI sets (eight of them are bundled here).
SAVAGEBOOST_TABLE4: dict[float, dict[str, tuple[int, float]]] = {
    0.0: {"savageboost": (4, 19.22), "logitboost": (4, 20.96), "realboost": (2, 23.99),
          "adaboost": (0, 24.58)},
    0.05: {"savageboost": (4, 19.91), "logitboost": (4, 22.04), "realboost": (2, 25.34),
           "adaboost": (0, 26.45)},
    0.4: {"savageboost": (6, 25.9), "logitboost": (3, 31.73), "realboost": (0, 33.18),
          "adaboost": (1, 38.22)},
}

#: Our task name -> the RILBoost paper's data set name (the bundled ones).
RILBOOST_DATASETS: dict[str, str] = {
    "rilboost-haberman": "Haberman's Survival",
    "rilboost-pima": "Pima Indian Diabetes",
    "rilboost-mammographic": "Mammographic masses",
    "rilboost-wisconsin": "BCWO",
    "rilboost-ecoli": "Ecoli",
    "rilboost-ionosphere": "Ionosphere",
    "rilboost-wine": "Wine",
}

#: RILBoost paper, Tables 2-4: data set -> n -> (Delta_I, Delta_II), with
#: Delta = max_eps (mean ACC(eps) - mean ACC(0)).
RILBOOST_DELTAS: dict[str, dict[int, tuple[float, float]]] = {
    "Haberman's Survival": {20: (0.059, 0.029), 40: (-0.029, 0.004)},
    "Pima Indian Diabetes": {20: (-0.007, 0.011), 40: (-0.01, 0.002)},
    "Breast Tissue": {20: (0.011, 0.030), 40: (-0.022, -0.009)},
    "Mammographic masses": {20: (0.011, 0.003), 40: (-0.022, -0.009)},
    "Parkinsons": {20: (0.044, 0.036), 40: (-0.006, -0.006)},
    "Indian Liver Patient": {20: (0.187, 0.216), 40: (-0.046, 0.194)},
    "Lung cancer": {10: (0.406, 0.048), 16: (0.085, 0.100)},
    "BCWO": {20: (-0.0004, 0.012), 40: (-0.004, -0.002)},
    "Seismic bumps": {20: (0.0632, 0.0508), 40: (0.0049, 0.0135)},
    "QSAR biodegradation": {20: (0.063, 0.0972), 40: (0.0107, 0.0048)},
    "Madelon": {20: (0.0107, 0.0545), 40: (0.013, 0.0276)},
    "Seeds": {20: (0.002, -0.0052), 40: (-0.0124, -0.0062)},
    "Ecoli": {20: (-0.0064, 0.0002), 40: (-0.0012, 0.0005)},
    "Ionosphere": {20: (0.0293, 0.004), 40: (0.0071, 0.0037)},
    "Vertebral Column 2C": {20: (0.0187, 0.0016), 40: (0.0008, 0.0007)},
    "Yeast": {20: (0.0872, 0.1262), 40: (0.0678, 0.0371)},
    "Blood transfusion": {20: (0.0099, 0.1077), 40: (0.0037, 0.0571)},
    "Steel Plates Faults": {20: (0.0181, 0.0209), 40: (0.0094, 0.0141)},
    "Planning Relax": {20: (0.0857, 0.0857), 40: (0.0, 0.0418)},
    "Fertility Diagnosis": {20: (0.0611, -0.0016), 40: (0.028, 0.046)},
    "Wine": {20: (-0.0135, -0.027), 40: (-0.018, -0.0258)},
    "Notterman CGED": {10: (0.003, 0.003), 12: (0.008, 0.008), 16: (0.006, 0.000)},
}

#: RILBoost paper, Table 5: n -> variant -> (t, 95 % CI low, high).
RILBOOST_TTEST: dict[int, dict[str, tuple[float, float, float]]] = {
    20: {"I": (2.670, 0.012, 0.092), "II": (3.452, 0.016, 0.066)},
    40: {"I": (0.486, -0.010, 0.016), "II": (2.194, 0.001, 0.043)},
}

#: RILBoost paper, Table 6: data set -> n -> {strategy: (Delta_I, Delta_II)}.
RILBOOST_STRATEGIES: dict[str, dict[int, dict[str, tuple[float, float]]]] = {
    "Ionosphere": {20: {"minimax": (0.0293, 0.004), "minimin": (-0.0057, -0.0428)},
                   40: {"minimax": (0.0071, 0.0037), "minimin": (0.0003, -0.0109)}},
    "Pima Indian Diabetes": {20: {"minimax": (-0.007, 0.011), "minimin": (-0.0144, -0.0256)},
                             40: {"minimax": (-0.01, 0.002), "minimin": (-0.0142, -0.0142)}},
    "Steel Plates Faults": {20: {"minimax": (0.0181, 0.0209), "minimin": (0.033, 0.0226)},
                            40: {"minimax": (0.0094, 0.0141), "minimin": (-0.0226, -0.0226)}},
    "Seeds": {20: {"minimax": (0.002, -0.0052), "minimin": (-0.0024, -0.0048)},
              40: {"minimax": (-0.0124, -0.0062), "minimin": (-0.0124, -0.0062)}},
    "Blood Transfusion": {20: {"minimax": (0.0099, 0.1077), "minimin": (0.0425, 0.0725)},
                          40: {"minimax": (0.0037, 0.0571), "minimin": (0.0486, 0.0313)}},
    "Ecoli": {20: {"minimax": (-0.0064, 0.0002), "minimin": (-0.0024, 0.0012)},
              40: {"minimax": (-0.0012, 0.0005), "minimin": (-0.0012, -0.0015)}},
    "QSAR biodegradation": {20: {"minimax": (0.063, 0.0972), "minimin": (0.0846, 0.0935)},
                            40: {"minimax": (0.0107, 0.0048), "minimin": (0.0107, 0.0048)}},
}

#: RILBoost paper, Table 7 (minimin against minimax): n -> variant -> (t, CI low, high).
RILBOOST_TTEST_STRATEGIES: dict[int, dict[str, tuple[float, float, float]]] = {
    20: {"I": (0.447, -0.017, 0.024), "II": (-2.102, -0.037, 0.003)},
    40: {"I": (0.032, -0.021, 0.021), "II": (-2.553, -0.0277, -0.001)},
}

#: RILBoost paper, text on Fig. 10 (Ionosphere, n = 20): Delta for its alpha = 0, 0.25,
#: 0.5, 0.75, 1. Its alpha = 0 value equals Table 2's Delta_I, so the paper's alpha is
#: 1 - a in SPEC's convention (a = 1 is RILBoost I); stored here by our a.
RILBOOST_MIXING_IONOSPHERE: dict[float, float] = {
    1.0: 0.0293, 0.75: 0.0011, 0.5: 0.004, 0.25: 0.004, 0.0: 0.004,
}

#: RILBoost paper, text on Fig. 13 (two-Gaussian synthetic set, RILBoost II): the claim
#: (no numbers are published).
RILBOOST_FIG13_CLAIM = (
    "RILBoost II gives higher accuracy than AdaBoost (epsilon = 0) on the two-Gaussian "
    "set when the training set is small (n = 20, 40; Fig. 13)."
)

#: The SPLBoost paper's claims about its Figs. 4 and 5 (no numbers are published).
SPLBOOST_CLAIMS = (
    "AdaBoost's test error degrades the most as the noise rate grows (Fig. 4).",
    "SPLBoost ranks first in the largest fraction of (data set, noise) cases and is in "
    "the top ranks in most cases (Fig. 5).",
)
