"""`mjlens train detector|classifier|flower_reader|index_reader|sideways|refiner ...`: the
training entry points (needs the train extra).

mjlens train classifier --minutes 35 --camerash ../shared/data/camerash-crops
mjlens train detector --data runs/det_train --minutes 60
mjlens train sideways --data .cache/bench_train .cache/bench_train2 --combine .cache/bench_train3
mjlens train refiner --data .cache/bench_train .cache/bench_train2 .cache/bench_train3
mjlens train flower_reader --minutes 45 --init runs/recovered/member0/last.pt
mjlens train index_reader --minutes 40 --init runs/recovered/member0/last.pt

Everything after the model name goes to the trainer (models/train_<model>.py, or
models/fit_sideways.py); see `--help` there.
"""

from __future__ import annotations

import argparse
import importlib

from api.cli import CliError

MODULES = {
    "classifier": "models.train_classifier",
    "detector": "models.train_detector",
    "sideways": "models.fit_sideways",
    "refiner": "models.train_refiner",
    "flower_reader": "models.train_flower_reader",
    "index_reader": "models.train_index_reader",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("model", choices=sorted(MODULES), help="which model to train")
    parser.add_argument("rest", nargs=argparse.REMAINDER, help="options of the trainer")


def run(args: argparse.Namespace) -> int:
    try:
        module = importlib.import_module(MODULES[args.model])
    except ModuleNotFoundError as exc:  # torch is only in the train extra
        raise CliError(
            f"training needs the train extra ({exc.name} missing): pip install -e .[train]"
        ) from exc
    return int(module.main(list(args.rest)))
