"""Time per hand of the waits of 13 tiles, ours against PyMahjongGB (C++), in one run.

Ours: `scoring.winning_tiles` (the tiles alone, from a checked `Waiting`) and
`scoring.waits` (each of those wins scored on a discard and self-drawn). The peer:
`MahjongGB.MahjongShanten` (how far from waiting, melds included; it names no tiles) and its
five shape functions, whose useful tiles at shanten 0 are the same answer as
`winning_tiles` (tests/scoring/pmgb.py `waits`). The peer gets its tile tuples made in
advance. Each hand is timed on its own, the best of `--repeat` calls; the table gives the
median, 99th percentile and largest per hand, and the first call on each hand (caches still
filling) apart; the cycle collector is off while timing, as `timeit` does. Two sets:
generated waiting hands, and random deals of 13 tiles from a full wall (mostly not waiting).

    python benchmarks/waits.py --n 2000 --seed 1
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import MahjongGB  # noqa: E402

from scoring import parse_waiting, waits, winning_tiles  # noqa: E402
from scoring.tiles import PLAYING  # noqa: E402
from scoring.waiting_hands import waiting_hands  # noqa: E402
from tests.scoring import pmgb  # noqa: E402

TARGET_US = 5000.0  # the waits of any 13-tile hand, tiles only, in under 5 ms


def random_deals(seed: int, n: int) -> list[dict[str, Any]]:
    """13 tiles dealt from a shuffled wall of 136, no melds."""
    rng = random.Random(seed)
    wall = [t for t in PLAYING for _ in range(4)]
    return [{"melds": [], "concealed": rng.sample(wall, 13)} for _ in range(n)]


def per_hand(call: Callable[[Any], object], inputs: Sequence[Any], repeat: int) -> list[float]:
    """Microseconds per input, the best of `repeat` calls each. The cycle collector is off
    while timing, as `timeit` has it: its pauses belong to the process, not to a hand."""
    out = []
    clock = time.perf_counter_ns
    gc.collect()
    gc.disable()
    try:
        for item in inputs:
            best = float("inf")
            for _ in range(repeat):
                start = clock()
                call(item)
                best = min(best, clock() - start)
            out.append(best / 1000)
    finally:
        gc.enable()
    return out


def stats(times: list[float]) -> tuple[float, float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[int(0.99 * (len(ordered) - 1))], ordered[-1]


def race(hands: list[dict[str, Any]], repeat: int, scored: int) -> dict[str, list[float]]:
    ours = [parse_waiting(hand) for hand in hands]
    packs = [pmgb.packs(hand) for hand in hands]
    standing = [tuple(pmgb.tile(t) for t in hand["concealed"]) for hand in hands]
    peer_inputs = list(zip(packs, standing, strict=True))

    def shanten(args: tuple[Any, ...]) -> object:
        return MahjongGB.MahjongShanten(pack=args[0], hand=args[1])

    def shape_waits(args: tuple[Any, ...]) -> object:
        melds, tiles = len(args[0]), args[1]
        found = [MahjongGB.RegularShanten(tiles)]
        if melds <= 1:
            found.append(MahjongGB.KnittedStraightShanten(tiles))
        if melds == 0:
            found += [
                MahjongGB.SevenPairsShanten(tiles),
                MahjongGB.ThirteenOrphansShanten(tiles),
                MahjongGB.HonorsAndKnittedTilesShanten(tiles),
            ]
        return found

    return {
        "ours: winning_tiles, first call": per_hand(winning_tiles, ours, 1),
        "ours: winning_tiles": per_hand(winning_tiles, ours, repeat),
        "ours: waits, each win scored": per_hand(waits, ours[:scored], max(1, repeat // 2)),
        "PyMahjongGB: MahjongShanten": per_hand(shanten, peer_inputs, repeat),
        "PyMahjongGB: shape functions": per_hand(shape_waits, peer_inputs, repeat),
    }


def report(name: str, timings: dict[str, list[float]]) -> tuple[float, float]:
    """Print the table of one hand set; answer our median and slowest hand (tiles only)."""
    print(f"{name:38} {'median µs':>10} {'p99 µs':>10} {'max µs':>10}")
    for label, times in timings.items():
        median, p99, most = stats(times)
        print(f"  {label:36} {median:10.1f} {p99:10.1f} {most:10.1f}")
    ours = stats(timings["ours: winning_tiles"])[0]
    for peer in ("PyMahjongGB: MahjongShanten", "PyMahjongGB: shape functions"):
        ratio = ours / stats(timings[peer])[0]
        print(f"  median time ours/{peer.split(': ')[1]:<20} {ratio:10.2f}")
    slowest = max(
        max(timings["ours: winning_tiles, first call"]), max(timings["ours: winning_tiles"])
    )
    return ours, slowest


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="hands in each set (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="best of N calls (default 5)")
    parser.add_argument(
        "--scored", type=int, default=500, help="hands whose waits are also scored (default 500)"
    )
    args = parser.parse_args(argv)
    print(f"seed {args.seed}, best of {args.repeat} calls per hand, one process")
    medians, slowest = [], []
    for name, hands in (
        (f"{args.n} generated waiting hands", list(waiting_hands(args.seed, args.n))),
        (f"{args.n} random deals of 13 tiles", random_deals(args.seed, args.n)),
    ):
        median, most = report(name, race(hands, args.repeat, args.scored))
        medians.append(median)
        slowest.append(most)
    verdict = "met" if max(medians) < TARGET_US else "NOT met"
    print(
        f"tiles only: median {max(medians):.0f} µs, slowest hand {max(slowest):.0f} µs "
        f"(first calls included); target median under {TARGET_US:.0f} µs: {verdict}"
    )
    return 0 if verdict == "met" else 1


if __name__ == "__main__":
    raise SystemExit(main())
