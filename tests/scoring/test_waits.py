"""Waits of a hand of 13 tiles, each win scored, and the discards of 14 tiles in no shape."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import (
    HandError,
    Waiting,
    discards,
    parse_notation,
    parse_waiting,
    read_notation,
    score,
    waits,
    winning_tiles,
)
from scoring.waiting_hands import waiting_hands


def waiting(notation: str, **context: Any) -> Waiting:
    hand = read_notation(notation, **context)
    assert isinstance(hand, Waiting)
    return hand


def tiles_of(notation: str) -> str:
    return " ".join(winning_tiles(waiting(notation)))


@pytest.mark.parametrize(
    ("notation", "expected"),
    [
        ("123456789m1234p", "1p 4p"),  # two-sided single waits 1234p
        ("123456789m12p99s", "3p"),  # edge
        ("123456789m13p99s", "2p"),  # closed
        ("123456789m55p99s", "5p 9s"),  # either pair
        ("1112345678999m", "1m 2m 3m 4m 5m 6m 7m 8m 9m"),  # nine gates
        ("2223456777888p", "1p 2p 3p 4p 5p 6p 7p 8p"),  # all but 9p
        ("[EEE,1][123m][456m]789p1s", "1s"),  # a single tile beside three melds
        ("[EEE,1][123m][456m][789p,2]1s", "1s"),  # and beside four
        ("11m22m33p44p55s66sE", "E"),  # seven pairs
        ("1111m33p55s77s99sE", "E"),  # seven pairs, four of a kind as two pairs
        ("111m33p55s77s99sEE", "1m"),  # the fourth 1m makes 111m two pairs
        ("19m19p19sESWNCFP", "1m 9m 1p 9p 1s 9s E S W N C F P"),  # thirteen orphans, 13-sided
        ("119m19p19sESWNCF", "P"),  # thirteen orphans, the missing one
        ("147m258p369sESWN", "C F P"),  # honors and knitted: the honors missing
        ("147m258p36sESWNC", "9s F P"),  # a knitted tile or an honor
        ("14m25p36sESWNCFP", "7m 8p 9s"),  # greater honors and knitted (七星不靠): a suited tile
        ("147m258p369s1123p", "1p 4p"),  # knitted straight + 123p + a pair to come
        ("147m258p36s12355p", "9s"),  # knitted straight missing its 9s
        ("[EEE,1]147m258p369s9s", "9s"),  # knitted straight beside a meld, single wait
        ("[EEE,1]147m258p36s99s", "9s"),  # and its own missing tile beside the 99s pair
        ("159m26p37s48sESWC", ""),  # nothing
    ],
)
def test_shapes(notation: str, expected: str) -> None:
    assert tiles_of(notation) == expected


# PyMahjongGB's shape functions list each of these fifth copies as a wait as well.
@pytest.mark.parametrize(
    ("notation", "expected"),
    [
        ("1111234567999m", "4m 7m 8m"),  # not 1m: 11m + 111m would need five
        ("[567m,1]4445667778m", "4m"),  # not 7m: three concealed and one in the chow
        ("[9999m]3456667888m", "2m 5m 6m 7m 8m"),  # not 9m: the concealed kong holds all four
    ],
)
def test_a_fifth_copy_is_no_wait(notation: str, expected: str) -> None:
    assert tiles_of(notation) == expected


def test_unseen_counts_the_hands_own_tiles_and_melds() -> None:
    # 5m: none concealed, three in the declared pung: the last copy, so Last Tile (和绝张)
    hand = waiting("[555m,1]46m123p456s99s")
    (wait,) = waits(hand)
    assert wait.tile == "5m" and wait.unseen == 1
    assert 58 in {f.id for f in wait.discard.fans}
    (nine,) = [w for w in waits(waiting("147m258p369s1123p")) if w.tile == "4p"]
    assert nine.unseen == 4


def test_each_win_scored_on_a_discard_and_self_drawn() -> None:
    hand = waiting("123456789m1234p", seat_wind="S", prevalent_wind="W", flowers=2)
    found = {w.tile: w for w in waits(hand)}
    assert set(found) == {"1p", "4p"}
    one = found["1p"]
    assert one.unseen == 3 and one.discard.valid and one.self_drawn.valid
    assert one.self_drawn.total > one.discard.total  # Self-Drawn, Fully Concealed Hand
    assert 56 in {f.id for f in one.self_drawn.fans} and 62 in {f.id for f in one.discard.fans}
    assert one.discard.flower_points == 2 and one.discard.payments is not None


def test_under_the_minimum_is_marked() -> None:
    # two chows claimed: 3 points on a discard, 4 self-drawn; listed all the same
    hand = waiting("[123m,1][567p,1]789s23p55s")
    found = waits(hand)
    assert [(w.tile, w.discard.total, w.self_drawn.total) for w in found] == [
        ("1p", 3, 4),
        ("4p", 3, 4),
    ]
    assert all(w.discard.valid and not w.discard.meets_minimum for w in found)
    assert all(w.discard.payments is None for w in found)


def test_other_rule_sets_keep_only_the_wins_they_take() -> None:
    hand = waiting("123456789m1234p")
    assert [w.tile for w in waits(hand, "sichuan")] == ["1p", "4p"]  # two suits: allowed
    three_suits = waiting("123m456p789s1234p")
    assert waits(three_suits, "sichuan") == ()  # Sichuan wants one suit missing
    assert [w.tile for w in waits(three_suits, "beijing")] == ["1p", "4p", "7p"]
    assert all(w.discard.meets_minimum for w in waits(three_suits, "beijing"))  # no minimum


def test_every_generated_wait_is_a_legal_win() -> None:
    for data in waiting_hands(7, 150):
        hand = parse_waiting(data)
        found = waits(hand)
        assert found, data  # a win less one tile waits at least on that tile
        for wait in found:
            assert wait.discard.valid and wait.self_drawn.valid, (data, wait.tile)
            assert 1 <= wait.unseen <= 4


def test_score_json_of_a_hand_of_13_tiles() -> None:
    data: dict[str, Any] = {
        "melds": [{"type": "pung", "tiles": ["E", "E", "E"], "claimed_from": "left"}],
        "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "N"],
        "seat_wind": "E",
    }
    result = score(data).to_json()
    assert not result["valid"] and result["total"] == 0 and "waiting on N" in result["error"]
    (wait,) = result["waits"]
    assert wait["tile"] == "N" and wait["unseen"] == 3
    assert wait["discard"]["valid"] and wait["discard"]["payments"] is not None
    assert {f["id"] for f in wait["self_drawn"]["fans"]} >= {61, 80}  # Seat Wind, Self-Drawn
    assert "discards" not in result
    assert score({**data, "winning_tile": None}).to_json() == result
    assert "waits" not in score({**data, "concealed": [*data["concealed"], "N"],
                                 "winning_tile": "N"}).to_json()  # fmt: skip


def test_not_waiting_is_an_answer_too() -> None:
    result = score(read_notation("159m26p37s48sESWC"))
    assert result.waits == () and result.error is not None and "no tile completes" in result.error


@pytest.mark.parametrize(
    ("data", "pointer", "words"),
    [
        ({"concealed": ["1m"] * 3}, "/winning_tile", "winning_tile is missing"),
        ({"concealed": ["1m", "2m", "3m"] * 4 + ["4m", "5m"]}, "/winning_tile", "this one has 14"),
        ({"concealed": ["1m"] * 5 + ["2m"] * 4 + ["3m"] * 4}, "/concealed", "5 copies of 1m"),
        (
            {
                "melds": [{"type": "kong", "tiles": ["1m"] * 4, "concealed": True}],
                "concealed": ["1m", *["2m"] * 4, *["3m"] * 4, "4m"],
            },
            "/concealed",
            "5 copies of 1m",
        ),
        (
            {"concealed": ["1m", "2m", "3m"] * 4 + ["4m"], "self_drawn": True},
            "/self_drawn",
            "describes one win",
        ),
        (
            {"concealed": ["1m", "2m", "3m"] * 4 + ["4m"], "robbing_kong": True},
            "/robbing_kong",
            "describes one win",
        ),
        ({"concealed": ["1m", "2m", "3m"] * 4 + ["4m"], "flowers": 9}, "/flowers", "8 flowers"),
    ],
)
def test_bad_waiting_hands(data: dict[str, Any], pointer: str, words: str) -> None:
    with pytest.raises(HandError) as caught:
        parse_waiting(data)
    assert caught.value.pointer == pointer and words in caught.value.message
    result = score(data)
    assert not result.valid and result.waits is None and result.pointer == pointer


def test_last_of_wall_holds_for_every_wait() -> None:
    hand = waiting("123456789m1234p", last_of_wall=True)
    wait = waits(hand)[0]
    assert 44 in {f.id for f in wait.self_drawn.fans}  # Last Tile Draw 妙手回春
    assert 45 in {f.id for f in wait.discard.fans}  # Last Tile Claim 海底捞月


def test_read_notation_keeps_fourteen_tiles_a_win() -> None:
    assert not isinstance(read_notation("123456789m123p55s"), Waiting)
    assert not isinstance(read_notation("123456789m1234p", winning_tile="4p"), Waiting)


# --- 14 tiles in no winning shape: what to discard ----------------------------------------------


def test_discards_of_fourteen_tiles() -> None:
    hand = parse_notation("123456789m1235p9s")
    advice = {d.tile: [w.tile for w in d.waits] for d in discards(hand)}
    assert advice == {"5p": ["9s"], "9s": ["5p"]}


def test_discards_most_copies_first() -> None:
    # 1234p 6p: letting 6p go waits on 1p and 4p (6 copies); letting 1p go, on 5p (3)
    hand = parse_notation("123456789m1234p6p")
    found = discards(hand)
    assert found[0].tile == "6p" and [w.tile for w in found[0].waits] == ["1p", "4p"]
    assert found[0].unseen == sum(w.unseen for w in found[0].waits) == 6
    assert [d.unseen for d in found] == sorted((d.unseen for d in found), reverse=True)


def test_score_of_fourteen_tiles_in_no_shape_lists_discards() -> None:
    result = score(read_notation("123456789m1235p9s")).to_json()
    assert not result["valid"] and "no MCR winning shape" in result["error"]
    assert [d["tile"] for d in result["discards"]] == ["5p", "9s"]
    assert result["discards"][0]["waits"][0]["tile"] == "9s"
    # a win under the minimum is valid: nothing to discard, no key
    assert "discards" not in score(read_notation("[123m,1][567p,1]789s23p55s1p")).to_json()


def test_discards_for_special_shapes() -> None:
    # thirteen orphans with a stray 5m: letting it go waits on all thirteen
    hand = parse_notation("19m19p19sESWNCFP5m")
    best = discards(hand)[0]
    assert best.tile == "5m" and len(best.waits) == 13
