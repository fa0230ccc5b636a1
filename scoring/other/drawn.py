"""Settling a drawn Sichuan hand (流局): 查花猪 and 查大叫 (seed document 003).

Blood battle: "Step 1: Check that the player with three numbers in his hand is a 花猪, and
花猪 pays 8 times points to each non-花猪 player. Step 2: Check the player who didn't draw
the cards (without 花猪) to compensate the player who drew the cards for the maximum
possible number of times (up to 3 times, that is, 8 times)."
Ordinary: "those who don't listen to the card will be compensated with the lowest available
score" (rule 8): each player not waiting pays each waiting one the least that player's wait
could win.

Each seat still in the hand gives its 13 tiles (Hand JSON without `winning_tile`); a seat
that already won in a blood battle is left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.hand import SEATS, Hand, HandError, Waiting
from scoring.parse import parse_waiting
from scoring.score import score

from .common import suit_of

FLOWER_PIG_PAYS = 8  # 2**3: the blood battle's cap


@dataclass(frozen=True, slots=True)
class SeatAtDraw:
    seat: str
    flower_pig: bool  # 花猪: still holding all three suits
    waits: tuple[str, ...]  # the tiles it could win on under the rule set (有叫)
    worth: int  # what its wait is paid: blood, 2**(most 番); ordinary, the fewest points


@dataclass(frozen=True, slots=True)
class Transfer:
    payer: str
    payee: str
    amount: int
    why: str  # "查花猪" or "查大叫"


@dataclass(frozen=True, slots=True)
class DrawSettlement:
    ruleset: str
    seats: tuple[SeatAtDraw, ...]
    transfers: tuple[Transfer, ...]

    def nets(self) -> dict[str, int]:
        out = {s.seat: 0 for s in self.seats}
        for t in self.transfers:
            out[t.payer] -= t.amount
            out[t.payee] += t.amount
        return out

    def to_json(self) -> dict[str, Any]:
        nets = self.nets()
        return {
            "ruleset": self.ruleset,
            "seats": [
                {
                    "seat": s.seat,
                    "flower_pig": s.flower_pig,
                    "waits": list(s.waits),
                    "worth": s.worth,
                    "net": nets[s.seat],
                }
                for s in self.seats
            ],
            "transfers": [
                {"from": t.payer, "to": t.payee, "amount": t.amount, "why": t.why}
                for t in self.transfers
            ],
        }


def _seat(seat: str, hand: Waiting, ruleset: str) -> SeatAtDraw:
    tiles = [*hand.concealed, *(t for m in hand.melds for t in m.tiles)]
    if any(suit_of(t) == "z" for t in tiles):
        raise HandError("Sichuan uses no honor tiles", f"/{seat}/concealed")
    pig = len({suit_of(t) for t in tiles}) == 3
    answer = score(hand, ruleset)
    wins = [s for w in answer.waits or () for s in (w.discard, w.self_drawn) if s.valid]
    waits = tuple(w.tile for w in answer.waits or ())
    if not wins or pig:
        return SeatAtDraw(seat, pig, () if pig else waits, 0)
    totals = [s.total for s in wins]
    worth = 2 ** max(totals) if ruleset == "sichuan" else min(totals)
    return SeatAtDraw(seat, pig, waits, worth)


def settle_drawn(
    hands: Mapping[str, Hand | Waiting | Mapping[str, Any]], ruleset: str
) -> DrawSettlement:
    """Who pays whom when the wall runs out with no win; raises HandError on a bad hand."""
    if ruleset not in ("sichuan", "sichuan-ordinary"):
        raise HandError(f"a drawn hand is settled under sichuan or sichuan-ordinary, not {ruleset}")
    seats = []
    for seat, hand in hands.items():
        if seat not in SEATS:
            raise HandError(f"a seat is named by its wind, E S W N, not {seat!r}", f"/{seat}")
        if isinstance(hand, Hand):
            raise HandError("a seat at a drawn hand holds 13 tiles, not a win", f"/{seat}")
        try:
            waiting = hand if isinstance(hand, Waiting) else parse_waiting(hand)
        except HandError as error:
            raise HandError(error.message, f"/{seat}{error.pointer}") from None
        seats.append(_seat(seat, waiting, ruleset))
    transfers: list[Transfer] = []
    if ruleset == "sichuan":
        for pig in (s for s in seats if s.flower_pig):
            transfers += [
                Transfer(pig.seat, other.seat, FLOWER_PIG_PAYS, "查花猪")
                for other in seats
                if not other.flower_pig
            ]
    for payer in (s for s in seats if not s.waits and not (s.flower_pig and ruleset == "sichuan")):
        transfers += [
            Transfer(payer.seat, payee.seat, payee.worth, "查大叫")
            for payee in seats
            if payee.waits
        ]
    return DrawSettlement(ruleset, tuple(seats), tuple(transfers))
