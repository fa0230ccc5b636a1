"""`mjlens eval`: measure the shipped detector and classifier (benchmarks/vision.py).

mjlens eval --synthetic runs/val_kde --camerash ../shared/data/camerash-crops \
    --peer-python /tmp/peer/bin/python --out runs/vision_eval.json

Run from the repository root (benchmarks/ is not part of the installed package).
"""

from __future__ import annotations

import argparse

from api.cli import CliError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("rest", nargs=argparse.REMAINDER, help="options of benchmarks/vision.py")


def run(args: argparse.Namespace) -> int:
    try:
        from benchmarks import vision
    except ModuleNotFoundError as exc:
        raise CliError("mjlens eval runs from the repository root (needs benchmarks/)") from exc
    return int(vision.main(list(args.rest)))
