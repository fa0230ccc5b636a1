"""`plain.plain_deal`: a plain win read straight into a Deal is a hand the full parser
accepts, turned into the same Deal; every other hand is left to the full parser."""

from __future__ import annotations

import copy
import random
from typing import Any

from scoring import score
from scoring.deal import Deal, deal_from_hand
from scoring.generate import generate_hands
from scoring.hand import HandError
from scoring.parse import parse_hand
from scoring.plain import plain_deal
from scoring.profiles import MCR_PROFILES
from scoring.table import TABLE_KEYS

PROFILE = MCR_PROFILES["mcr"]
DEAL_FIELDS = ("fixed", "standing", "win", "self_drawn", "last_tile", "wall_last", "about_kong",
               "seat", "prevalent", "flowers", "profile")  # fmt: skip


def _fields(deal: Deal) -> tuple[object, ...]:
    return tuple(getattr(deal, name) for name in DEAL_FIELDS)


def _mutations(hand: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """The hand with one thing changed, legal or not."""
    out = []
    for key, value in (
        ("self_drawn", 1), ("last_of_wall", True), ("last_tile", True), ("robbing_kong", None),
        ("kong_replacement", True), ("seat_wind", "X"), ("prevalent_wind", ["E"]),
        ("flowers", 9), ("flowers", ["1h", "1h"]), ("flowers", True), ("flowers", ["2h", "5h"]),
        ("winning_tile", "1h"), ("winning_tile", None), ("winning_tile", ["1m"]),
        ("ruleset", "mcr"), ("ruleset", "nope"), ("ruleset", 3), ("dealer", "E"),
        ("wild", ["C"]), ("bogus", 1), ("melds", {}), ("concealed", "1m"),
    ):  # fmt: skip
        out.append({**hand, key: value})
    for flags in ({"robbing_kong": True}, {"robbing_kong": True, "self_drawn": False},
                  {"robbing_kong": True, "self_drawn": False, "last_of_wall": True},
                  {"kong_replacement": True, "self_drawn": True}, {"last_tile": True},
                  {"last_tile": True, "robbing_kong": True, "self_drawn": False},
                  {"last_tile": 1}, {"kong_replacement": "yes"}):  # fmt: skip
        out.append({**hand, **flags})
    concealed = list(hand["concealed"])
    out.append({**hand, "concealed": [*concealed, "1m"]})
    out.append({**hand, "concealed": concealed[:-1]})
    out.append({**hand, "concealed": [*concealed[:-1], [1]]})
    out.append({**hand, "concealed": [*concealed[:-1], "0m"]})
    out.append({**hand, "concealed": [hand["winning_tile"]] * len(concealed)})
    if hand.get("melds"):
        melds = copy.deepcopy(hand["melds"])
        rng.choice(melds)["tiles"] = ["1m", "1m", "2m"]
        out.append({**hand, "melds": melds})
        out.append({**hand, "melds": [*hand["melds"], {"type": "pung", "tiles": ["C"] * 3}]})
    return out


def test_a_plain_deal_is_the_full_parsers_deal() -> None:
    rng = random.Random(5)
    read = 0
    hands = list(generate_hands(31, 1500))
    for hand in hands:
        score(hand)  # the full parser meets each meld once; plain_deal reads only those
    for hand in hands:
        for data in (hand, *_mutations(hand, rng)):
            plain = plain_deal(data, PROFILE)
            if plain is None:
                continue
            read += 1
            try:
                full = parse_hand(data)
            except HandError as exc:
                raise AssertionError(f"read as plain, refused by the parser: {data}") from exc
            assert _fields(plain.deal) == _fields(deal_from_hand(full, PROFILE)), data
            assert (plain.flowers, plain.flower_count) == (full.flowers, full.flower_count)
    assert read >= len(hands)  # the hands themselves and their legal variants are plain


def test_every_win_the_parser_accepts_without_table_facts_is_read_plain() -> None:
    rng = random.Random(7)
    accepted = 0
    for hand in generate_hands(32, 600):
        for data in (hand, *_mutations(hand, rng)):
            try:
                parse_hand(data)
            except (HandError, TypeError, ValueError, LookupError, AttributeError):
                continue
            if data.keys() & TABLE_KEYS:
                continue
            accepted += 1
            assert plain_deal(data, PROFILE) is not None, data
    assert accepted >= 600


def test_a_meld_is_checked_by_the_parsers_meld_check() -> None:
    meld = {"type": "chow", "tiles": ["9s", "7s", "8s"], "claimed_from": "left",
            "claimed_tile": "8s"}  # fmt: skip
    hand = {
        "melds": [meld],
        "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "E", "E", "E", "C"],
        "winning_tile": "C",
    }
    plain = plain_deal(hand, PROFILE)
    assert plain is not None
    assert _fields(plain.deal) == _fields(deal_from_hand(parse_hand(hand), PROFILE))
    for bad in ({**meld, "claimed_from": "right"}, {**meld, "tiles": ["9s", "7s", "7s"]},
                {**meld, "claimed_tile": "1m"}, {**meld, "type": "pair"}):  # fmt: skip
        refused = {**hand, "melds": [bad]}
        assert plain_deal(refused, PROFILE) is None
        result = score(refused)
        assert not result.valid and result.pointer is not None
        assert result.pointer.startswith("/melds/0")
