"""`mjlens train detector|classifier|flower_reader|index_reader|sideways|refiner ...`: the
training entry points (needs the train extra).

mjlens train classifier --minutes 35 --camerash ../shared/data/camerash-crops
mjlens train detector --data runs/det_train --minutes 60
mjlens train sideways --data .cache/bench_train .cache/bench_train2 --combine .cache/bench_train3
mjlens train refiner --data .cache/bench_train .cache/bench_train2 .cache/bench_train3
mjlens train flower_reader --minutes 45 --init runs/recovered/member0/last.pt
mjlens train index_reader --minutes 40 --init runs/recovered/member0/last.pt

Everything after the model name goes to the trainer, run as its own process (`python -m
training.train_<model>`, or `training.fit_sideways`; see `--help` there): the API never
imports the training package. Each writes its model where `vision.registry` looks for it.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys

from api.cli import CliError

MODULES = {
    "classifier": "training.train_classifier",
    "detector": "training.train_detector",
    "sideways": "training.fit_sideways",
    "refiner": "training.train_refiner",
    "flower_reader": "training.train_flower_reader",
    "index_reader": "training.train_index_reader",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("model", choices=sorted(MODULES), help="which model to train")
    parser.add_argument("rest", nargs=argparse.REMAINDER, help="options of the trainer")


def run(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("torch") is None:  # torch is only in the train extra
        raise CliError("training needs the train extra (torch missing): pip install -e .[train]")
    return subprocess.call([sys.executable, "-m", MODULES[args.model], *args.rest])
