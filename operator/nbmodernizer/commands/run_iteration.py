"""`nbmod run-iteration`: what a Job's pod runs (`nbmodernizer.runner`, whose docstring tells
the flags); here they are read into `RunnerOptions`."""

from __future__ import annotations

import argparse
from dataclasses import fields

from nbmodernizer.grade import DEFAULT_MAX_SUBMISSION_BYTES
from nbmodernizer.runner import INDEX_VARIABLE, RunnerOptions, run_iteration


def options_of(args: argparse.Namespace) -> RunnerOptions:
    given = {field.name: getattr(args, field.name) for field in fields(RunnerOptions)}
    given["argv"] = tuple(given["argv"] or ())
    return RunnerOptions(**given)


def _run(args: argparse.Namespace) -> int:
    return run_iteration(options_of(args))


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("run-iteration", help="execute one stored revision (in a Job)")
    parser.add_argument("--revision", required=True, help="the revision's folder URI")
    parser.add_argument("--inputs", help="s3:// prefix to download into --input-dir")
    parser.add_argument("--input-dir", default="/kaggle/input")
    parser.add_argument("--working-dir", default="/kaggle/working")
    parser.add_argument("--timeout-seconds", type=float, required=True)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--submission", default="submission.csv")
    parser.add_argument("--grants", help="the Job's grants file: pre-signed URLs, no keys")
    parser.add_argument(
        "--run-index",
        help=f"this pod's run of the revision (default: ${INDEX_VARIABLE}, an Indexed Job's)",
    )
    parser.add_argument(
        "--max-submission-bytes",
        type=int,
        default=DEFAULT_MAX_SUBMISSION_BYTES,
        help="a larger submission is not uploaded (a line saying so is)",
    )
    parser.add_argument(
        "--stage",
        choices=("all", "fetch", "execute"),
        default="all",
        help="the pod split's part (default: all of it in one process)",
    )
    parser.add_argument("--notebook-dir", help="where `fetch` puts the notebook for `execute`")
    parser.add_argument("--kernel-dir", help="the folder `execute` and kernelhost.py share")
    parser.add_argument(
        "--tools-dir", help="where `fetch` puts kernelhost.py, envprobe.py, request"
    )
    parser.add_argument("--facts-dir", help="where `execute` finds the probe's environment.json")
    parser.set_defaults(handler=_run, argv=None)
