"""Throughput of the synthetic photo engine: images per second at 1280 px, rendered and written
as `mjlens synth` does (JPEG + COCO), with one process and with two.

    python benchmarks/synth.py [--n 40] [--size 1280] [--sources procedural]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere in the checkout
from datasets.synth import generate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=40)
    parser.add_argument("--size", type=int, default=1280)
    parser.add_argument("--sources", default="procedural")
    parser.add_argument("--kinds", default="declared_win,rows,scattered,pile")
    parser.add_argument("--workers", default="1,2", help="comma-separated process counts")
    args = parser.parse_args()
    sources, kinds = args.sources.split(","), args.kinds.split(",")
    for workers in (int(w) for w in args.workers.split(",")):
        with tempfile.TemporaryDirectory() as out:
            generate(2, out, seed=999, sources=sources, kinds=kinds, size=args.size)  # warm-up
            cpu0 = _cpu_seconds()
            start = time.perf_counter()
            generate(
                args.n, out, seed=1, sources=sources, kinds=kinds, size=args.size, workers=workers
            )
            took = time.perf_counter() - start
            cpu = _cpu_seconds() - cpu0
        print(
            f"{args.n} images at {args.size} px, {workers} process(es): "
            f"{args.n / took:.2f} images/s wall ({took / args.n * 1000:.0f} ms per image), "
            f"{cpu / args.n * 1000:.0f} CPU-ms per image, load average {os.getloadavg()[0]:.1f}"
        )


def _cpu_seconds() -> float:
    """User + system time of this process and its finished children (the pool's workers).

    On a shared machine the wall clock also measures the neighbours; CPU time per image says
    what a free core would do (1000 / CPU-ms images/s per core).
    """
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


if __name__ == "__main__":
    main()
