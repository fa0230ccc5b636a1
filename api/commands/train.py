"""`mjlens train detector|classifier|flower_reader|index_reader|sideways|refiner ...`: the
training entry points (needs the train extra).

mjlens train classifier --minutes 35 --camerash ../shared/data/camerash-crops
mjlens train detector --data runs/det_train --minutes 60
mjlens train sideways --data .cache/bench_train .cache/bench_train2 --combine .cache/bench_train3
mjlens train refiner --data .cache/bench_train .cache/bench_train2 .cache/bench_train3
mjlens train flower_reader --minutes 45 --init runs/recovered/member0/last.pt
mjlens train index_reader --minutes 40 --init runs/recovered/member0/last.pt

`--progress` (before the model name) keeps the trainers' progress bars where stderr is not a
terminal. Everything after the model name goes to the trainer, run as its own process (`python -m
training.train_<model>`, or `training.fit_sideways`; see `--help` there): the API never
imports the training package. Each writes its model where `vision.registry` looks for it.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys

from api.cli import CliError
from api.fixes import missing_extra
from api.progress import add_progress_flag, wanted

MODULES = {
    "classifier": "training.train_classifier",
    "detector": "training.train_detector",
    "sideways": "training.fit_sideways",
    "refiner": "training.train_refiner",
    "flower_reader": "training.train_flower_reader",
    "index_reader": "training.train_index_reader",
}


# What the trainers import from the train extra (pyproject.toml), by import name.
TRAIN_MODULES = ("torch", "onnx", "PIL", "tqdm", "fontTools")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_progress_flag(parser)
    parser.add_argument("model", choices=sorted(MODULES), help="which model to train")
    parser.add_argument("rest", nargs=argparse.REMAINDER, help="options of the trainer")


def run(args: argparse.Namespace) -> int:
    missing = [name for name in TRAIN_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        raise CliError(missing_extra("train", missing, f"mjlens train {args.model}"))
    env = dict(os.environ)
    if not wanted(args.progress):
        # The trainers' tqdm bars redraw with carriage returns: in a log they are noise, and
        # their step lines still say how a run goes.
        env["TQDM_DISABLE"] = "1"
    return subprocess.call([sys.executable, "-m", MODULES[args.model], *args.rest], env=env)
