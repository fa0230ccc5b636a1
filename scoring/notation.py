"""The compact notation of MCR calculators: `[567m,2][999s,3][SSSS]123pCC`.

Brackets hold a declared meld (`,N`: which tile of a chow was claimed, or 1 left / 2 opposite
/ 3 right for a pung or kong; four tiles without `,N` are a concealed kong); then the concealed
tiles. The result goes through `parse_hand` (`parse_waiting` for 13 tiles without a winning
tile), so it is checked like any Hand JSON.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .hand import SIDES, Hand, HandError, Waiting
from .parse import WAITING_TILES, parse_hand, parse_waiting

_NOTATION_TOKEN = re.compile(r"\s*(?:\[([^\]]*)\]|(\d+)([mps])|([ESWNCFP]))")
_MELD_BODY = re.compile(r"^\s*(?:(\d+)([mps])|([ESWNCFP]+))\s*(?:,\s*(\d)\s*)?$")


def _expand(digits: str | None, suit: str | None, honors: str | None) -> list[str]:
    if honors:
        return list(honors)
    return [f"{d}{suit}" for d in digits or ""]


def _notation_meld(body: str, at: int) -> dict[str, Any]:
    m = _MELD_BODY.match(body)
    if m is None:
        raise HandError(
            f"[{body}] at character {at} is not a meld like [567m,2], [EEE,1] or [SSSS]",
            "/notation",
        )
    tiles = _expand(m.group(1), m.group(2), m.group(3))
    offer = int(m.group(4)) if m.group(4) else None
    if offer is not None and not 1 <= offer <= 3:
        raise HandError(f"[{body}]: ,N is 1, 2 or 3, not {offer}", "/notation")
    meld: dict[str, Any] = {"tiles": tiles}
    if len(set(tiles)) == 1 and len(tiles) in (3, 4):
        meld["type"] = "pung" if len(tiles) == 3 else "kong"
        if len(tiles) == 4 and offer is None:
            meld["concealed"] = True
        elif offer is not None:
            meld["claimed_from"] = SIDES[offer - 1]
    else:
        meld["type"] = "chow"
        if offer is not None and len(tiles) == 3:
            meld["claimed_tile"] = tiles[offer - 1]
    return meld


def _read(text: object) -> tuple[list[dict[str, Any]], list[str]]:
    """The melds (as Hand JSON) and the concealed tiles written in the notation."""
    if not isinstance(text, str):
        raise HandError("notation must be a string", "/notation")
    melds: list[dict[str, Any]] = []
    concealed: list[str] = []
    pos = 0
    stripped = text.rstrip()
    while pos < len(stripped):
        m = _NOTATION_TOKEN.match(stripped, pos)
        if m is None:
            raise HandError(
                f"cannot read {stripped[pos : pos + 8]!r} at character {pos}", "/notation"
            )
        if m.group(1) is not None:
            if concealed:
                raise HandError("melds in brackets come before the concealed tiles", "/notation")
            melds.append(_notation_meld(m.group(1), pos))
        else:
            concealed += _expand(m.group(2), m.group(3), m.group(4))
        pos = m.end()
    return melds, concealed


def parse_notation(
    text: str,
    *,
    winning_tile: str | None = None,
    self_drawn: bool = False,
    seat_wind: str = "E",
    prevalent_wind: str = "E",
    flowers: int | list[str] = 0,
    last_tile: bool = False,
    last_of_wall: bool = False,
    kong_replacement: bool = False,
    robbing_kong: bool = False,
    table: Mapping[str, Any] | None = None,
) -> Hand:
    """Compact notation -> Hand. `[567m,2]` is a meld (`,N`: the claimed tile of a chow, or
    1 left / 2 opposite / 3 right for a pung or kong), `[SSSS]` a concealed kong; then the
    concealed tiles. Without `winning_tile` the last tile written is the winning tile.
    `table` holds the Hand JSON's table facts (`dealer`, `discarder`, `wild`, ...).

    Example:
        >>> parse_notation("[567m,2][999s,3][SSSS]123pCC").winning_tile
        'C'
    """
    context = {
        "self_drawn": self_drawn, "seat_wind": seat_wind, "prevalent_wind": prevalent_wind,
        "flowers": flowers, "last_tile": last_tile, "last_of_wall": last_of_wall,
        "kong_replacement": kong_replacement, "robbing_kong": robbing_kong, **(table or {}),
    }  # fmt: skip
    return _win(*_read(text), winning_tile, context)


def _win(
    melds: list[dict[str, Any]],
    concealed: list[str],
    winning_tile: str | None,
    context: dict[str, Any],
) -> Hand:
    """The Hand of tiles read from the notation; the last concealed tile is the winning tile
    unless one is named."""
    if winning_tile is None:
        if not concealed:
            raise HandError(
                "no concealed tiles: the last one written is the winning tile", "/notation"
            )
        winning_tile = concealed.pop()
    elif len(concealed) + 3 * len(melds) == 14:
        if winning_tile not in concealed:
            raise HandError(
                f"winning tile {winning_tile} is not among the 14 tiles written", "/winning_tile"
            )
        concealed.remove(winning_tile)
    return parse_hand(
        {"melds": melds, "concealed": concealed, "winning_tile": winning_tile, **context}
    )


def read_notation(
    text: str,
    *,
    winning_tile: str | None = None,
    self_drawn: bool = False,
    seat_wind: str = "E",
    prevalent_wind: str = "E",
    flowers: int | list[str] = 0,
    last_tile: bool = False,
    last_of_wall: bool = False,
    kong_replacement: bool = False,
    robbing_kong: bool = False,
    table: Mapping[str, Any] | None = None,
) -> Hand | Waiting:
    """Like `parse_notation`, but 13 tiles written (a kong counting 3) and no `winning_tile`
    are a hand waiting to win, not a win on the last of them.

    Example:
        >>> read_notation("123456789m1234p").concealed[-1]
        '4p'
    """
    melds, concealed = _read(text)
    context = {
        "self_drawn": self_drawn, "seat_wind": seat_wind, "prevalent_wind": prevalent_wind,
        "flowers": flowers, "last_tile": last_tile, "last_of_wall": last_of_wall,
        "kong_replacement": kong_replacement, "robbing_kong": robbing_kong, **(table or {}),
    }  # fmt: skip
    if winning_tile is None and len(concealed) + 3 * len(melds) == WAITING_TILES:
        return parse_waiting({"melds": melds, "concealed": concealed, **context})
    return _win(melds, concealed, winning_tile, context)
