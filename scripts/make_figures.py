"""Regenerate the papers' figures in docs/figures/ and docs/figures/README.md.

Usage (from the repository root)::

    python scripts/make_figures.py                 # every figure
    python scripts/make_figures.py --only fig3     # figures whose file name contains "fig3"
    python scripts/make_figures.py --list          # print the commands only

Each figure is one ``robust-boosting plot ...`` command line; this script parses
and runs exactly those command lines (through the same ``add_parser`` the
``robust-boosting`` command uses), so the README it writes lists the command
that made each image. Figures whose estimators are not in the library yet
(e.g. RILBoost before it lands) are skipped and marked as such in the README.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "figures"
REL = OUT.relative_to(ROOT).as_posix()

#: RILBoost study size used for every RILBoost figure (stated in the README).
DRAWS = 10


@dataclass(frozen=True)
class Spec:
    file: str
    paper: str
    caption: str
    args: str  # everything after "robust-boosting plot", without --out


FIGURES: list[Spec] = [
    Spec("splboost_fig1_sample_weights.png", "SPLBoost Fig. 1 (a), (b)",
         "Sample weight against the margin: (a) AdaBoost, LogitBoost, SavageBoost, RBoost "
         "and SPLBoost (linear weighting, λ = 2..6); (b) SPLBoost at λ = 3 with the hard, "
         "linear and polynomial (t = 4, t = 1.3) SP-regularizers.",
         "weights --ages 2,3,4,5,6 --regularizer linear --panel-b-age 3"),
    Spec("splboost_fig2_losses.png", "SPLBoost Fig. 2 (a), (b)",
         "Losses against the margin: (a) exponential, logistic, Savage, Savage2, 0-1 and the "
         "latent SPLBoost loss F_λ(exp(−m)) (linear, λ = 2..6); (b) the latent loss at λ = 3 "
         "for the four SP-regularizers. Every latent loss is flat beyond m = −log λ.",
         "losses --ages 2,3,4,5,6 --regularizer linear --panel-b-age 3"),
    Spec("splboost_fig3_synthetic_weights.png", "SPLBoost Fig. 3",
         "SPEC §8A synthetic set (100 per class, 15 % of each class flipped), the Bayes "
         "boundary, and the final sample weights of AdaBoost, LogitBoost, SavageBoost, RBoost, "
         "RobustBoost (those in the library when the figure was made) and SPLBoost (marker area) after T = 200 "
         "rounds of decision stumps; blue squares / red circles are flipped "
         "labels, black circles SPLBoost's excluded samples (v = 0); hard weighting, "
         "λ = 1.5, 2.0, 2.5.",
         "synthetic --n-per-class 100 --noise 0.15 --rounds 200 --ages 1.5,2,2.5 "
         "--regularizer hard --seed 0"),
    Spec("splboost_fig8_error_per_round.png", "SPLBoost Fig. 8 (journal version)",
         "Training error (noisy labels) and test error (clean labels) per round for AdaBoost "
         "and SPLBoost (hard) at λ = 1.5, 2, 3, 5 on twonorm (3000-sample stratified subset, "
         "70/30 split, 20 % of the training labels flipped, decision stumps). The paper's "
         "Dogs-vs-Cats features are not available offline.",
         "error-per-round --dataset splboost-twonorm --max-samples 3000 --noise 0.2 "
         "--rounds 300 --ages 1.5,2,3,5 --seed 0"),
    Spec("splboost_fig9_latent_objective.png", "SPLBoost Fig. 9 (journal version)",
         "SPLBoost's latent objective Σ s_i F_λ(exp(−y_i F(x_i))) per round, same setting as "
         "Fig. 8: non-increasing after the three warm-start rounds (Theorem 1).",
         "latent-objective --dataset splboost-twonorm --max-samples 3000 --noise 0.2 "
         "--rounds 300 --ages 1.5,2,3,5 --seed 0"),
    Spec("splboost_fig10_error_vs_age.png", "SPLBoost Fig. 10 (journal version)",
         "Test error of SPLBoost (hard, T = 300) against λ ∈ [1, 20] (step 0.5), same data "
         "as Fig. 8, with AdaBoost's test error for reference: too small a λ drops too "
         "many samples, a large λ turns SPLBoost into AdaBoost.",
         "error-vs-age --dataset splboost-twonorm --max-samples 3000 --noise 0.2 "
         "--rounds 300 --ages 1:20:0.5 --seed 0 --n-jobs 2"),
    Spec("rilboost_fig4_accuracy_vs_epsilon.png", "RILBoost Fig. 4",
         f"RILBoost I (left) and II (right): mean test accuracy against ε for n = 20 and 40 "
         f"training examples (n/2 per class, the rest for testing), T = 10, over {DRAWS} "
         f"random draws, on the bundled sets of its Fig. 4 (Haberman, Pima, Mammographic). "
         f"ε = 0 is AdaBoost with the same SVMs.",
         f"rilboost-epsilon --dataset rilboost-haberman,rilboost-pima,rilboost-mammographic "
         f"--n-train 20,40 --epsilons 0:0.5:0.1 --draws {DRAWS} --rounds 10 --seed 0 "
         f"--n-jobs 2"),
    Spec("rilboost_figs5-9_accuracy_vs_epsilon.png", "RILBoost Figs. 5-9",
         f"As Fig. 4 for the other bundled sets of its Figs. 5-9 (BCWO = wisconsin, Ecoli, "
         f"Ionosphere, Wine), {DRAWS} draws.",
         f"rilboost-epsilon --dataset rilboost-wisconsin,rilboost-ecoli,rilboost-ionosphere,"
         f"rilboost-wine --n-train 20,40 --epsilons 0:0.5:0.1 --draws {DRAWS} --rounds 10 "
         f"--seed 0 --n-jobs 2"),
    Spec("rilboost_fig10_accuracy_vs_mixing.png", "RILBoost Fig. 10",
         f"RILBoost with mixing parameter a = 0 (II), 0.25, 0.5, 0.75, 1 (I): mean accuracy "
         f"against ε on Ionosphere, n = 20, T = 10, {DRAWS} draws.",
         f"rilboost-mixing --dataset rilboost-ionosphere --n-train 20 "
         f"--mixings 0,0.25,0.5,0.75,1 --epsilons 0:0.5:0.1 --draws {DRAWS} --rounds 10 "
         f"--seed 0 --n-jobs 2"),
    Spec("rilboost_fig11_accuracy_vs_epsilon_by_n.png", "RILBoost Fig. 11",
         f"Ionosphere: accuracy against ε for n = 20, 40, 80, 120, 160, {DRAWS} draws; "
         f"the effect of ε shrinks as n grows.",
         f"rilboost-epsilon --dataset rilboost-ionosphere --n-train 20,40,80,120,160 "
         f"--epsilons 0:0.5:0.1 --draws {DRAWS} --rounds 10 --seed 0 --n-jobs 2"),
    Spec("rilboost_fig13_synthetic.png", "RILBoost Fig. 13",
         f"Its synthetic set (means (2, 2) and (3, 3), standard deviation 3, 100 per class): "
         f"accuracy against ε for n = 20 and 40, {DRAWS} draws.",
         f"rilboost-epsilon --dataset rilboost-gaussian --n-train 20,40 "
         f"--epsilons 0:0.5:0.1 --draws {DRAWS} --rounds 10 --seed 0 --n-jobs 2"),
]


def command(spec: Spec) -> str:
    return f"robust-boosting plot {spec.args} --out {REL}/{spec.file}"


def _parser() -> argparse.ArgumentParser:
    from robust_boosting.plotting._cli import add_parser

    parser = argparse.ArgumentParser(prog="robust-boosting")
    add_parser(parser.add_subparsers(dest="command"))
    return parser


def _rilboost_available() -> bool:
    try:
        from robust_boosting.rilboost import RILBoostClassifier  # noqa: F401
    except ImportError:
        return False
    return True


def write_readme(status: dict[str, str]) -> None:
    lines = [
        "# Figures of the papers",
        "",
        "Generated by `python scripts/make_figures.py` (on 2 cores: about 2 minutes for the",
        "SPLBoost figures, 4 for the RILBoost ones). It runs exactly the commands below, each",
        "of which can also be",
        "run on its own, or through the script: `python scripts/make_figures.py --only fig3`.",
        "Figure functions: `robust_boosting.plotting`; command help:",
        "`robust-boosting plot <figure> --help`.",
        f"The RILBoost curves average {DRAWS} random training sets per point (the paper: "
        "\"many times\") on the grid ε = 0, 0.1, ..., 0.5, with the library's default SVM "
        "(RBF, C = 1, gamma = \"scale\"); features are standardised on each training part, "
        "so the curves are noisier than the paper's.",
        "",
    ]
    for spec in FIGURES:
        lines += [f"## {spec.paper}: `{spec.file}`", ""]
        if status.get(spec.file) == "made" or (OUT / spec.file).exists():
            lines += [f"![{spec.paper}]({spec.file})", ""]
        else:
            lines += [f"*Not generated yet: {status.get(spec.file, 'not run')}.*", ""]
        lines += [spec.caption, "", "```", command(spec), "```", ""]
    (OUT / "README.md").write_text("\n".join(lines), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default=None, help="only figures whose file name contains this")
    ap.add_argument("--list", action="store_true", help="print the commands and exit")
    opts = ap.parse_args(argv)
    specs = [s for s in FIGURES if opts.only is None or opts.only in s.file]
    if opts.list:
        for spec in specs:
            print(command(spec))
        return 0
    os.chdir(ROOT)  # the commands write to docs/figures/ relative to the root
    OUT.mkdir(parents=True, exist_ok=True)
    parser = _parser()
    has_ril = _rilboost_available()
    status: dict[str, str] = {}
    for spec in specs:
        if spec.file.startswith("rilboost") and not has_ril:
            status[spec.file] = "robust_boosting.rilboost.RILBoostClassifier is not available"
            print(f"skip {spec.file}: {status[spec.file]}")
            continue
        cmd = command(spec)
        print(f"$ {cmd}", flush=True)
        args = parser.parse_args(shlex.split(cmd)[1:])
        start = time.perf_counter()
        code = args.func(args)
        print(f"  ({time.perf_counter() - start:.0f} s)", flush=True)
        if code:
            return code
        status[spec.file] = "made"
    write_readme(status)
    print(f"wrote {REL}/README.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
