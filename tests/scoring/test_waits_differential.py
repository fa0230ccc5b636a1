"""Differential test of the waits: `scoring.winning_tiles` against PyMahjongGB 1.4.0.

PyMahjongGB's waits are the useful tiles of its shape functions at shanten 0
(`pmgb.waits`), less any tile whose four copies are all in the hand already: its functions
see only the concealed tiles and list a fifth copy too, which no one can win on
(docs/scoring-differences.md). Whether a hand waits at all must also be
`MahjongGB.MahjongShanten` == 0. The hands are `scoring.waiting_hands`: wins of every shape
less one tile, and the same with one tile swapped (mostly no longer waiting).

Script mode, the full figure:

    python tests/scoring/test_waits_differential.py --n 20000 --near 5000 --fourteen 2000 --seed 1
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))

import MahjongGB  # noqa: E402

from scoring import discards, parse_hand, parse_waiting, winning_tiles  # noqa: E402
from scoring.tiles import COPIES, PLAYING  # noqa: E402
from scoring.waiting_hands import near_hands, waiting_hands  # noqa: E402
from tests.scoring import pmgb  # noqa: E402

Hand = Mapping[str, Any]
CI_HANDS, CI_NEAR, CI_SEED = 2000, 500, 20261130
# PyMahjongGB's shape functions: a short name and the most melds the shape allows.
SHAPES = {
    MahjongGB.RegularShanten: ("four sets and a pair", 4),
    MahjongGB.KnittedStraightShanten: ("knitted straight", 1),
    MahjongGB.SevenPairsShanten: ("seven pairs", 0),
    MahjongGB.ThirteenOrphansShanten: ("thirteen orphans", 0),
    MahjongGB.HonorsAndKnittedTilesShanten: ("honors and knitted", 0),
}


def in_hand(hand: Hand) -> Counter[str]:
    return Counter(hand["concealed"]) + Counter(
        t for m in hand.get("melds", []) for t in m["tiles"]
    )


def reference(hand: Hand) -> tuple[int, frozenset[str], frozenset[str]]:
    """PyMahjongGB's shanten, its waits less fifth copies, and the fifth copies it listed."""
    shanten, useful = pmgb.waits(hand)
    held = in_hand(hand)
    fifth = frozenset(t for t in useful if held[t] >= COPIES)
    return shanten, useful - fifth, fifth


def shapes_waiting(hand: Hand) -> list[str]:
    """The shapes PyMahjongGB finds the hand waiting in (shanten 0), for the coverage count."""
    standing = tuple(pmgb.tile(t) for t in hand["concealed"])
    melds = len(hand.get("melds", []))
    return [
        name
        for function, (name, most) in SHAPES.items()
        if melds <= most and function(standing)[0] == 0
    ]


@dataclass
class Tally:
    hands: int = 0
    waiting: int = 0  # hands PyMahjongGB calls waiting (shanten 0)
    fifth: int = 0  # hands where PyMahjongGB listed a fifth copy
    with_melds: int = 0  # waiting hands with declared melds
    shapes: Counter[str] = field(default_factory=Counter)  # waiting hands per shape
    bad: list[str] = field(default_factory=list)  # one line per disagreement


def compare(hands: Iterable[Hand]) -> Tally:
    tally = Tally()
    for hand in hands:
        tally.hands += 1
        shanten, want, fifth = reference(hand)
        got = frozenset(winning_tiles(parse_waiting(hand)))
        whole = pmgb.shanten(hand)
        if got != want or whole != shanten or (shanten == 0) != bool(want | fifth):
            tally.bad.append(
                f"ours {sorted(got)} PyMahjongGB {sorted(want)} (shanten {shanten}, "
                f"MahjongShanten {whole}) :: {json.dumps(hand)}"
            )
        if shanten == 0:
            tally.waiting += 1
            tally.fifth += bool(fifth)
            tally.with_melds += bool(hand.get("melds"))
            tally.shapes.update(shapes_waiting(hand))
    return tally


def fourteen_tiles(seed: int, n: int) -> list[dict[str, Any]]:
    """Waiting hands plus one more tile drawn at random (Hand JSON, the tile as winning tile)."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for hand in waiting_hands(seed, n):
        extra = rng.choice(PLAYING)
        if in_hand(hand)[extra] < COPIES:
            out.append({**hand, "winning_tile": extra})
    return out


def discards_disagree(hand: dict[str, Any]) -> str | None:
    """Our discard advice against PyMahjongGB's waits of each 13 tiles left."""
    ours = {d.tile: frozenset(w.tile for w in d.waits) for d in discards(parse_hand(hand))}
    held = [*hand["concealed"], hand["winning_tile"]]
    want = {}
    for tile in set(held):
        rest = list(held)
        rest.remove(tile)
        _, waits, _ = reference({"melds": hand["melds"], "concealed": rest})
        if waits:
            want[tile] = waits
    return None if ours == want else f"ours {ours} PyMahjongGB {want} :: {json.dumps(hand)}"


# --- tests ---------------------------------------------------------------------------------------


def test_generated_waiting_hands_agree() -> None:
    tally = compare(waiting_hands(CI_SEED, CI_HANDS))
    assert not tally.bad, "\n".join(tally.bad[:10])
    assert tally.waiting == CI_HANDS  # a win less one tile always waits
    assert set(tally.shapes) == {name for name, _ in SHAPES.values()}, tally.shapes
    assert tally.fifth and tally.with_melds


def test_near_hands_agree() -> None:
    tally = compare(near_hands(CI_SEED, CI_NEAR))
    assert not tally.bad, "\n".join(tally.bad[:10])
    assert 0 < tally.waiting < CI_NEAR


def test_discards_agree() -> None:
    hands = [h for h in fourteen_tiles(CI_SEED, 150) if not _is_win(h)]
    assert len(hands) > 100
    bad = [line for line in map(discards_disagree, hands) if line]
    assert not bad, "\n".join(bad[:5])


def _is_win(hand: dict[str, Any]) -> bool:
    try:
        pmgb.fans(hand)
    except TypeError:
        return False
    return True


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Waits against PyMahjongGB on generated hands")
    parser.add_argument("--n", type=int, default=20_000, help="waiting hands")
    parser.add_argument("--near", type=int, default=5_000, help="hands with one tile swapped")
    parser.add_argument("--fourteen", type=int, default=2_000, help="14-tile hands, discards")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=5, help="disagreements to print")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    waiting = compare(waiting_hands(args.seed, args.n))
    near = compare(near_hands(args.seed, args.near))
    fourteen = [h for h in fourteen_tiles(args.seed, args.fourteen) if not _is_win(h)]
    advice = [line for line in map(discards_disagree, fourteen) if line]
    seconds = time.perf_counter() - start
    print(f"seed {args.seed}, {seconds:.1f} s")
    for name, tally in (("waiting hands", waiting), ("one tile swapped", near)):
        agree = tally.hands - len(tally.bad)
        print(
            f"{name:17} {agree}/{tally.hands} agree; {tally.waiting} waiting "
            f"({tally.with_melds} with melds), {tally.fifth} where PyMahjongGB also listed a "
            "fifth copy"
        )
        print("  waiting in: " + ", ".join(f"{k} {v}" for k, v in tally.shapes.most_common()))
        for line in tally.bad[: args.show]:
            print("   ", line)
    agree = len(fourteen) - len(advice)
    print(f"14 tiles, no win   {agree}/{len(fourteen)} discard advice agrees")
    for line in advice[: args.show]:
        print("   ", line)
    return 0 if not (waiting.bad or near.bad or advice) else 1


if __name__ == "__main__":
    raise SystemExit(main())
