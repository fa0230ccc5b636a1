"""The table facts of a Hand JSON (`dealer`, `discarder`, `wild`, ...) -> `Table`, checked.

Each fact is checked on its own and against the hand (a player does not win on his own
discard; a heavenly win is the dealer's self-draw with nothing claimed); which rule sets
score which fact is `rulesets.py`'s business.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .hand import PLAIN_TABLE, SEATS, HandError, Meld, Table
from .tiles import PLAYING

TABLE_KEYS: Final = frozenset(
    {"dealer", "discarder", "wild", "heavenly_win", "earthly_win", "kong_discard",
     "burned_rounds", "mutual_pay", "kaibao", "huangfan"}
)  # fmt: skip
ONE_WIN: Final = ("discarder", "heavenly_win", "earthly_win", "kong_discard")  # facts of one win
MOST_BURNED_ROUNDS: Final = 16  # 烧庄 doubles each round: a bound that keeps the number sane
_TABLE_FLAGS: Final = ("heavenly_win", "earthly_win", "kong_discard", "kaibao", "huangfan")


def _seat(value: object, pointer: str) -> str:
    if isinstance(value, str) and value in SEATS:
        return value
    raise HandError(f"a seat is named by its wind, E S W N, not {value!r}", pointer)


def _seats(value: object, pointer: str) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        raise HandError("expected a list of seats (E S W N)", pointer)
    seats = tuple(_seat(v, f"{pointer}/{i}") for i, v in enumerate(value))
    if len(set(seats)) != len(seats):
        raise HandError("each seat is named once", pointer)
    return seats


def _wild(value: object) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        raise HandError("wild is a list of tile codes (the 会 tiles)", "/wild")
    for i, v in enumerate(value):
        if not isinstance(v, str) or v not in PLAYING:
            raise HandError(f"{v!r} is not a tile code (1m-9m, 1p-9p, 1s-9s, E S W N, C F P)",
                            f"/wild/{i}")  # fmt: skip
    if len(set(value)) != len(value):
        raise HandError("each wild tile is named once", "/wild")
    return tuple(value)


def read_table(data: Mapping[str, Any]) -> Table:
    """The table facts of a Hand JSON object, each checked on its own."""
    if data.keys().isdisjoint(TABLE_KEYS):
        return PLAIN_TABLE
    flags = {}
    for name in _TABLE_FLAGS:
        flag = data.get(name, False)
        if flag is not True and flag is not False:
            raise HandError(f"{name} must be true or false", f"/{name}")
        flags[name] = flag
    burned = data.get("burned_rounds", 0)
    if type(burned) is not int or not 0 <= burned <= MOST_BURNED_ROUNDS:
        raise HandError(
            f"burned_rounds (烧庄) is a whole number 0-{MOST_BURNED_ROUNDS}, not {burned!r}",
            "/burned_rounds",
        )
    discarder = data.get("discarder")
    return Table(
        dealer=_seat(data.get("dealer", "E"), "/dealer"),
        discarder=None if discarder is None else _seat(discarder, "/discarder"),
        wild=_wild(data.get("wild", [])),
        burned_rounds=burned,
        mutual_pay=_seats(data.get("mutual_pay", []), "/mutual_pay"),
        **flags,
    )


def check_win_table(
    table: Table, melds: tuple[Meld, ...], seat: str, self_drawn: bool, robbing_kong: bool
) -> None:
    """Table facts that cannot hold together with the win they describe."""
    if table is PLAIN_TABLE:
        return
    if table.discarder is not None:
        if self_drawn:
            raise HandError("a self-drawn win has no discarder", "/discarder")
        if table.discarder == seat:
            raise HandError("a player does not win on his own discard", "/discarder")
    if seat in table.mutual_pay:
        raise HandError("mutual_pay (互包) names the winner's partners, not the winner",
                        "/mutual_pay")  # fmt: skip
    claimed = any(not m.concealed for m in melds)
    if table.heavenly_win:
        if table.earthly_win:
            raise HandError("a win is heavenly (the dealer's) or earthly, not both",
                            "/earthly_win")  # fmt: skip
        if seat != table.dealer or not self_drawn or melds:
            raise HandError(
                "a heavenly win (天和) is the dealer's self-draw on the fourteen dealt tiles: "
                "seat_wind the dealer, self_drawn, no melds",
                "/heavenly_win",
            )
    if table.earthly_win and (seat == table.dealer or claimed):
        raise HandError(
            "an earthly win (地和) is a player other than the dealer winning before his first "
            "discard, with nothing claimed",
            "/earthly_win",
        )
    if table.kong_discard and (self_drawn or robbing_kong):
        raise HandError(
            "a win on the discard after a kong (杠上炮) is on a discard, not self-drawn or robbed",
            "/kong_discard",
        )


def check_waiting_table(table: Table) -> None:
    """A hand waiting to win keeps the facts of the table, not those of one win."""
    for name in ONE_WIN:
        if getattr(table, name) != getattr(PLAIN_TABLE, name):
            raise HandError(
                f"{name} describes one win: a hand of 13 tiles is read for each tile it waits "
                "on, won both on a discard and self-drawn",
                f"/{name}",
            )
