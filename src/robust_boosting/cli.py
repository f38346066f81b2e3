"""The ``robust-boosting`` command-line tool."""

from __future__ import annotations

import argparse
import contextlib
import logging
import shutil
import sys
import time
import warnings
from collections.abc import Sequence

from ._cli_files import check_outputs as _check_outputs
from ._cli_files import read_csv as _read_csv

__all__ = ["main"]

def _cmd_demo(args: argparse.Namespace) -> int:
    """Flip a fraction of the training labels of a bundled set; compare AdaBoost and SPLBoost."""
    from sklearn.model_selection import train_test_split

    from . import AdaBoostClassifier, BoostingStoppedWarning, SPLBoostClassifier
    from .datasets import load_dataset
    from .noise import flip_labels

    # every option is checked, and every model fitted, before the first line is printed:
    # an error never follows a half-printed table
    if args.rounds < 1:
        raise ValueError(f"--rounds must be at least 1, got {args.rounds}")
    if not args.age > 0:
        raise ValueError(f"--age must be positive, got {args.age:g}")
    if not 0 <= args.noise < 1:
        raise ValueError(f"--noise must be in [0, 1), got {args.noise:g}")
    X, y = load_dataset(args.dataset, return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.3, stratify=y, random_state=args.seed
    )
    y_noisy, flipped = flip_labels(y_train, args.noise, random_state=args.seed)
    models = {
        "AdaBoost": AdaBoostClassifier(n_estimators=args.rounds, random_state=args.seed),
        f"SPLBoost (hard, age={args.age:g})": SPLBoostClassifier(
            n_estimators=args.rounds, age=args.age, random_state=args.seed
        ),
    }
    rows = []
    for name, model in models.items():
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", BoostingStoppedWarning)
            model.fit(X_train, y_noisy)
        seconds = time.perf_counter() - start
        error = 1.0 - model.score(X_test, y_test)
        note = "" if model.n_estimators_ == args.rounds else f" (stopped: {model.stopping_reason_})"
        rows.append(f"{name:<28}{error:>18.2%}{seconds:>9.2f}s  {model.n_estimators_}{note}")
    print(
        f"data set {args.dataset!r}: {len(y_train)} training samples "
        f"({int(flipped.sum())} labels flipped = {args.noise:.0%}), "
        f"{len(y_test)} clean test samples; {args.rounds} boosting rounds"
    )
    print(f"{'algorithm':<28}{'clean test error':>18}{'fit time':>10}  rounds")
    print("\n".join(rows))
    spl = list(models.values())[1]
    excluded = spl.excluded_samples_
    if excluded.size:
        precision = flipped[excluded].mean()
        print(
            f"SPLBoost excluded {excluded.size} training samples as suspected label errors; "
            f"{precision:.0%} of them were flipped."
        )
    return 0


# ---------------------------------------------------------------------------
# datasets
# ---------------------------------------------------------------------------
def _cmd_datasets(args: argparse.Namespace) -> int:
    """List the bundled data sets and the papers' tasks, or describe one."""
    from .datasets import TASKS, get_dataset_info, list_datasets, list_tasks, load_task

    if getattr(args, "action", None) == "describe":
        name = args.name
        if name in TASKS:
            data = load_task(name)
            print(data.DESCR)
            print(f"shape: {data.data.shape[0]} samples x {data.data.shape[1]} features; "
                  f"labels: {int((data.target == -1).sum())} x -1, "
                  f"{int((data.target == 1).sum())} x +1")
            return 0
        if name in list_datasets():
            info = get_dataset_info(name)
            for k, v in info.items():
                print(f"{k}: {v}")
            return 0
        raise ValueError(f"unknown data set or task {name!r}; see 'robust-boosting datasets list'")
    print("Bundled data sets:")
    for name in list_datasets():
        info = get_dataset_info(name)
        n, d = info.get("n_samples", "?"), info.get("n_features", "?")
        print(f"  {name:<16} {n!s:>6} samples {d!s:>4} features")
    paper = getattr(args, "paper", None)
    print("Tasks of the papers (binary, labels -1/+1)" + (f" -- {paper}" if paper else "") + ":")
    for name in list_tasks(paper):
        t = TASKS[name]
        print(f"  {name:<28} {'bundled' if t.bundled else 'download'}")
    return 0


# ---------------------------------------------------------------------------
# fit / predict on CSV files
# ---------------------------------------------------------------------------
def _plain(text: str) -> str:
    """``text`` without reST/Sphinx markup: ``:data:`NAME``` and ````code```` become ``NAME``/``code``."""
    import re

    text = re.sub(r":[a-z]+:`~?([^`]+)`", r"\1", text)
    return text.replace("``", "")


def _features(df, label=None, model=None):
    """The feature columns of ``df`` (every column but the label), as a DataFrame.

    The estimator itself reads and checks the columns (its typed schema: numeric,
    boolean and categorical columns, text in a numeric column, unknown categories,
    missing values); the command adds nothing. With ``model`` (predict), the columns
    are matched by name: they are put in the model's order (the CSV's order does not
    matter) and a missing or extra column is a one-line error from the model's schema.
    """
    X = df.drop(columns=[label]) if label is not None and label in df else df
    if X.shape[1] == 0:
        raise ValueError("the CSV file has no feature columns besides the label")
    if model is None:
        return X
    schema = getattr(model, "feature_schema_", None)
    if schema is None or getattr(model, "feature_names_in_", None) is None:
        raise ValueError("the model has no column schema (it was fitted on an array, or by an "
                         "older robust-boosting): fit it again with 'robust-boosting fit'")
    names = schema.names
    X = X[[c for c in names if c in X.columns] + [c for c in X.columns if c not in names]]
    schema.check_columns(X)
    return X


def _parse_params(items):
    import json

    params = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"--param expects NAME=VALUE, got {item!r}")
        try:
            params[key] = json.loads(value)
        except json.JSONDecodeError:
            params[key] = value
    return params


def _cmd_fit(args: argparse.Namespace) -> int:
    """Fit an algorithm on a CSV file (label column by name: class labels or a regression
    target, see --task) and save the model."""
    from . import __version__
    from ._cli_tasks import (
        check_regression_label,
        choose_task,
        fit_score_line,
        identifier_line,
        write_label_issues,
    )
    from ._model_io import save_model
    from .experiments.algorithms import get_algorithm, make_estimator, regression_algorithms

    _check_outputs({"--model": args.model, "--label-issues": args.label_issues}, [args.csv])
    df = _read_csv(args.csv)
    if args.label not in df.columns:
        raise ValueError(f"label column {args.label!r} not in {args.csv!r}; columns: "
                         f"{', '.join(map(str, df.columns))}")
    y = df[args.label].to_numpy()
    if df[args.label].isna().any():
        from ._schema import _rows

        missing = df[args.label].isna().to_numpy()
        raise ValueError(f"label column {args.label!r} has missing values in "
                         f"{_rows(df.index, missing).replace('row', 'line')}: give every "
                         f"row a label, or drop the unlabelled rows")
    task, reason = choose_task(df[args.label], args.task)
    if task == "regression":
        check_regression_label(df[args.label])
    X = _features(df, label=args.label)
    params = _parse_params(args.param)
    if args.rounds is not None:
        params["n_estimators"] = args.rounds
    if get_algorithm(args.algorithm).peer:
        raise ValueError(f"algorithm {args.algorithm!r} is another library's model, run by "
                         f"'benchmark' for comparison; 'fit' saves robust-boosting's models "
                         f"only")
    if task == "regression" and args.algorithm not in regression_algorithms():
        raise ValueError(f"algorithm {args.algorithm!r} cannot fit a regression target "
                         f"({reason}); the algorithms that can: "
                         f"{', '.join(regression_algorithms())}")
    est = make_estimator(args.algorithm, params, random_state=args.seed, task=task)
    if args.n_jobs is not None:
        est.set_params(n_jobs=args.n_jobs)
    from .regression_cv import SPLBoostRegressorCV
    from .splboost_cv import SPLBoostClassifierCV

    word = "target" if task == "regression" else "label"
    if args.label_issues is not None and not isinstance(
            est, SPLBoostRegressorCV if task == "regression" else SPLBoostClassifierCV):
        raise ValueError(f"--label-issues needs an algorithm that ranks suspect {word}s and "
                         f"suggests corrections (splboost-cv); {args.algorithm!r} does not")
    if not type(est).__module__.startswith("robust_boosting"):
        import pandas as pd

        text = [str(c) for c in X.columns if not (pd.api.types.is_numeric_dtype(X[c])
                                                  or pd.api.types.is_bool_dtype(X[c]))]
        if text:
            from ._schema import _listing

            raise ValueError(
                f"algorithm {args.algorithm!r} ({type(est).__name__}) takes numeric columns "
                f"only, but column{'s' if len(text) > 1 else ''} "
                f"{_listing(map(repr, text))} of {args.csv!r} "
                f"{'hold' if len(text) > 1 else 'holds'} text: use one of robust-boosting's "
                f"algorithms (they take categorical columns), or drop or encode "
                f"{'those columns' if len(text) > 1 else 'that column'}")
    print(f"task: {task} ({reason})", flush=True)
    start = time.perf_counter()
    with warnings.catch_warnings(), _terminal_progress(est):
        warnings.simplefilter("ignore")
        est.fit(X, y)
    seconds = time.perf_counter() - start
    save_model(est, args.model, label=args.label,
               metadata={"feature_columns": list(X.columns), "algorithm": args.algorithm,
                         "params": params, "task": task, "robust_boosting": __version__})
    args.written.append(args.model)
    print(f"fitted {args.algorithm} on {len(y)} samples x {X.shape[1]} features in "
          f"{seconds:.2f}s ({fit_score_line(est, X, y, task)}); model saved to {args.model}")
    ids = identifier_line(est)
    if ids is not None:
        print(ids)
    if hasattr(est, "label_issues_"):
        rate = (f" (labels the out-of-fold model contradicts: {est.noise_rate_:.1%})"
                if hasattr(est, "noise_rate_") else "")
        print(f"{len(est.label_issues_)} suspect {word}(s) of {len(y)}{rate}")
    if args.label_issues is not None:
        write_label_issues(est, df.index, y, args.label_issues, task, X=X)
        args.written.append(args.label_issues)
        print(f"label issues (every row, most suspect first) written to {args.label_issues}")
    return 0


class _OneLineProgress(logging.Handler):
    """The fit's progress records (:mod:`robust_boosting._progress`) drawn on one line of a
    terminal: a bar and the record's text, rewritten in place; a stage's last line (its
    time) is kept."""

    def __init__(self, stream):
        super().__init__(logging.INFO)
        self.stream = stream

    def emit(self, record: logging.LogRecord) -> None:
        try:
            fraction = getattr(record, "fraction", None)
            bar = "" if fraction is None else (
                "[" + "#" * int(20 * fraction) + "-" * (20 - int(20 * fraction)) + "] ")
            width = shutil.get_terminal_size((80, 24)).columns - 1
            end = "\n" if fraction == 1.0 else ""
            self.stream.write("\r" + (bar + record.getMessage())[:width] + "\x1b[K" + end)
            self.stream.flush()
        except Exception:  # a progress line must never fail the fit
            self.handleError(record)


@contextlib.contextmanager
def _terminal_progress(est):
    """While fitting ``est``: its progress (``verbose=1``) on stderr when stderr is a
    terminal and ``est`` has ``verbose``; nothing when stderr is piped or redirected."""
    if "verbose" not in est.get_params() or not sys.stderr.isatty():
        yield
        return
    from ._progress import LOGGER_NAME

    logger = logging.getLogger(LOGGER_NAME)
    handler = _OneLineProgress(sys.stderr)
    logger.addHandler(handler)
    old_verbose = est.verbose
    est.set_params(verbose=max(1, old_verbose))
    try:
        yield
    except BaseException:
        sys.stderr.write("\n")
        raise
    finally:
        logger.removeHandler(handler)
        est.set_params(verbose=old_verbose)


def _predict_label(args: argparse.Namespace, bundle: dict) -> str | None:
    """The CSV column that ``predict`` takes for the label: left out of the features, and
    the predictions' error against it is reported.

    The rule: ``--label`` if given; else the label name the model file stores (written by
    ``fit``, or by ``save_model(..., label=NAME)``); else ``"label"``. A name that is one
    of the model's feature columns is never the label: ``--label`` naming one is an error,
    and the stored name or ``"label"`` then stays a feature
    (``docs/design/0023-predict-label-column.md``).
    """
    features = {str(c) for c in bundle.get("feature_columns") or []}
    model_names = getattr(bundle["model"], "feature_names_in_", None)
    features |= {str(c) for c in ([] if model_names is None else model_names)}
    if args.label is not None:
        if args.label in features:
            raise ValueError(f"--label {args.label!r} is one of the model's feature columns; "
                             f"name the column that holds the labels")
        return args.label
    for name in (bundle["label"], "label"):
        if name is not None and name not in features:
            return name
    return None


def _cmd_predict(args: argparse.Namespace) -> int:
    """Predict the labels of a CSV file with a model saved by 'fit' or by
    robust_boosting.save_model."""
    import pandas as pd

    from ._model_io import load_bundle

    _check_outputs({"--output": args.output}, [args.csv, args.model])
    bundle = load_bundle(args.model, trust_pickle=args.trust_pickle)
    df = _read_csv(args.csv)
    label = _predict_label(args, bundle)
    model = bundle["model"]
    schema = getattr(model, "feature_schema_", None)
    if schema is not None:  # the command's policy for categories no training row had
        model.set_params(unknown_categories=args.unknown_categories)
    try:
        X = _features(df, label=label, model=model)
    except ValueError as exc:
        if "not seen at fit" not in str(exc) or args.label is not None:
            raise
        stored = bundle["label"]
        named = "none" if stored is None else repr(stored)
        raise ValueError(f"{exc} If one of them holds the labels, name it with --label (the "
                         f"label column the model file names: {named})") from None
    pred = model.predict(X)
    out = pd.DataFrame({args.column: pred})
    if args.output == "-":
        out.to_csv(sys.stdout, index=False)
    else:
        out.to_csv(args.output, index=False)
        print(f"wrote {len(pred)} predictions to {args.output}", file=sys.stderr)
    if label is not None and label in df.columns:
        from sklearn.base import is_regressor

        if is_regressor(model):
            from ._cli_tasks import regression_score_line

            print(regression_score_line(pred, df[label]), file=sys.stderr)
        else:
            err = float((pred != df[label].to_numpy()).mean())
            print(f"error against the {label!r} column: {err:.2%}", file=sys.stderr)
    return 0


# ---------------------------------------------------------------------------
# benchmark / report
# ---------------------------------------------------------------------------
def _split_list(text):
    return [p.strip() for p in str(text).split(",") if p.strip()] if text else None


def _cmd_benchmark(args: argparse.Namespace) -> int:
    """Run a preset or a configuration file, store the results, write the report."""
    import shlex
    from pathlib import Path

    from .experiments import ResultStore, get_preset, list_presets, load_config, run_tasks
    from .experiments.algorithms import parse_grid
    from .experiments.report import write_report
    from .experiments.runner import check_tasks

    if args.target in list_presets():
        cfg = get_preset(
            args.target, repetitions=args.repetitions, datasets=_split_list(args.datasets),
            rates=parse_grid(args.rates) if args.rates else None, rounds=args.rounds,
            algorithms=_split_list(args.algorithms),
            age_grid=parse_grid(args.lambda_grid) if args.lambda_grid else None,
            epsilon_grid=parse_grid(args.epsilon_grid) if args.epsilon_grid else None,
            n_train=[int(v) for v in parse_grid(args.n_train)] if args.n_train else None,
            seed=args.seed, weak_learner=args.weak_learner)
    elif Path(args.target).suffix.lower() in (".toml", ".json", ".yaml", ".yml"):
        cfg = load_config(args.target)
        if args.repetitions:
            cfg.repetitions = args.repetitions
    else:
        raise ValueError(f"{args.target!r} is neither a preset ({', '.join(list_presets())}) "
                         "nor a .toml/.json/.yaml configuration file")
    tasks = cfg.tasks()
    check_tasks(tasks)
    if not (args.no_report or args.dry_run):  # before the run, not after it
        from ._extras import require_matplotlib

        require_matplotlib("the report of robust-boosting benchmark", "pass --no-report")
    out_dir = Path(args.out or Path("results") / cfg.name)
    results = Path(args.results or out_dir / "results.sqlite")
    if args.dry_run:
        print(f"{cfg.name}: {len(tasks)} tasks; results -> {results}")
        for t in tasks[: args.show]:
            print(f"  {t.task_id}  {t.describe()}")
        return 0
    client = None
    if args.dask_scheduler or args.dask_local:
        from .experiments.runner import dask_client

        client = dask_client(args.dask_scheduler, args.dask_local)
    store = ResultStore(results)
    interrupted = False
    try:
        store.add_run(cfg.name, cfg.to_dict(), len(tasks))
        done = len(store.done_ids() & {t.task_id for t in tasks})
        from joblib import effective_n_jobs

        where = (f"Dask cluster {client.scheduler.address}" if client is not None
                 else f"{effective_n_jobs(args.n_jobs)} joblib worker(s)")
        print(f"{cfg.name}: {len(tasks)} tasks ({done} already done) on {where}; "
              f"results in {results}", file=sys.stderr)
        summary = run_tasks(tasks, store, n_jobs=args.n_jobs, client=client,
                            progress=False if args.quiet else None)
        print(f"computed {summary.finished} task(s) here in {summary.seconds:.1f}s, "
              f"{summary.skipped} skipped (already done), {summary.by_other} done or "
              f"in progress in another run, {summary.failed} failed", file=sys.stderr)
        for line in summary.errors[:10]:
            print(f"  failed: {line}", file=sys.stderr)
        if not args.no_report:
            command = "robust-boosting " + " ".join(shlex.quote(a) for a in args.argv)
            path = write_report(store, out_dir, title=f"{cfg.name}: {cfg.description}",
                                command=command)
            print(f"report written to {path}")
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        if client is None:
            # the joblib workers keep the store open; ending them lets close() fold the
            # write-ahead log back into the file (no -wal/-shm files left beside it). They
            # ignore Ctrl-C, so an interrupted run ends them rather than wait for their tasks
            from joblib.externals.loky import get_reusable_executor

            get_reusable_executor().shutdown(wait=True, kill_workers=interrupted)
        store.close()
        if client is not None:
            cluster = getattr(client, "cluster", None)
            client.close()
            if cluster is not None:
                cluster.close()
    return 1 if summary.failed else 0


def _cmd_report(args: argparse.Namespace) -> int:
    """Write the Markdown + PNG report of a results database."""
    from pathlib import Path

    from ._extras import require_matplotlib
    from .experiments.report import write_report

    require_matplotlib("robust-boosting report")
    command = args.command_text or " ".join(
        ["robust-boosting report", *(["--claims"] if args.claims else []), str(args.results),
         *([f"--out {args.out}"] if args.out else [])])
    if args.claims:  # RESULTS is a directory of stores: write its claims.md
        from .experiments.claims import write_claims

        path = write_claims(args.results, args.out and Path(args.out) / "claims.md",
                            command=command)
        print(f"claims written to {path}")
        return 0
    out = Path(args.out or Path(args.results).parent)
    path = write_report(args.results, out, title=args.title, command=command,
                        name=args.name, note=args.note)
    print(f"report written to {path}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``robust-boosting`` command."""
    from . import __version__

    parser = argparse.ArgumentParser(
        prog="robust-boosting",
        description="Boosting that stays accurate when training labels or regression targets "
                    "are wrong.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    demo = sub.add_parser(
        "demo",
        help="flip training labels of a bundled data set and compare AdaBoost with SPLBoost",
        description=_cmd_demo.__doc__ + " It takes about 3 s on 2 cores.",
    )
    demo.add_argument("--dataset", default="wdbc", help="bundled data set (default: wdbc)")
    demo.add_argument("--noise", type=float, default=0.2,
                      help="fraction of training labels to flip (default: 0.2)")
    demo.add_argument("--rounds", type=int, default=200, help="boosting rounds (default: 200)")
    demo.add_argument("--age", type=float, default=2.0, help="SPLBoost's age (default: 2.0)")
    demo.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    demo.set_defaults(func=_cmd_demo)

    ds = sub.add_parser("datasets", help="list the bundled data sets and tasks, or describe one",
                        description=_cmd_datasets.__doc__)
    ds_sub = ds.add_subparsers(dest="action", metavar="ACTION")
    ds_list = ds_sub.add_parser("list", help="list data sets and the papers' tasks")
    ds_list.add_argument("--paper", choices=["splboost", "savageboost", "rilboost"],
                         help="only this paper's tasks")
    ds_desc = ds_sub.add_parser("describe", help="describe one data set or task")
    ds_desc.add_argument("name", help="data set or task name")
    ds.set_defaults(func=_cmd_datasets)

    from ._cli_tasks import MAX_CLASSES
    from .experiments.algorithms import ALGORITHMS, regression_algorithms

    fittable = ", ".join(n for n, spec in ALGORITHMS.items() if not spec.peer)  # 'fit' saves ours

    fit = sub.add_parser("fit", help="fit an algorithm on a CSV file and save the model",
                         description=_cmd_fit.__doc__ + " Text columns are categorical (the "
                         "histogram trees split them into sets of categories); a column of "
                         "numbers with a text cell (e.g. '?') is an error naming the line; empty "
                         "cells are missing values. Algorithms: " + fittable + ".")
    fit.add_argument("csv", help="CSV file with a header row")
    fit.add_argument("--label", required=True, help="name of the label column")
    fit.add_argument("--task", choices=["auto", "classification", "regression"],
                     default="auto",
                     help="what the label is (default: auto): 'auto' takes it for a regression "
                     "target when its column is numeric (not boolean) and holds a non-integer "
                     f"value or more than {MAX_CLASSES} distinct values, else for class labels; "
                     "fit prints the task it chose and why")
    fit.add_argument("--algorithm", default="splboost-cv",
                     help="registry name (default: splboost-cv, the task's robust default: "
                     "SPLBoostClassifierCV for class labels, SPLBoostRegressorCV for a "
                     "regression target; tree depth and rounds cross-validated, suspects "
                     "left out); one of: " + fittable + "; for a regression target: "
                     + ", ".join(regression_algorithms()))
    fit.add_argument("--label-issues", metavar="FILE",
                     help="write a CSV of every training row, most suspect first: its "
                     "line in the CSV file (its physical line, the first being 1: blank lines and "
                     "line breaks inside quoted fields count), then for class labels the given "
                     "label, the suggested label (the class the out-of-fold model prefers) and "
                     "the score (1 - out-of-fold probability of the given label), for a "
                     "regression target the given target, the suggested target (the "
                     "out-of-fold prediction) and the score (the out-of-fold residual in "
                     "robust standard deviations), and whether it is a suspect "
                     "(splboost-cv only)")
    fit.add_argument("--param", action="append", metavar="NAME=VALUE",
                     help="estimator parameter (JSON value), repeatable, e.g. --param age=2.5")
    fit.add_argument("--rounds", type=int, help="number of boosting rounds, n_estimators (default: the "
                     "algorithm's own)")
    fit.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    fit.add_argument("--n-jobs", type=int, default=None, metavar="N",
                     help="threads of the tree kernels (-1: every core; default: chosen from "
                     "the data's size, one per 500,000 rows x columns); the model does not "
                     "depend on it")
    fit.add_argument("--model", required=True, help="file to save the model to, in skops format (e.g. model.skops); "
                     "it loads without running code, unlike a pickle")
    fit.set_defaults(func=_cmd_fit)

    pred = sub.add_parser("predict", help="predict a CSV file with a saved model",
                          description=_cmd_predict.__doc__)
    pred.add_argument("csv", help="CSV file with the model's feature columns, in any order, "
                      "and optionally the label column (see --label); a category not seen "
                      "at fit follows --unknown-categories")
    pred.add_argument("--label", metavar="NAME",
                      help="the label column, left out of the features; the error of the "
                      "predictions against it is reported (the error rate of a classifier, "
                      "the RMSE and MAE of a regressor). Default: the label column the "
                      "model file names (fit, or save_model(..., label=NAME), stores it), "
                      "else 'label'; a feature column of the model is never taken as the "
                      "label")
    pred.add_argument("--model", required=True,
                      help="model file written by 'fit' or save_model (skops format, loaded with only "
                      "robust-boosting's own types trusted)")
    pred.add_argument("--trust-pickle", action="store_true",
                      help="also accept a pickle/joblib model file; loading a pickle can run "
                      "arbitrary code, so only use this for files you trust")
    pred.add_argument("--output", default="-", help="output CSV file, or - for stdout (default: -, "
                      "stdout)")
    pred.add_argument("--unknown-categories", choices=["missing", "error"], default="missing",
                      help="a text value that no training row had in its column: 'missing' "
                      "treats it as a missing value (the trees send it the way they learned "
                      "for missing values), 'error' stops with an error naming the lines "
                      "(default: missing)")
    pred.add_argument("--column", default="prediction", help="name of the prediction column "
                      "(default: prediction)")
    pred.set_defaults(func=_cmd_predict)

    from .experiments.config import yaml_available
    from .experiments.presets import PRESETS

    yaml_note = ("YAML files are read because PyYAML is installed" if yaml_available() else
                 "YAML files need PyYAML, which is not installed")
    bench = sub.add_parser(
        "benchmark", help="run a preset or a configuration file of experiments",
        description=_cmd_benchmark.__doc__ + " Presets: " + "; ".join(
            f"{k}: {_plain(' '.join((v.__doc__ or '').split(chr(10) * 2)[0].split())).rstrip('.')}"
            for k, v in PRESETS.items())
        + f". Config files: TOML or JSON; {yaml_note}. A killed run "
        "resumes: finished tasks are skipped.")
    bench.add_argument("target", metavar="PRESET_OR_CONFIG",
                       help=f"one of {', '.join(PRESETS)}, or a .toml/.json/.yaml file")
    bench.add_argument("--results", help="SQLite results file (default: OUT/results.sqlite)")
    bench.add_argument("--out", help="report directory (default: results/<name>)")
    bench.add_argument("--n-jobs", type=int, default=-1,
                       help="joblib workers (default: -1 = all cores)")
    dask = bench.add_mutually_exclusive_group()
    dask.add_argument("--dask-scheduler", metavar="ADDRESS",
                      help="run on this dask.distributed scheduler (needs the 'dask' extra)")
    dask.add_argument("--dask-local", type=int, metavar="N",
                      help="run on a new local Dask cluster of N workers")
    bench.add_argument("--repetitions", type=int, help="repetitions (random splits; default: "
                       "the preset's or the file's)")
    bench.add_argument("--datasets", help="comma-separated data sets / tasks (presets; "
                       "default: the preset's)")
    bench.add_argument("--rates", help="noise rates: '0,0.1,0.2' or 'start:stop:step' "
                       "(presets; default: the preset's)")
    bench.add_argument("--rounds", type=int, help="maximum boosting rounds (presets; default: "
                       "the preset's)")
    bench.add_argument("--algorithms", help="comma-separated registry names (presets; "
                       "default: the preset's)")
    bench.add_argument("--lambda-grid", help="SPLBoost's age grid, e.g. '1:6:0.5' or '1.5,2,3'")
    bench.add_argument("--epsilon-grid", help="RILBoost's epsilon grid, e.g. '0:0.5:0.1'")
    bench.add_argument("--n-train", help="RILBoost's training-set sizes, e.g. '20,40'")
    bench.add_argument("--weak-learner", help="weak learner of the boosting algorithms (presets "
                       "splboost-uci): stump, tree-D, hist-stump, hist-D")
    bench.add_argument("--seed", type=int, default=0, help="base seed (default: 0)")
    bench.add_argument("--no-report", action="store_true", help="do not write the report")
    bench.add_argument("--dry-run", action="store_true", help="check the data-set names, algorithm "
                       "names and parameters, list the tasks and exit")
    bench.add_argument("--show", type=int, default=10, help="tasks listed by --dry-run (default: 10)")
    bench.add_argument("--quiet", action="store_true", help="no progress output")
    bench.set_defaults(func=_cmd_benchmark)

    rep = sub.add_parser("report", help="write the Markdown + PNG report of a results file",
                         description=_cmd_report.__doc__)
    rep.add_argument("results", help="SQLite results file written by 'benchmark' (with "
                     "--claims: a directory of <name>/results.sqlite stores)")
    rep.add_argument("--claims", action="store_true",
                     help="write RESULTS/claims.md: the papers' claims against every store")
    rep.add_argument("--note", help="a paragraph placed under the title")
    rep.add_argument("--out", help="output directory (default: the results file's directory)")
    rep.add_argument("--name", default="report", help="Markdown file stem (default: report)")
    rep.add_argument("--title", help="report title")
    rep.add_argument("--command", dest="command_text",
                     help="the command that produced the results, quoted in the report")
    rep.set_defaults(func=_cmd_report)

    from ._cli_results import add_parser as add_results_parser

    add_results_parser(sub)

    try:
        from .plotting._cli import add_parser as add_plot_parser
    except ImportError as exc:  # no matplotlib: the command says which extra to install
        if exc.name != "matplotlib":
            raise
        from ._extras import PLOT_EXTRA

        plot = sub.add_parser("plot", help="the papers' figures (needs the 'plot' extra)",
                              description=f"Draw the papers' figures: needs matplotlib, "
                              f"which is not installed ({PLOT_EXTRA}).")
        plot.add_argument("figure", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
        plot.set_defaults(func=_cmd_plot_without_matplotlib)
    else:
        add_plot_parser(sub)
    return parser


def _cmd_plot_without_matplotlib(args: argparse.Namespace) -> int:
    """``plot`` when matplotlib is missing: an error naming the extra to install."""
    from ._extras import require_matplotlib

    require_matplotlib("robust-boosting plot")
    raise ImportError("robust_boosting.plotting cannot be imported")  # matplotlib is there


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``robust-boosting`` command."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv == ["--version"]:  # before the parser, whose choices import the algorithms
        from . import __version__

        print(f"robust-boosting {__version__}")
        return 0
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = argv
    args.written = []  # the files a command has written (fit: after the whole fit)
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
        return code
    except BrokenPipeError:
        # the reader of a pipe quit (e.g. '| head'): stop quietly, as the Python docs
        # advise (library/signal.html, "Note on SIGPIPE"); stdout goes to devnull so that
        # the interpreter's final flush does not fail again
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        hint = ("; finished tasks are stored, run the same command again to resume"
                if args.command == "benchmark" else "")
        if args.command == "fit":  # each file is written whole or not at all
            hint = ("; nothing written" if not args.written
                    else f"; only {', '.join(args.written)} written")
        print(f"robust-boosting {args.command}: interrupted{hint}", file=sys.stderr)
        return 130
    except (KeyError, ValueError, TypeError, OSError, ImportError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        from ._schema import CAST_HINT

        # a CSV user cannot set a dtype: in a CSV file a column is categorical when none
        # of its cells is a number
        message = str(message).replace(
            CAST_HINT, ", or, if the column is categorical, make sure none of its cells is "
                       "a number (e.g. write 'n1' for 1)")
        print(f"robust-boosting {args.command}: error: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
