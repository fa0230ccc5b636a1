"""`mjlens eval`: measure the shipped detector and classifier (benchmarks/vision.py).

mjlens eval --synthetic runs/val_kde --camerash ../shared/data/camerash-crops \
    --peer-python /tmp/peer/bin/python --out runs/vision_eval.json

Run from the repository root: benchmarks/ is not part of the installed package. The
benchmark runs as its own process (`python -m benchmarks.vision`), so that nothing installed
imports the benchmarks, which may import anything.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from api.cli import CliError

BENCHMARK = "benchmarks.vision"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("rest", nargs=argparse.REMAINDER, help="options of benchmarks/vision.py")


def run(args: argparse.Namespace) -> int:
    if not Path("benchmarks", "vision.py").is_file():
        raise CliError("mjlens eval runs from the repository root (needs benchmarks/)")
    return subprocess.call([sys.executable, "-m", BENCHMARK, *args.rest])
