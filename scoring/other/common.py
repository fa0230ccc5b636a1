"""What the Sichuan, Shanghai and Beijing scorers share: the result, the hand's shapes, rows.

These rule sets come from seed document 003 (a machine translation; docs/scoring-differences.md
says how each garbled line was read). Their hands use the same Hand JSON as MCR; a rule set
refuses what its tiles or its claiming rules cannot produce, with the reason in `error`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from scoring.hand import SEATS, Hand, HandError
from scoring.parse import parse_hand
from scoring.rulesets import Unit, unit_of
from scoring.score import Exclusion, FanScore, Score, invalid

Set = tuple[str, ...]  # three tiles (chow or pung) or four (kong)


@dataclass(frozen=True, slots=True)
class Row:
    """One scoring item of a rule set: its local id (table order in the text), names, value
    in the rule set's unit, what it is, and the items of the same table it stands for."""

    id: int
    name_en: str
    name_zh: str
    points: int  # in the rule set's unit (rulesets.UNITS)
    description: str = ""
    excludes: tuple[int, ...] = ()  # ids in the same table, not counted beside this one


def make_score(
    ruleset: str,
    total: int,
    fans: list[tuple[Row, int]],
    payments: dict[str, int | None],
    flower_points: int = 0,
    excluded: list[Exclusion] | None = None,
    sets: Mapping[int, tuple[str, ...]] | None = None,
    capped_from: int | None = None,
) -> Score:
    """The MCR scorer's `Score`, so every rule set answers one shape (DESIGN.md); `sets` gives
    the sets or tiles each fan (by local id) is made of; `capped_from` the sum a cap cut."""
    shown = sets or {}
    return Score(
        unit=unit_of(ruleset),
        ruleset=ruleset,
        valid=True,
        total=total,
        meets_minimum=True,  # none of these rule sets has a minimum beyond a legal win
        fans=tuple(
            FanScore(r.id, r.name_en, r.name_zh, r.points, n, shown.get(r.id, ())) for r, n in fans
        ),
        excluded=tuple(excluded or ()),
        flower_points=flower_points,
        payments=payments,
        capped_from=capped_from,
    )


def load(hand: Hand | Mapping[str, Any]) -> Hand:
    """A checked `Hand`; raises HandError. Parsing is the MCR scorer's (one set of checks)."""
    if isinstance(hand, Hand):
        return hand
    return parse_hand(hand)


def admit(
    hand: Hand | Mapping[str, Any], ruleset: str, refusal: Callable[[Hand], str | None]
) -> Hand | Score:
    """The checked hand, or the `valid: false` Score saying why this rule set cannot score it."""
    try:
        checked = load(hand)
    except HandError as error:
        return invalid(ruleset, error.message, error.pointer)
    reason = refusal(checked)
    return invalid(ruleset, reason) if reason else checked


def all_tiles(hand: Hand) -> list[str]:
    """The fourteen (or more, with kongs) playing tiles: melds, concealed and the winning one."""
    return [t for m in hand.melds for t in m.tiles] + [*hand.concealed, hand.winning_tile]


def suit_of(tile: str) -> str:
    return tile[1] if tile[0].isdigit() else "z"  # z: an honor


def rank_of(tile: str) -> int:
    return int(tile[0]) if tile[0].isdigit() else 0


def exposed(hand: Hand) -> bool:
    """True once any meld was claimed; a concealed kong keeps the hand closed (门清)."""
    return any(not m.concealed for m in hand.melds)


def four_of_a_kind(hand: Hand) -> int:
    """Tiles held four times (as a kong or not): Sichuan's 根."""
    return sum(1 for n in Counter(all_tiles(hand)).values() if n == 4)


def _split(counts: Counter[str], need: int) -> Iterator[list[Set]]:
    """Every way to cut `counts` into `need` chows or pungs (no pair), smallest tile first."""
    if need == 0:
        if not +counts:
            yield []
        return
    tile = min((t for t, n in counts.items() if n), key=_order, default=None)
    if tile is None:
        return
    if counts[tile] >= 3:
        counts[tile] -= 3
        for rest in _split(counts, need - 1):
            yield [(tile, tile, tile), *rest]
        counts[tile] += 3
    if rank_of(tile) and rank_of(tile) <= 7:
        run = [f"{rank_of(tile) + i}{suit_of(tile)}" for i in range(3)]
        if all(counts[t] for t in run):
            for t in run:
                counts[t] -= 1
            for rest in _split(counts, need - 1):
                yield [tuple(run), *rest]
            for t in run:
                counts[t] += 1


def _order(tile: str) -> tuple[str, int, str]:
    return (suit_of(tile), rank_of(tile), tile)


def arrangements(hand: Hand) -> list[tuple[list[Set], str]]:
    """Every (four sets, pair) reading of the hand; the melds come first, as declared."""
    declared = [tuple(sorted(m.tiles, key=_order)) for m in hand.melds]
    hidden = Counter([*hand.concealed, hand.winning_tile])
    out: list[tuple[list[Set], str]] = []
    for pair in sorted((t for t, n in hidden.items() if n >= 2), key=_order):
        hidden[pair] -= 2
        for sets in _split(hidden, 4 - len(declared)):
            out.append(([*declared, *sets], pair))
        hidden[pair] += 2
    return out


def group_text(tiles: Set) -> str:
    """`("4s", "5s", "6s")` -> `456s`, `("E", "E", "E")` -> `EEE`: the notation of the sets."""
    if suit_of(tiles[0]) == "z":
        return "".join(tiles)
    return "".join(t[0] for t in tiles) + tiles[0][1]


def reading_text(sets: list[Set], pair: str) -> tuple[str, ...]:
    return (*(group_text(s) for s in sets), group_text((pair, pair)))


def pairs_text(hand: Hand) -> tuple[str, ...]:
    """Seven pairs as text, four of a kind as two pairs."""
    tiles = sorted([*hand.concealed, hand.winning_tile], key=_order)
    return tuple(group_text((a, b)) for a, b in zip(tiles[::2], tiles[1::2], strict=True))


def quads_text(hand: Hand) -> tuple[str, ...]:
    counts = Counter(all_tiles(hand))
    return tuple(group_text((t,) * 4) for t in sorted(counts, key=_order) if counts[t] == 4)


def seven_pairs(hand: Hand) -> bool:
    """Seven pairs, no meld declared; four of a kind counts as two pairs (龙七对, 豪华七对)."""
    counts = Counter([*hand.concealed, hand.winning_tile])
    return (
        not hand.melds and all(n % 2 == 0 for n in counts.values()) and sum(counts.values()) == 14
    )


def is_pung(s: Set) -> bool:
    return len(set(s)) == 1


def payments(total: int, hand: Hand, robbed_pays_all: bool = False) -> dict[str, int | None]:
    """Who pays what, in base units: a self-draw costs each of the three; a discard its thrower."""
    if hand.self_drawn:
        return {"winner": 3 * total, "discarder": None, "others": -total}
    if hand.robbing_kong and robbed_pays_all:
        return {"winner": 3 * total, "discarder": -3 * total, "others": 0}
    return {"winner": total, "discarder": -total, "others": 0}


def seat_after(seat: str, steps: int) -> str:
    """The seat `steps` places on in playing order (E S W N): 1 is the next player (下家)."""
    return SEATS[(SEATS.index(seat) + steps) % 4]


SIDE_STEPS = {"left": -1, "opposite": 2, "right": 1}  # 上家, 对家, 下家 as seen by the claimer


def claimed_from_seats(hand: Hand) -> list[str]:
    """The seat each exposed meld was claimed from, where the hand says (a chow: the left)."""
    out = []
    for m in hand.melds:
        side = "left" if m.kind == "chow" else m.claimed_from
        if not m.concealed and side is not None:
            out.append(seat_after(hand.seat_wind, SIDE_STEPS[side]))
    return out


__all__ = ["Exclusion", "Hand", "HandError", "Row", "Score", "Set", "Unit", "invalid"]
