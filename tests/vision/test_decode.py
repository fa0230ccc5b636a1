"""Rule-aware decoding: the best legal hand, what the rules changed, confidence, hidden kongs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from scoring import score
from scoring.hand import Hand, Waiting
from scoring.tiles import PLAYING
from scoring.waits import winning_tiles
from vision.decode import Floor, decode, kept_sorted
from vision.layout import layout
from vision.looks import LOOK_H, LOOK_W, SHIFT
from vision.recognition import hand_json
from vision.roles import Role
from vision.simulate import lay_out_hand, read_as, tiles_from_annotations
from vision.types import Tiles

SURE = (40.0, 41.0)

HAND: dict[str, Any] = {
    "melds": [
        {"type": "chow", "tiles": ["4s", "5s", "6s"], "claimed_from": "left", "claimed_tile": "4s"},
        {"type": "pung", "tiles": ["E", "E", "E"], "claimed_from": "right"},
    ],
    "concealed": ["1m", "2m", "3m", "7p", "7p", "7p", "9s"],
    "winning_tile": "9s",
    "flowers": ["2h"],
}


def _tiles(hand: dict[str, Any] = HAND, **kwargs: Any) -> tuple[Tiles, list[dict[str, Any]]]:
    ann = lay_out_hand(hand, **kwargs)
    return tiles_from_annotations(ann, np.random.default_rng(0), SURE), ann


def _misread(tiles: Tiles, index: int, read: str, truth: str, p_read: float = 0.6) -> None:
    read_as(tiles, index, {read: p_read, truth: 1.0 - p_read})


def test_clean_reading_decodes_exactly() -> None:
    tiles, _ = _tiles()
    decoded = decode(tiles, layout(tiles), {"seat_wind": "S"})
    assert decoded.hand is not None
    assert sorted(hand_json(decoded.hand)["concealed"]) == sorted(HAND["concealed"])
    assert hand_json(decoded.hand)["winning_tile"] == "9s"
    assert hand_json(decoded.hand)["flowers"] == ["2h"]
    assert hand_json(decoded.hand)["seat_wind"] == "S"
    assert {m["type"] for m in hand_json(decoded.hand)["melds"]} == {"chow", "pung"}
    assert decoded.changes == [] and decoded.confidence > 0.99


def test_a_misread_tile_that_breaks_a_chow_is_fixed_by_the_rules() -> None:
    tiles, ann = _tiles()
    five = next(i for i, a in enumerate(ann) if a["code"] == "5s")
    _misread(tiles, five, "5p", "5s")  # 4s 5p 6s is no meld
    decoded = decode(tiles, layout(tiles))
    assert decoded.hand is not None
    chow = next(m for m in hand_json(decoded.hand)["melds"] if m["type"] == "chow")
    assert chow["tiles"] == ["4s", "5s", "6s"]
    (change,) = decoded.changes
    assert (change.tile, change.read, change.chosen) == (five, "5p", "5s")


def test_a_fifth_copy_is_impossible() -> None:
    hand = {**HAND, "concealed": ["E", "2m", "3m", "7p", "7p", "7p", "9s"]}
    hand["concealed"][0] = "1m"
    tiles, ann = _tiles(hand)
    one = next(i for i, a in enumerate(ann) if a["code"] == "1m")
    _misread(tiles, one, "E", "1m", 0.7)  # a fourth E beside the pung, and no winning shape
    decoded = decode(tiles, layout(tiles))
    assert decoded.hand is not None and "1m" in hand_json(decoded.hand)["concealed"]
    assert decoded.plausibility < 1.0


def test_a_floor_under_the_reading_changes_nothing_and_one_over_it_stops_the_search() -> None:
    hand = {**HAND, "concealed": ["E", "2m", "3m", "7p", "7p", "7p", "9s"]}
    hand["concealed"][0] = "1m"
    tiles, ann = _tiles(hand)
    one = next(i for i, a in enumerate(ann) if a["code"] == "1m")
    _misread(tiles, one, "E", "1m", 0.7)
    found = layout(tiles)
    free = decode(tiles, found)
    assert free.hand is not None and 0 < free.plausibility < 1
    at = float(np.log(free.plausibility))
    under = decode(tiles, found, None, Floor(win=at - 0.01))
    assert (under.hand, under.confidence, under.below_floor) == (free.hand, free.confidence, False)
    over = decode(tiles, found, None, Floor(win=at + 0.01))
    assert over.hand is None and over.below_floor
    assert over.readings_tried < free.readings_tried
    # The floor of the other kind (a hand waiting) does not apply to a win.
    other = decode(tiles, found, None, Floor(waiting=at + 0.01))
    assert other.hand == free.hand


def test_two_readings_close_in_probability_lower_the_confidence() -> None:
    # 9s pair vs 6s pair: the winning tile is read 50/50 and either completes the hand?
    tiles, ann = _tiles()
    win = next(i for i, a in enumerate(ann) if a["role"] == "winning")
    pair = next(i for i, a in enumerate(ann) if a["code"] == "9s" and a["role"] == "concealed")
    _misread(tiles, win, "8s", "9s", 0.5)
    _misread(tiles, pair, "8s", "9s", 0.5)
    decoded = decode(tiles, layout(tiles))
    assert decoded.hand is not None
    assert 0.3 < decoded.confidence < 0.7
    assert decoded.alternatives


SIXES_HAND: dict[str, Any] = {
    "melds": [],
    "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7p", "8p", "9p", "6s", "6s", "6s", "9s"],
    "winning_tile": "9s",
    "flowers": [],
}


def test_a_misread_that_puts_the_concealed_tiles_out_of_order_loses_to_one_that_keeps_it() -> None:
    """Held-out KDE wins: an unseen design's 6s read 9s, and the hand still legal (here the
    6s pair and a 9s pung instead of the 6s pung and a 9s pair). Laid in a player's order,
    9s 6s 6s is out of it: the reading that keeps the order wins though the classifier
    leans the other way."""
    tiles, ann = _tiles(SIXES_HAND)
    first_six = next(i for i, a in enumerate(ann) if a["code"] == "6s")
    _misread(tiles, first_six, "9s", "6s", 0.7)
    decoded = decode(tiles, layout(tiles))
    assert decoded.hand is not None
    assert hand_json(decoded.hand)["concealed"].count("6s") == 3
    assert decoded.codes[first_six] == "6s"


def test_a_hand_kept_unsorted_is_read_as_its_tiles_say_and_not_doubted() -> None:
    """Every reading of a hand kept unsorted pays the same: the order changes nothing, and
    the tiles read surely are no overruled reading."""
    shuffled = [*SIXES_HAND["concealed"]]
    shuffled[0], shuffled[10] = shuffled[10], shuffled[0]  # 6s 2m 3m ... 1m 6s 9s
    hand = {**SIXES_HAND, "concealed": shuffled}
    tiles, _ = _tiles(hand)
    decoded = decode(tiles, layout(tiles))
    assert decoded.hand is not None
    assert sorted(hand_json(decoded.hand)["concealed"]) == sorted(shuffled)
    assert decoded.confidence > 0.99 and decoded.plausibility > 0.99


@pytest.mark.parametrize(
    ("codes", "kept"),
    [
        (["1m", "2m", "5p", "5p", "7s", "E", "C"], True),
        (["C", "E", "7s", "5p", "5p", "2m", "1m"], True),  # read from the other end
        (["7s", "8s", "1m", "2m", "S", "S"], True),  # any order of the suits
        (["1m", "3m", "2m"], False),  # a rank out of order
        (["1m", "5p", "2m"], False),  # a suit in two places
        (["E", "1m", "W"], False),  # the honours in two places
        ([], True),
    ],
)
def test_kept_sorted(codes: list[str], kept: bool) -> None:
    assert kept_sorted(codes) is kept


EIGHTS_HAND: dict[str, Any] = {
    "melds": [
        {"type": "chow", "tiles": ["7s", "8s", "9s"], "claimed_from": "left", "claimed_tile": "7s"},
        {"type": "pung", "tiles": ["E", "E", "E"], "claimed_from": "right"},
    ],
    "concealed": ["1m", "2m", "3m", "7p", "7p", "7p", "8s"],
    "winning_tile": "8s",
    "flowers": [],
}


def _looks(codes: list[str]) -> np.ndarray:
    """Faces as `vision.looks.describe` keeps them: copies of a code alike, codes unlike."""
    shape = (3, LOOK_H + 2 * SHIFT, LOOK_W + 2 * SHIFT)
    noise = np.random.default_rng(1)
    looks = []
    for code in codes:
        pattern = np.random.default_rng(sum(map(ord, code))).random(shape)
        looks.append(pattern + 0.05 * noise.random(shape))
    return np.array(looks, np.float32)


def test_tiles_read_as_a_code_they_do_not_look_like_are_parted() -> None:
    # Both 8s of the pair read 9s (0.6 against 0.4): 9s 9s beside the chow's 9s is as legal as
    # 8s 8s. The photo shows the pair looks like the chow's 8s, not its 9s.
    tiles, ann = _tiles(EIGHTS_HAND)
    pair = [i for i, a in enumerate(ann) if a["code"] == "8s" and a["role"] != "meld"]
    for i in pair:
        _misread(tiles, i, "9s", "8s")
    unseen = decode(tiles, layout(tiles))
    assert unseen.hand is not None and hand_json(unseen.hand)["winning_tile"] == "9s"
    tiles.looks = _looks([a["code"] for a in ann])
    decoded = decode(tiles, layout(tiles))
    assert decoded.hand is not None and hand_json(decoded.hand)["winning_tile"] == "8s"
    assert sorted(c.tile for c in decoded.changes) == sorted(pair)
    # The looks chose the hand; its confidence is still the probabilities' own (0.6^2 vs 0.4^2).
    assert decoded.confidence < 0.5


KONG_HAND: dict[str, Any] = {
    "melds": [{"type": "kong", "tiles": ["5p"] * 4, "concealed": True}],
    "concealed": ["1m", "2m", "3m", "4s", "5s", "6s", "7m", "8m", "9m", "N"],
    "winning_tile": "N",
    "flowers": [],
}


def test_concealed_kong_with_two_faces_up_reads_its_tile() -> None:
    tiles, _ = _tiles(KONG_HAND, kong_style="ends")
    decoded = decode(tiles, layout(tiles))
    assert decoded.hand is not None
    assert hand_json(decoded.hand)["melds"] == [
        {"type": "kong", "tiles": ["5p"] * 4, "concealed": True}
    ]


def test_a_concealed_kong_whose_two_faces_read_as_two_tiles_is_implausible() -> None:
    """Its faces shown are its raw reading: naming 5p 6p one tile overrules a sure 6p."""
    tiles, _ = _tiles(KONG_HAND, kong_style="ends")
    found = layout(tiles)
    (kong,) = [g for g in found.groups if g.role is Role.CONCEALED_KONG]
    up = [i for i in kong.tiles if not tiles.face_down[i]]
    read_as(tiles, up[1], {"6p": 0.99, "5p": 0.01})
    decoded = decode(tiles, found)
    assert decoded.hand is not None and decoded.plausibility < 0.02


def test_hidden_concealed_kong_takes_its_tile_from_the_context() -> None:
    tiles, _ = _tiles(KONG_HAND, kong_style="all")
    decoded = decode(tiles, layout(tiles), {"concealed_kongs": ["5p"]})
    assert decoded.hand is not None
    assert hand_json(decoded.hand)["melds"][0]["tiles"] == ["5p"] * 4


def test_hidden_concealed_kong_without_context_is_not_guessed() -> None:
    tiles, _ = _tiles(KONG_HAND, kong_style="all")
    decoded = decode(tiles, layout(tiles))
    assert decoded.hand is None
    assert any("concealed kong" in w for w in decoded.warnings)


def test_wrong_tile_count_says_so() -> None:
    tiles, ann = _tiles()
    keep = np.array([a["role"] != "concealed" or a["code"] not in ("1m", "2m") for a in ann])
    fewer = tiles[keep]
    decoded = decode(fewer, layout(fewer))
    assert decoded.hand is None and not decoded.waiting
    assert any("12 hand tiles" in w for w in decoded.warnings)


WAITING: dict[str, Any] = {
    "melds": HAND["melds"],
    "concealed": ["1m", "2m", "3m", "7p", "8p", "9s", "9s"],  # waits on 6p and 9p
    "flowers": ["2h"],
}


def _waits(hand: Hand | Waiting | None) -> tuple[str, ...]:
    """The tiles that complete a hand read as waiting to win (scoring's own type)."""
    assert isinstance(hand, Waiting)
    return winning_tiles(hand)


def test_thirteen_tiles_read_as_a_hand_waiting_to_win() -> None:
    tiles, _ = _tiles(WAITING)
    decoded = decode(tiles, layout(tiles), {"seat_wind": "S"})
    assert decoded.waiting and decoded.hand is not None
    assert hand_json(decoded.hand)["winning_tile"] is None
    assert sorted(hand_json(decoded.hand)["concealed"]) == sorted(WAITING["concealed"])
    assert {m["type"] for m in hand_json(decoded.hand)["melds"]} == {"chow", "pung"}
    assert hand_json(decoded.hand)["seat_wind"] == "S" and hand_json(decoded.hand)["flowers"] == [
        "2h"
    ]
    assert "self_drawn" not in hand_json(
        decoded.hand
    )  # a flag of one win: each wait is scored both ways
    assert _waits(decoded.hand) == ("6p", "9p")
    assert decoded.changes == [] and decoded.confidence > 0.99


def test_a_misread_tile_of_a_waiting_hand_is_read_as_the_tile_that_leaves_it_waiting() -> None:
    tiles, ann = _tiles(WAITING)
    eight = next(i for i, a in enumerate(ann) if a["code"] == "8p")
    _misread(tiles, eight, "8s", "8p", 0.7)  # 1m2m3m 7p 8s 9s9s waits on nothing
    decoded = decode(tiles, layout(tiles))
    assert decoded.waiting and decoded.hand is not None
    assert sorted(hand_json(decoded.hand)["concealed"]) == sorted(WAITING["concealed"])
    (change,) = decoded.changes
    assert (change.tile, change.read, change.chosen) == (eight, "8s", "8p")
    assert decoded.plausibility < 1.0


def test_a_waiting_hand_of_seven_pairs_is_corrected_too() -> None:
    pairs = ["1m", "1m", "4p", "4p", "9p", "9p", "3s", "3s", "E", "E", "C", "C", "7s"]
    hand = {"melds": [], "concealed": pairs, "flowers": []}
    tiles, ann = _tiles(hand)
    single = next(i for i, a in enumerate(ann) if a["code"] == "4p")
    _misread(tiles, single, "5p", "4p", 0.7)  # 4p 5p is no pair: waits on nothing
    decoded = decode(tiles, layout(tiles))
    assert decoded.hand is not None and sorted(hand_json(decoded.hand)["concealed"]) == sorted(
        pairs
    )
    assert _waits(decoded.hand) == ("7s",)


def test_thirteen_tiles_whose_only_wait_is_a_fifth_copy_are_not_read_as_waiting() -> None:
    # 123m 456p 789s EEEE waits only on a fifth E: the rules must overrule some sure tile.
    concealed = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "E"]
    tiles, _ = _tiles({"melds": [], "concealed": concealed})
    decoded = decode(tiles, layout(tiles))
    assert decoded.hand is None or decoded.plausibility < 0.02


def test_a_tile_set_apart_counts_among_thirteen() -> None:
    """Laid out as a win with one concealed tile missing: no win has 13 tiles, so the tile
    set apart is one of a hand waiting to win."""
    tiles, ann = _tiles()
    one = next(i for i, a in enumerate(ann) if a["code"] == "1m")
    fewer = tiles[np.arange(len(tiles)) != one]
    decoded = decode(fewer, layout(fewer), {"self_drawn": True})
    assert decoded.waiting and decoded.hand is not None
    assert sorted(hand_json(decoded.hand)["concealed"]) == [
        "2m",
        "3m",
        "7p",
        "7p",
        "7p",
        "9s",
        "9s",
    ]
    assert _waits(decoded.hand) == ("1m", "4m")
    assert any("self_drawn left out" in w for w in decoded.warnings)


def test_flowers_are_distinct() -> None:
    hand = {**HAND, "flowers": ["1h", "2h"]}
    tiles, ann = _tiles(hand)
    first = next(i for i, a in enumerate(ann) if a["code"] == "1h")
    _misread(tiles, first, "2h", "1h", 0.6)  # two 2h: a set has one of each flower
    decoded = decode(tiles, layout(tiles))
    assert decoded.hand is not None and hand_json(decoded.hand)["flowers"] == ["1h", "2h"]


def test_flower_confidence_counts_only_namings_a_set_allows() -> None:
    """Two flower tiles each read half 1h, half 5h: alone each is a coin toss, but a set holds
    one 1h and one 5h, so the pair is named right half the time, not a quarter. The bare
    product left the real-face wins' flower doubts underconfident: photos at 0.3-0.5 had
    their flowers right two times in three."""
    hand = {**HAND, "flowers": ["1h", "5h"]}
    tiles, ann = _tiles(hand)
    for code in ("1h", "5h"):
        read_as(
            tiles, next(i for i, a in enumerate(ann) if a["code"] == code), {"1h": 0.5, "5h": 0.5}
        )
    decoded = decode(tiles, layout(tiles))
    assert decoded.hand is not None and hand_json(decoded.hand)["flowers"] == ["1h", "5h"]
    assert decoded.flower_confidence == pytest.approx(0.5, abs=0.01)


def test_flower_confidence_of_sure_flowers_stays_sure() -> None:
    tiles, _ = _tiles({**HAND, "flowers": ["1h", "5h", "7h"]})
    decoded = decode(tiles, layout(tiles))
    assert decoded.flower_confidence > 0.99


def test_flowers_that_look_alike_are_named_of_one_group() -> None:
    """A set prints its flowers alike and its seasons alike. Two flower tiles, the one read
    1h (0.6) or 5h, the other 6h (0.55) or 2h: alone they are 1h and 6h. Printed alike, they
    are of one group, and 1h 2h (0.6 x 0.45) outweighs 5h 6h (0.4 x 0.55). Held-out GNOME
    postmodern's seasons (a blue card) read as the flower of their number (a brown card)."""
    hand = {**HAND, "flowers": ["1h", "2h"]}
    tiles, ann = _tiles(hand)
    first, second = (next(i for i, a in enumerate(ann) if a["code"] == c) for c in ("1h", "2h"))
    read_as(tiles, first, {"1h": 0.6, "5h": 0.4})
    read_as(tiles, second, {"6h": 0.55, "2h": 0.45})
    unseen = decode(tiles, layout(tiles))
    assert unseen.hand is not None and hand_json(unseen.hand)["flowers"] == ["1h", "6h"]
    codes = [a["code"] for a in ann]
    tiles.looks = _looks(["one group" if c in ("1h", "2h") else c for c in codes])
    decoded = decode(tiles, layout(tiles))
    assert decoded.hand is not None and hand_json(decoded.hand)["flowers"] == ["1h", "2h"]
    assert unseen.flower_confidence < decoded.flower_confidence < 0.6
    tiles.looks = _looks(codes)  # printed unlike: a flower and a season
    apart = decode(tiles, layout(tiles))
    assert apart.hand is not None and hand_json(apart.hand)["flowers"] == ["1h", "6h"]


def test_flower_count_from_context_wins() -> None:
    tiles, _ = _tiles({**HAND, "flowers": []})
    decoded = decode(tiles, layout(tiles), {"flowers": 3})
    assert decoded.hand is not None and hand_json(decoded.hand)["flowers"] == 3


def test_a_doubtful_extra_detection_is_left_out() -> None:
    hand = {**HAND, "concealed": [*HAND["concealed"], "5m"]}  # one tile too many...
    tiles, ann = _tiles(hand)
    extra = next(i for i, a in enumerate(ann) if a["code"] == "5m")
    tiles.confidence[extra] = 0.3  # ...that the detector doubted
    decoded = decode(tiles, layout(tiles))
    assert decoded.hand is not None and "5m" not in hand_json(decoded.hand)["concealed"]
    assert any(f"#{extra}" in w for w in decoded.warnings)
    tiles.confidence[extra] = 0.9  # a confident detection is never dropped
    assert decode(tiles, layout(tiles)).hand is None


def test_shape_check_accepts_every_generated_winning_hand() -> None:
    import random

    from scoring.generate import random_hand
    from vision.shape import counts_of, is_winning

    rng = random.Random(4)
    for _ in range(300):
        hand = random_hand(rng)
        concealed = counts_of([*hand["concealed"], hand["winning_tile"]])
        assert is_winning(concealed, len(hand["melds"])), hand


@pytest.mark.parametrize(
    ("tiles", "melds", "wins"),
    [
        ("1m 1m 2p 2p 3s 3s 4s 4s 5m 5m E E C C", 0, True),  # seven pairs 七对
        ("1m 9m 1p 9p 1s 9s E S W N C F P P", 0, True),  # thirteen orphans 十三幺
        ("1m 4m 7m 2p 5p 8p 3s 6s 9s E S W N C", 0, True),  # honours and knitted 全不靠
        ("1m 4m 7m 2p 5p 8p 3s 6s 9s 5m 5m", 1, True),  # knitted straight 组合龙 + meld
        ("1m 2m 4m 5p 5p", 3, False),  # no chow 1-2-4
        ("1m 1m 1m 2m 5p", 3, False),  # a pung and no pair
    ],
)
def test_special_shapes(tiles: str, melds: int, wins: bool) -> None:
    from vision.shape import counts_of, is_winning

    assert is_winning(counts_of(tiles.split()), melds) is wins


@pytest.mark.parametrize(
    ("tiles", "melds", "waits"),
    [
        ("1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m", 0, "1m 2m 3m 4m 5m 6m 7m 8m 9m"),  # 九莲宝灯
        ("1m 1m 4p 4p 9p 9p 3s 3s E E C C 7s", 0, "7s"),  # seven pairs
        ("1m 9m 1p 9p 1s 9s E S W N C F P", 0, "1m 9m 1p 9p 1s 9s E S W N C F P"),
        ("1m 4m 7m 2p 5p 8p 3s 6s E S W N C", 0, "9s F P"),  # 全不靠
        ("1m 4m 7m 2p 5p 8p 3s 6s 9s 5m", 1, "5m"),  # 组合龙 beside a declared set
        ("4m", 4, "4m"),  # a single wait beside four melds
        ("1m 2m 4p 6p 8p 1s 3s 5s 7s E W C F", 0, ""),  # waits on nothing
    ],
)
def test_waits_of_13_tiles(tiles: str, melds: int, waits: str) -> None:
    from vision.shape import counts_of, waits_of

    got = [PLAYING[t] for t in sorted(waits_of(counts_of(tiles.split()), melds))]
    assert got == waits.split()


def test_a_wait_on_a_fifth_copy_is_no_wait() -> None:
    from vision.shape import counts_of, is_waiting

    held = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "E"]
    tiles = counts_of(held)
    assert not is_waiting(tiles, 0, tiles)  # only a fifth E completes it
    assert is_waiting(tiles, 0, counts_of(held[:-1]))  # three held: a fourth E is a wait


def test_melds_are_still_read_as_melds_when_no_hand_is_found() -> None:
    tiles, ann = _tiles()
    keep = np.array([a["role"] != "concealed" or a["code"] not in ("1m", "2m") for a in ann])
    fewer = tiles[keep]  # 12 tiles: no legal hand
    kept = [a for a, k in zip(ann, keep, strict=True) if k]
    five = next(i for i, a in enumerate(kept) if a["code"] == "5s")
    _misread(fewer, five, "5p", "5s")  # 4s 5p 6s is no meld
    decoded = decode(fewer, layout(fewer))
    assert decoded.hand is None
    assert decoded.codes[five] == "5s"
    assert any(m["type"] == "chow" for m in decoded.melds)


ROBBED: dict[str, Any] = {
    "melds": HAND["melds"],
    "concealed": ["1m", "2m", "7p", "7p", "7p", "9s", "9s"],
    "winning_tile": "3m",
    "robbing_kong": True,
}


def test_runner_up_readings_are_only_hands_scoring_accepts() -> None:
    """Won by robbing a kong of 3m, with a pair of 9s each read nearly as 3m: reading the
    pair as 3m makes a winning shape, but no legal hand (the robbed kong holds the other
    three 3m). Such a reading is no alternative to offer a person."""
    tiles, ann = _tiles(ROBBED)
    for i, a in enumerate(ann):
        if a["code"] == "9s":
            _misread(tiles, i, "9s", "3m", p_read=0.55)
    decoded = decode(tiles, layout(tiles), {"robbing_kong": True})
    assert isinstance(decoded.hand, Hand) and decoded.hand.winning_tile == "3m"
    assert decoded.hand.concealed.count("9s") == 2
    assert all(score(hand).valid for hand, _ in decoded.alternatives)
