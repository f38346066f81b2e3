"""The ``robust-boosting`` command-line tool."""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections.abc import Sequence

__all__ = ["main"]


def _cmd_demo(args: argparse.Namespace) -> int:
    """Flip a fraction of the training labels of a bundled set; compare AdaBoost and SPLBoost."""
    from sklearn.model_selection import train_test_split

    from . import AdaBoostClassifier, BoostingStoppedWarning, SPLBoostClassifier
    from .datasets import load_dataset
    from .noise import flip_labels

    X, y = load_dataset(args.dataset, return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.3, stratify=y, random_state=args.seed
    )
    y_noisy, flipped = flip_labels(y_train, args.noise, random_state=args.seed)
    print(
        f"data set {args.dataset!r}: {len(y_train)} training samples "
        f"({int(flipped.sum())} labels flipped = {args.noise:.0%}), "
        f"{len(y_test)} clean test samples; {args.rounds} boosting rounds"
    )
    models = {
        "AdaBoost": AdaBoostClassifier(n_estimators=args.rounds, random_state=args.seed),
        f"SPLBoost (hard, age={args.age:g})": SPLBoostClassifier(
            n_estimators=args.rounds, age=args.age, random_state=args.seed
        ),
    }
    print(f"{'algorithm':<28}{'clean test error':>18}{'fit time':>10}  rounds")
    for name, model in models.items():
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", BoostingStoppedWarning)
            model.fit(X_train, y_noisy)
        seconds = time.perf_counter() - start
        error = 1.0 - model.score(X_test, y_test)
        note = "" if model.n_estimators_ == args.rounds else f" (stopped: {model.stopping_reason_})"
        print(f"{name:<28}{error:>18.2%}{seconds:>9.2f}s  {model.n_estimators_}{note}")
    spl = list(models.values())[1]
    excluded = spl.excluded_samples_
    if excluded.size:
        precision = flipped[excluded].mean()
        print(
            f"SPLBoost excluded {excluded.size} training samples as suspected label errors; "
            f"{precision:.0%} of them were flipped."
        )
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``robust-boosting`` command."""
    from . import __version__

    parser = argparse.ArgumentParser(
        prog="robust-boosting",
        description="Boosting classifiers that stay accurate when training labels are wrong.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    demo = sub.add_parser(
        "demo",
        help="flip training labels of a bundled data set and compare AdaBoost with SPLBoost",
        description=_cmd_demo.__doc__,
    )
    demo.add_argument("--dataset", default="wdbc", help="bundled data set (default: wdbc)")
    demo.add_argument("--noise", type=float, default=0.2,
                      help="fraction of training labels to flip (default: 0.2)")
    demo.add_argument("--rounds", type=int, default=200, help="boosting rounds (default: 200)")
    demo.add_argument("--age", type=float, default=2.0, help="SPLBoost's age (default: 2.0)")
    demo.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    demo.set_defaults(func=_cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``robust-boosting`` command."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (KeyError, ValueError, TypeError, OSError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"robust-boosting {args.command}: error: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
