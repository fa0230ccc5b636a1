"""Hand JSON -> `Hand`, checked in full (the compact notation, `notation.py`, ends here too).

Every problem is a `HandError` naming the field (a JSON pointer) and what is wrong with it,
so a caller can show it to a person as is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from .hand import SIDES, Hand, HandError, Meld, MeldKind, Side, Waiting
from .rulesets import RULESETS
from .table import TABLE_KEYS, check_waiting_table, check_win_table, read_table
from .tiles import COPIES, FLOWERS, PLAYING, SUITED, WINDS

# `ruleset` is read by rulesets.requested_ruleset: honoured, or refused when it disagrees
# with the rule set the request asks for.
KEYS: Final = {
    "melds", "concealed", "winning_tile", "self_drawn", "seat_wind", "prevalent_wind", "flowers",
    "last_tile", "last_of_wall", "kong_replacement", "robbing_kong", "ruleset", *TABLE_KEYS,
}  # fmt: skip
MELD_KEYS: Final = frozenset({"type", "tiles", "concealed", "claimed_from", "claimed_tile"})
FLAGS: Final = ("self_drawn", "last_tile", "last_of_wall", "kong_replacement", "robbing_kong")
# They hold for one win.
WIN_FLAGS: Final = ("self_drawn", "last_tile", "kong_replacement", "robbing_kong")
WAITING_TILES: Final = 13  # a hand one tile short of a win, a kong counting three
MELD_SIZE: Final = {"chow": 3, "pung": 3, "kong": 4}
MELD_KINDS: Final[dict[str, MeldKind]] = {"chow": "chow", "pung": "pung", "kong": "kong"}
ORDER: Final = {code: i for i, code in enumerate(PLAYING)}
PLAYING_SET: Final = frozenset(PLAYING)


def _tile(value: object, pointer: str) -> str:
    if isinstance(value, str) and value in ORDER:
        return value
    if isinstance(value, str) and value in FLOWERS:
        raise HandError(f"flower {value} is not a playing tile: list it under flowers", pointer)
    raise HandError(f"{value!r} is not a tile code (1m-9m, 1p-9p, 1s-9s, E S W N, C F P)", pointer)


def _tiles(value: object, pointer: str) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)):
        raise HandError("expected a list of tile codes", pointer)
    tiles = tuple(value)
    try:
        known = PLAYING_SET.issuperset(tiles)
    except TypeError:  # an unhashable entry: the loop below names it
        known = False
    if not known:
        for i, v in enumerate(tiles):
            _tile(v, f"{pointer}/{i}")
    return tiles


def meld_key(value: object) -> tuple[object, ...] | None:
    """What a meld's JSON is remembered by: its fields' values; None for an odd shape."""
    if type(value) is not dict:
        return None
    for name in value:  # (frozenset.issuperset would build a set of the keys first)
        if name not in MELD_KEYS:
            return None
    tiles, concealed = value.get("tiles"), value.get("concealed", False)
    if type(tiles) is not list or (concealed is not True and concealed is not False):
        return None
    return (
        value.get("type"),
        concealed,
        value.get("claimed_from"),
        value.get("claimed_tile"),
        tuple(tiles),
    )


def _meld(value: object, pointer: str) -> Meld:
    """A checked meld; the same meld seen again is answered from memory (melds are few)."""
    key = meld_key(value)
    if key is None:
        return _check_meld(value, pointer)
    try:
        meld = _MELDS.get(key)
    except TypeError:  # something unhashable: let the checks name it
        return _check_meld(value, pointer)
    if meld is None:
        meld = _MELDS[key] = _check_meld(value, pointer)
    return meld


_MELDS: Final[dict[tuple[object, ...], Meld]] = {}


def checked_meld(value: object) -> Meld:
    """A meld's JSON checked (HandError if it is not one), remembered as `_meld` does."""
    return _meld(value, "")


def _check_meld(value: object, pointer: str) -> Meld:
    if not isinstance(value, Mapping):
        raise HandError("a meld is an object with type and tiles", pointer)
    if not MELD_KEYS.issuperset(value):
        unknown = sorted(str(k) for k in value if k not in MELD_KEYS)
        at = f"{pointer}/{_escape(unknown[0])}"
        raise HandError(
            f"unknown meld field {unknown[0]!r} at {at}; a meld has {', '.join(sorted(MELD_KEYS))}",
            at,
        )
    kind = value.get("type")
    if not isinstance(kind, str) or kind not in MELD_SIZE:
        raise HandError(f"meld type {kind!r} is not chow, pung or kong", f"{pointer}/type")
    tiles = tuple(sorted(_tiles(value.get("tiles"), f"{pointer}/tiles"), key=ORDER.__getitem__))
    if len(tiles) != MELD_SIZE[kind]:
        raise HandError(
            f"a {kind} has {MELD_SIZE[kind]} tiles, not {len(tiles)}", f"{pointer}/tiles"
        )
    if kind == "chow":
        ok = all(t in SUITED for t in tiles) and all(
            t[1] == tiles[0][1] and int(t[0]) == int(tiles[0][0]) + i for i, t in enumerate(tiles)
        )
        if not ok:
            raise HandError(
                f"{' '.join(tiles)} is not a chow: three consecutive tiles of one suit",
                f"{pointer}/tiles",
            )
    elif len(set(tiles)) != 1:
        raise HandError(
            f"{' '.join(tiles)} is not a {kind}: its tiles must be identical", f"{pointer}/tiles"
        )
    concealed = value.get("concealed", False)
    if not isinstance(concealed, bool):
        raise HandError("concealed must be true or false", f"{pointer}/concealed")
    if concealed and kind != "kong":
        raise HandError(
            f"only a kong is declared concealed: list a concealed {kind}'s tiles under concealed",
            f"{pointer}/concealed",
        )
    claimed_from = value.get("claimed_from")
    if claimed_from is not None:
        why = None
        if not isinstance(claimed_from, str) or claimed_from not in SIDES:
            why = "claimed_from is left, opposite or right"
        elif kind == "chow" and claimed_from != "left":
            why = "a chow can only be claimed from the left (上家)"
        elif concealed:
            why = "a concealed kong was not claimed from anyone"
        if why:
            raise HandError(why, f"{pointer}/claimed_from")
    claimed_tile = value.get("claimed_tile")
    if claimed_tile is not None and (
        kind != "chow" or not isinstance(claimed_tile, str) or claimed_tile not in tiles
    ):
        raise HandError("claimed_tile names one of a chow's own tiles", f"{pointer}/claimed_tile")
    side: Side | None = claimed_from if claimed_from in SIDES else None
    return Meld(MELD_KINDS[kind], tiles, concealed, side, claimed_tile)


def read_flowers(value: object) -> tuple[tuple[str, ...], int]:
    if value == [] or (type(value) is int and value == 0):  # no flowers: the common case
        return (), 0
    if isinstance(value, bool):
        raise HandError("flowers is a list of flower codes (1h-8h) or a count", "/flowers")
    if isinstance(value, int):
        if not 0 <= value <= 8:
            raise HandError(f"there are 8 flowers, not {value}", "/flowers")
        return (), value
    if not isinstance(value, list | tuple):
        raise HandError("flowers is a list of flower codes (1h-8h) or a count", "/flowers")
    for i, v in enumerate(value):
        if not isinstance(v, str) or v not in FLOWERS:
            raise HandError(f"{v!r} is not a flower code (1h-8h)", f"/flowers/{i}")
    if len(set(value)) != len(value):
        raise HandError("each flower exists once", "/flowers")
    return tuple(value), len(value)


def _escape(key: str) -> str:
    """A key as one RFC 6901 pointer token: '~' and '/' would otherwise split or mislead it."""
    return key.replace("~", "~0").replace("/", "~1")


def _melds_and_concealed(data: Mapping[str, Any]) -> tuple[tuple[Meld, ...], tuple[str, ...]]:
    """The checks every hand goes through first: an object, known fields, melds, concealed."""
    if type(data) is not dict and not isinstance(data, Mapping):
        raise HandError("a hand is a JSON object", "")
    if not KEYS.issuperset(data):
        unknown = sorted(str(k) for k in set(data) - KEYS)
        at = "/" + _escape(unknown[0])
        raise HandError(f"unknown field {unknown[0]!r} at {at}", at)
    named = data.get("ruleset")
    if named is not None and (not isinstance(named, str) or named not in RULESETS):
        raise HandError(f"ruleset is one of {', '.join(RULESETS)}, not {named!r}", "/ruleset")
    melds_value = data.get("melds", [])
    if not isinstance(melds_value, (list, tuple)):
        raise HandError("melds is a list", "/melds")
    if len(melds_value) > 4:
        raise HandError(f"a hand has at most 4 melds, not {len(melds_value)}", "/melds")
    melds = tuple(_meld(m, f"/melds/{i}") for i, m in enumerate(melds_value))
    if "concealed" not in data:
        raise HandError(
            "concealed (the hand's tiles without the winning tile) is missing", "/concealed"
        )
    return melds, _tiles(data["concealed"], "/concealed")


def _context(data: Mapping[str, Any]) -> tuple[dict[str, bool], dict[str, str]]:
    """The flags of the win and the two winds, checked."""
    flags = {}
    for name in FLAGS:
        flag = data.get(name, False)
        if flag is not True and flag is not False:
            raise HandError(f"{name} must be true or false", f"/{name}")
        flags[name] = flag
    winds = {}
    for name in ("seat_wind", "prevalent_wind"):
        wind = data.get(name, "E")
        if not isinstance(wind, str) or wind not in WINDS:
            raise HandError(f"{name} is one of E S W N, not {wind!r}", f"/{name}")
        winds[name] = wind
    return flags, winds


def parse_hand(data: Mapping[str, Any]) -> Hand:
    """Hand JSON -> Hand, checked: raises HandError(message, pointer) on the first problem."""
    melds, concealed = _melds_and_concealed(data)
    if "winning_tile" not in data:
        raise HandError("winning_tile is missing", "/winning_tile")
    winning = _tile(data["winning_tile"], "/winning_tile")
    flags, winds = _context(data)
    flowers, flower_count = read_flowers(data.get("flowers", []))
    table = read_table(data)
    check_win_table(table, melds, winds["seat_wind"], flags["self_drawn"], flags["robbing_kong"])
    hand = Hand(
        melds, concealed, winning, flags["self_drawn"], winds["seat_wind"],
        winds["prevalent_wind"], flowers, flower_count, flags["last_tile"],
        flags["last_of_wall"], flags["kong_replacement"], flags["robbing_kong"], table,
    )  # fmt: skip
    check_counts(hand)
    check_flags(hand)
    return hand


def parse_waiting(data: Mapping[str, Any]) -> Waiting:
    """Hand JSON without a winning tile (absent or null) -> Waiting, 13 tiles with a kong
    counting 3; raises HandError(message, pointer) on the first problem."""
    melds, concealed = _melds_and_concealed(data)
    if data.get("winning_tile") is not None:
        raise HandError("a hand waiting to win has no winning_tile", "/winning_tile")
    n = 3 * len(melds) + len(concealed)
    if n != WAITING_TILES:
        raise HandError(
            "winning_tile is missing: a win names it, and a hand of 13 tiles without one (a "
            f"kong counts 3) is read for what it waits on; this one has {n}",
            "/winning_tile",
        )
    flags, winds = _context(data)
    for name in WIN_FLAGS:
        if flags[name]:
            raise HandError(
                f"{name} describes one win: a hand of 13 tiles is read for each tile it waits "
                "on, won both on a discard and self-drawn",
                f"/{name}",
            )
    flowers, flower_count = read_flowers(data.get("flowers", []))
    table = read_table(data)
    check_waiting_table(table)
    tiles = [*concealed, *(t for m in melds for t in m.tiles)]
    if len(tiles) - len(set(tiles)) >= COPIES:
        _check_copies(tiles, lambda code: "/concealed" if code in concealed else "/melds")
    return Waiting(
        melds, concealed, winds["seat_wind"], winds["prevalent_wind"], flowers, flower_count,
        flags["last_of_wall"], table,
    )  # fmt: skip


def parse_hand_or_waiting(data: Mapping[str, Any]) -> Hand | Waiting:
    """A win when `winning_tile` is given, else a hand of 13 tiles waiting to win."""
    if isinstance(data, Mapping) and data.get("winning_tile") is None:
        return parse_waiting(data)
    return parse_hand(data)


def check_counts(hand: Hand) -> None:
    """Fourteen tiles (a kong counting three), and no tile more than four times."""
    n = 3 * len(hand.melds) + len(hand.concealed) + 1
    if n != 14:
        need = 13 - 3 * len(hand.melds)
        raise HandError(
            f"wrong tile count: {n} tiles, a winning hand has 14 (a kong counts 3); with "
            f"{len(hand.melds)} meld(s) concealed needs {need} tiles, not {len(hand.concealed)}",
            "/concealed",
        )
    tiles = [hand.winning_tile, *hand.concealed]
    for meld in hand.melds:
        tiles += meld.tiles
    if len(tiles) - len(set(tiles)) < COPIES:  # a fifth copy needs four repeats: the usual answer
        return
    seen: dict[str, int] = {}
    for code in tiles:
        n = seen[code] = seen.get(code, 0) + 1
        if n > COPIES:  # the check below names the field
            _check_copies(tiles, where=lambda code: _where(hand, code))


def _check_copies(tiles: list[str], where: Callable[[str], str]) -> None:
    """No tile more than four times; `where` names the field that holds a tile."""
    for code in set(tiles):
        copies = tiles.count(code)
        if copies > COPIES:
            raise HandError(f"{copies} copies of {code}: a set has only {COPIES}", where(code))


def _where(hand: Hand, code: str) -> str:
    if code in hand.concealed:
        return "/concealed"
    return "/winning_tile" if code == hand.winning_tile else "/melds"


def check_flags(hand: Hand) -> None:
    """Conditions of the win that cannot hold together."""
    if not (hand.robbing_kong or hand.kong_replacement or hand.last_tile):
        return
    win = hand.winning_tile
    has_kong = any(m.kind == "kong" for m in hand.melds)
    in_melds = any(win in m.tiles for m in hand.melds)
    if hand.robbing_kong and hand.self_drawn:
        raise HandError(
            "robbing a kong is a win on another player's tile, not self-drawn", "/robbing_kong"
        )
    if hand.robbing_kong and (win in hand.concealed or in_melds):
        raise HandError(
            f"cannot rob a kong of {win} while holding a copy of it: the kong has the other three",
            "/robbing_kong",
        )
    if hand.robbing_kong and hand.last_of_wall:
        raise HandError(
            "no kong can be added on the last tile of the wall, so none can be robbed",
            "/robbing_kong",
        )
    if hand.kong_replacement and not hand.self_drawn:
        raise HandError(
            "out with a replacement tile (杠上开花) is a self-drawn win", "/kong_replacement"
        )
    if hand.kong_replacement and not has_kong:
        raise HandError(
            "out with a replacement tile needs a kong among the melds", "/kong_replacement"
        )
    if hand.last_tile and win in hand.concealed:
        raise HandError(
            f"last tile (和绝张) cannot hold while a copy of {win} is still in the hand",
            "/last_tile",
        )
