"""The hand generator: same seed same hands, every hand legal, every fan reached.

Legality and coverage are judged by PyMahjongGB (tests/scoring/pmgb.py), so they do not
depend on our own scorer.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from scoring.generate import generate_hands, random_hand
from scoring.tiles import FLOWERS, PLAYING, WINDS
from tests.scoring import pmgb

SIDES = {"left", "opposite", "right"}


def test_same_seed_same_hands() -> None:
    assert list(generate_hands(5, 200)) == list(generate_hands(5, 200))


def test_seeds_differ() -> None:
    assert list(generate_hands(5, 50)) != list(generate_hands(6, 50))


def test_random_hand_uses_only_its_rng() -> None:
    assert random_hand(random.Random(3)) == random_hand(random.Random(3))


def _check_meld(meld: dict) -> None:
    tiles = meld["tiles"]
    assert all(t in PLAYING for t in tiles)
    if meld["type"] == "chow":
        suit = tiles[0][1]
        ranks = sorted(int(t[0]) for t in tiles)
        assert all(t[1] == suit for t in tiles) and ranks == [ranks[0] + i for i in range(3)]
        assert meld["claimed_from"] == "left" and meld.get("claimed_tile", tiles[0]) in tiles
    else:
        assert len(set(tiles)) == 1 and len(tiles) == {"pung": 3, "kong": 4}[meld["type"]]
        assert meld.get("concealed") or meld["claimed_from"] in SIDES


def _check_hand(hand: dict) -> None:
    melds, concealed, winning = hand["melds"], hand["concealed"], hand["winning_tile"]
    for meld in melds:
        _check_meld(meld)
    assert 3 * len(melds) + len(concealed) + 1 == 14
    everything = Counter([*concealed, winning, *(t for m in melds for t in m["tiles"])])
    assert max(everything.values()) <= 4
    assert all(t in PLAYING for t in everything)
    flowers = hand["flowers"]
    if isinstance(flowers, int):
        assert 0 <= flowers <= 8
    else:
        assert all(f in FLOWERS for f in flowers) and len(set(flowers)) == len(flowers)
    assert hand["seat_wind"] in WINDS and hand["prevalent_wind"] in WINDS
    in_melds = sum(m["tiles"].count(winning) for m in melds)
    if hand["last_tile"]:
        assert winning not in concealed
    if in_melds == 3:
        assert hand["last_tile"]  # the other three copies are on show: it is the last
    if hand["robbing_kong"]:
        assert not hand["self_drawn"] and in_melds == 0 and winning not in concealed
        assert not hand["last_tile"] and not hand["last_of_wall"]
    if hand["kong_replacement"]:
        assert hand["self_drawn"] and any(m["type"] == "kong" for m in melds)
        assert not hand["last_of_wall"]


def test_hands_are_legal_and_pymahjonggb_accepts_them() -> None:
    for hand in generate_hands(11, 3000):
        _check_hand(hand)
        pmgb.fans(hand)  # raises TypeError on a wrong count or a shape that is not a win


def test_every_fan_is_reached_and_some_hands_are_under_eight() -> None:
    reached: Counter[int] = Counter()
    under_eight = 0
    for hand in generate_hands(1, 20_000):
        fans = pmgb.fans(hand)
        reached.update(fans)
        points = pmgb.total(hand) - fans.get(81, 0)  # flowers do not count toward the minimum
        under_eight += points < 8
    missing = [pmgb.FAN_NAMES[i - 1] for i in range(1, 82) if not reached[i]]
    assert not missing, f"never reached: {missing}"
    assert under_eight > 500


@pytest.mark.parametrize(
    ("melds", "concealed", "winning", "expected"),
    [
        # a concealed kong is PyMahjongGB's GANG with offer 0
        ([{"type": "kong", "tiles": ["1m"] * 4, "concealed": True}],
         ["2m", "3m", "4m", "5p", "6p", "7p", "2s", "3s", "4s", "C"], "C", 67),
        # a claimed kong from the right is a Melded Kong
        ([{"type": "kong", "tiles": ["1m"] * 4, "claimed_from": "right"}],
         ["2m", "3m", "4m", "5p", "6p", "7p", "2s", "3s", "4s", "C"], "C", 74),
        # p is dots (B), s bamboo (T): 234s 666s 888s FFF 33s is All Green
        ([], ["2s", "3s", "4s", "6s", "6s", "6s", "8s", "8s", "8s", "F", "F", "F", "3s"], "3s", 3),
        # 123p 123p 789p 789p 55p: Pure Terminal Chows in dots
        ([], ["1p", "2p", "3p", "1p", "2p", "3p", "7p", "8p", "9p", "7p", "8p", "9p", "5p"], "5p",
         13),
        # winds E S W N are F1-F4: pungs of all four are Big Four Winds
        ([{"type": "pung", "tiles": ["N"] * 3, "claimed_from": "left"}],
         ["E", "E", "E", "S", "S", "S", "W", "W", "W", "9m"], "9m", 1),
        # dragons C F P are J1-J3: three dragon pungs are Big Three Dragons
        ([{"type": "pung", "tiles": ["P"] * 3, "claimed_from": "opposite"}],
         ["C", "C", "C", "F", "F", "F", "1m", "2m", "3m", "9s"], "9s", 2),
    ],
)  # fmt: skip
def test_adapter_mapping_by_known_hands(
    melds: list[dict], concealed: list[str], winning: str, expected: int
) -> None:
    hand = {"melds": melds, "concealed": concealed, "winning_tile": winning, "flowers": []}
    assert expected in pmgb.fans(hand)


def test_adapter_chow_offer_and_flowers() -> None:
    hand = {
        "melds": [{"type": "chow", "tiles": ["7m", "8m", "9m"], "claimed_from": "left",
                   "claimed_tile": "9m"}],
        "concealed": ["1p", "2p", "3p", "4s", "5s", "6s", "2m", "3m", "4m", "E"],
        "winning_tile": "E", "flowers": ["1h", "6h"],
    }  # fmt: skip
    assert pmgb.arguments(hand)["pack"] == (("CHI", "W8", 3),)
    assert pmgb.fans(hand)[81] == 2
