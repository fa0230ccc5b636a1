"""Rule profiles: where two readings of MCR disagree, a profile says which one to follow.

`mcr` is the rule book; where the book is silent or ambiguous it follows the MIL handbook as
PyMahjongGB 1.4.0 implements it. `mcr-mil` is PyMahjongGB 1.4.0 exactly, oddities included.
docs/scoring.md tables every difference. An EMA 2006 profile would set other points
(Two Concealed Kongs 8, melded + concealed kong 6) and `knitted_waits="none"`.
"""

from __future__ import annotations

from typing import Final, Literal

from .fan_table import ROWS

# Edge / Closed / Single Wait in a knitted-straight hand (组合龙 + set + pair):
#   "outside": only when the winning tile is outside the knitted straight (the rule book);
#   "also-inside": also when it could be read as part of the knitted straight (PyMahjongGB);
#   "none": never (EMA 2006).
KnittedWaits = Literal["outside", "also-inside", "none"]


class Profile:
    """A plain class with its methods written out (compiled with the core, and no dataclass
    machinery built at start-up); never changed once built."""

    name: str
    # PyMahjongGB scores one concealed + one melded kong as its own 5-point fan (明暗杠)
    # instead of Concealed Kong 2 + Melded Kong 1.
    concealed_and_melded_kong_fan: bool
    knitted_waits: KnittedWaits
    points: dict[int, int]  # overrides of the table's points

    def __init__(
        self,
        name: str,
        concealed_and_melded_kong_fan: bool = False,
        knitted_waits: KnittedWaits = "outside",
        points: dict[int, int] | None = None,
    ) -> None:
        self.name = name
        self.concealed_and_melded_kong_fan = concealed_and_melded_kong_fan
        self.knitted_waits = knitted_waits
        self.points = {} if points is None else points

    def _values(self) -> tuple[object, ...]:
        return (self.name, self.concealed_and_melded_kong_fan, self.knitted_waits, self.points)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Profile):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())  # as a frozen dataclass's: fails while `points` is a dict

    def __repr__(self) -> str:
        return (
            f"Profile(name={self.name!r}, concealed_and_melded_kong_fan="
            f"{self.concealed_and_melded_kong_fan!r}, knitted_waits={self.knitted_waits!r}, "
            f"points={self.points!r})"
        )

    def points_of(self, fan: int) -> int:
        return self.points.get(fan, ROWS[fan].points) if self.points else ROWS[fan].points


MCR_PROFILES: Final[dict[str, Profile]] = {
    "mcr": Profile("mcr"),
    "mcr-mil": Profile("mcr-mil", concealed_and_melded_kong_fan=True, knitted_waits="also-inside"),
}


def points_table(profile: Profile) -> list[int]:
    """The points of every fan under `profile`, indexed by fan id (remembered per profile)."""
    table = _POINTS.get(profile.name)
    if table is None:
        table = [0] * (max(ROWS) + 1)
        for fan in ROWS:
            table[fan] = profile.points_of(fan)
        _POINTS[profile.name] = table
    return table


_POINTS: Final[dict[str, list[int]]] = {}
