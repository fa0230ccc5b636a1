"""The rule sets: their names, the unit each counts in, and which table facts each scores.

A Hand JSON field a rule set cannot score (a wild tile under MCR, 开宝 under Sichuan) is
refused under that rule set rather than ignored, so a hand is never scored as another one.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Final

from .hand import PLAIN_TABLE, Hand, HandError, Table, Waiting


class Unit(StrEnum):
    """What a Score's `total` counts."""

    POINTS = "points"  # MCR's 分, Shanghai's points (a 勒子 is 10), ordinary Sichuan's 分
    FAN = "fan"  # 番: Sichuan blood battle (a hand is worth 2**番), Beijing
    LEZI = "lezi"  # 勒子: a rule set whose totals are whole 勒子 (none of ours: Shanghai's
    #                 plain wins count points below one 勒子)


RULESETS: Final[tuple[str, ...]] = (
    "mcr", "mcr-mil", "sichuan", "sichuan-ordinary", "shanghai", "beijing",
)  # fmt: skip
UNITS: Final[dict[str, Unit]] = {
    "mcr": Unit.POINTS,
    "mcr-mil": Unit.POINTS,
    "sichuan": Unit.FAN,
    "sichuan-ordinary": Unit.POINTS,
    "shanghai": Unit.POINTS,
    "beijing": Unit.FAN,
}
SEAT_FIELDS: Final = frozenset({"dealer", "discarder"})  # facts of every table; MCR pays no heed
HONOURED: Final[dict[str, frozenset[str]]] = {
    "mcr": SEAT_FIELDS,
    "mcr-mil": SEAT_FIELDS,
    "sichuan": SEAT_FIELDS | {"heavenly_win", "earthly_win", "kong_discard"},
    "sichuan-ordinary": SEAT_FIELDS | {"heavenly_win", "earthly_win"},
    "shanghai": SEAT_FIELDS | {"kaibao", "huangfan"},
    "beijing": SEAT_FIELDS | {"wild", "heavenly_win", "earthly_win", "burned_rounds",
                              "mutual_pay"},
}  # fmt: skip


def unit_of(ruleset: str) -> Unit:
    return UNITS.get(ruleset, Unit.POINTS)


def foreign_fields(table: Table, ruleset: str) -> HandError | None:
    """The first table fact given that `ruleset` does not score, as the error to answer."""
    honoured = HONOURED.get(ruleset, SEAT_FIELDS)
    for name in table.given():
        if name not in honoured:
            takers = [r for r in RULESETS if name in HONOURED[r]]
            return HandError(
                f"{name} is not part of the {ruleset} rules (scored by {', '.join(takers)})",
                f"/{name}",
            )
    return None


def requested_ruleset(data: object, asked: str | None) -> str:
    """The rule set a hand is scored under: the request's, the hand's own `ruleset` key, or
    mcr. A hand that names one rule set asked under another is refused (HandError)."""
    named = data.get("ruleset") if isinstance(data, Mapping) else None
    if named is None:
        return asked or "mcr"
    if not isinstance(named, str) or named not in RULESETS:
        raise HandError(f"ruleset is one of {', '.join(RULESETS)}, not {named!r}", "/ruleset")
    if asked is not None and asked != named:
        raise HandError(
            f"the hand names ruleset {named!r} but it was asked to be scored under {asked!r}",
            "/ruleset",
        )
    return named


def check_table(hand: Hand | Waiting, ruleset: str) -> HandError | None:
    """The table facts `ruleset` cannot score, when any are given."""
    if hand.table is PLAIN_TABLE:  # the common case: nothing given, nothing to refuse
        return None
    return foreign_fields(hand.table, ruleset)
