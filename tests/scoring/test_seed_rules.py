"""The rules of seed document 003 beyond plain patterns: Beijing's wild 会 tiles, dealer,
天和 / 地和, 烧庄 and 互包; Shanghai's claim before a win, 开宝, 荒番, eight flowers and 承包;
Sichuan's 天胡 / 地胡, 杠上炮, 清龙七对, the ordinary point table and the drawn hand. Each
test quotes the seed's words it rests on."""

from __future__ import annotations

import json
from typing import Any

import pytest

from api.cli import main
from scoring import read_notation, score
from scoring.other.drawn import settle_drawn


def scored(notation: str, ruleset: str, **table: Any) -> dict[str, Any]:
    context = {k: table.pop(k) for k in ("self_drawn", "seat_wind", "flowers") if k in table}
    return score(read_notation(notation, table=table, **context), ruleset).to_json()


def names(out: dict[str, Any]) -> dict[str, int]:
    return {f["name_zh"]: f["points"] * f["count"] for f in out["fans"]}


# --- Beijing -------------------------------------------------------------------------------


def test_beijing_a_wild_tile_stands_for_any_tile() -> None:
    # "Wild cards are called 'Hui cards'": the C completes 123m 456p 789s 111s 99m
    out = scored("123m456p789s111s9mC", "beijing", wild=["C"], seat_wind="S")
    assert out["valid"] and names(out) == {"推倒和": 1}
    # without it the same tiles are no win
    assert not scored("123m456p789s111s9mC", "beijing", seat_wind="S")["valid"]


def test_beijing_three_wild_tiles_must_self_draw() -> None:
    # "If you have three 'Hui cards' in your hand, you must touch them yourself"
    hand = "123m456p789s11sCCC"
    refused = scored(hand, "beijing", wild=["C"], seat_wind="S")
    assert not refused["valid"] and "three 会" in refused["error"]
    assert scored(hand, "beijing", wild=["C"], seat_wind="S", self_drawn=True)["valid"]


def test_beijing_four_wild_tiles_win_at_eight() -> None:
    # "Sihui card: automatically draw cards when encountering Sihui card. (8 times)": on any
    # tiles, here no winning shape at all
    out = scored("139m58p129sENCCCC", "beijing", wild=["C"], seat_wind="S", self_drawn=True)
    assert out["valid"] and names(out) == {"四会": 8} and out["total"] == 8


def test_beijing_no_concealed_hand_with_a_wild_tile() -> None:
    # "no untouched card in the opening column, and there is no 会 card in the hand"
    plain = scored("123m456p789s111s99m", "beijing", seat_wind="S")
    assert "门清" in names(plain)
    wild = scored("123m456p789s111s9mC", "beijing", wild=["C"], seat_wind="S")
    assert "门清" not in names(wild)


@pytest.mark.parametrize(
    ("seat", "dealer", "discarder", "dealer_counts"),
    [
        ("S", "S", None, True),  # the dealer wins, sitting South
        ("S", "W", "W", True),  # the dealer deals in: "counted when the dealer ... spears"
        ("S", "W", "N", False),  # "it is not counted when the family meets"
        ("E", "W", "N", False),  # East is not the dealer here
    ],
)
def test_beijing_dealer_is_a_seat(
    seat: str, dealer: str, discarder: str | None, dealer_counts: bool
) -> None:
    extra: dict[str, Any] = {"dealer": dealer}
    if discarder:
        extra["discarder"] = discarder
    out = scored("123m456p789s111s99m", "beijing", seat_wind=seat, **extra)
    assert ("庄" in names(out)) is dealer_counts


def test_beijing_an_all_honour_hand_is_not_a_full_flush() -> None:
    # "When all 14 cards of a draw are of the same suit": honours are no suit
    out = scored("EEESSSWWWNNNPP", "beijing", seat_wind="S")
    assert "清一色" not in names(out) and names(out) == {"门清": 1, "对对和": 2}
    assert "清一色" in names(scored("11123455678999m", "beijing", seat_wind="S"))


def test_beijing_heavenly_and_earthly_wins() -> None:
    # "Tianhe ... 'Tianhe' is not considered as 'Zhuang' (10 times)"
    heaven = scored("123m456p789s111s99m", "beijing", self_drawn=True, heavenly_win=True)
    assert names(heaven)["天和"] == 10 and "庄" not in names(heaven)
    assert {(e["id"], e["because_of"]) for e in heaven["excluded"]} == {(2, 14)}
    # "An idle player who forms a peace card before playing a game ... (8 times)"
    earth = scored("123m456p789s111s99m", "beijing", seat_wind="N", earthly_win=True,
                   discarder="W")  # fmt: skip
    assert names(earth)["地和"] == 8


def test_beijing_example_1_with_a_burned_round() -> None:
    # "After the start, there is 1 Lunshao Village. Finally, the owner touched it himself,
    # and the card type was right": owner 12000, the others -4000 each, at 2000 a unit
    out = scored("[222m,1][555p,1][EEE,2]777s99m", "beijing", self_drawn=True,
                 burned_rounds=1)  # fmt: skip
    assert names(out) == {"庄": 1, "对对和": 2, "烧庄": 1}
    pay = out["payments"]
    assert {seat: pay[seat] * 2000 for seat in "ESWN"} == {
        "E": 12000, "S": -4000, "W": -4000, "N": -4000
    }  # fmt: skip


def test_beijing_example_2_burned_rounds_and_mutual_pay() -> None:
    # "three rounds of burning village. Finally, the master handed the spear to Nanjia, and
    # the card type was pushed down. Nanjia and Beijia were tolerant of each other":
    # owner -6000, Nanjia 3000, Jia Xi 2000, Shell A (北家) 1000, at 500 a unit
    out = scored("[333p,1][777m,2]234m678p99s", "beijing", seat_wind="S", discarder="E",
                 burned_rounds=3, mutual_pay=["N"])  # fmt: skip
    assert names(out) == {"推倒和": 1, "庄": 1, "烧庄": 4}
    pay = out["payments"]
    assert {seat: pay[seat] * 500 for seat in "ESWN"} == {
        "E": -6000, "S": 3000, "W": 2000, "N": 1000
    }  # fmt: skip


def test_beijing_command_line_takes_dealer_discarder_and_wild(capsys: Any) -> None:
    argv = ["score", "--ruleset", "beijing", "--json", "123m456p789s111s9mC", "--seat", "S",
            "--dealer", "W", "--discarder", "W", "--wild", "C", "--wild", "P"]  # fmt: skip
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["unit"] == "fan" and names(out) == {"推倒和": 1, "庄": 1}


# --- Shanghai ------------------------------------------------------------------------------


def test_shanghai_a_win_needs_a_claim_first() -> None:
    # "Shanghai Mahjong is only allowed to draw cards after touching the Hu": read as a claim
    # (吃, 碰 or 杠 of a discard) before any win; a concealed kong is none
    out = scored("123m456p789s111s55p", "shanghai")
    assert not out["valid"] and "claim" in out["error"]
    assert not scored("[1111s]123m456p789s55p", "shanghai")["valid"]
    assert scored("[111s,1]123m456p789s55p", "shanghai")["valid"]


def test_shanghai_kaibao_and_huangfan_double() -> None:
    # "Qing Touch+Kaibao is 4 lira, Feng Touch+Huang Fan is 8 lira"
    assert scored("[999p,2][777p,1]111p555p33p", "shanghai", kaibao=True)["total"] == 40
    assert scored("[WWW,2][NNN,1]EEESSSCC", "shanghai", huangfan=True)["total"] == 80
    # "If there is a treasure, the integral is calculated by *2": a plain win of 2 + 1 flower
    out = scored("[EEE,1]123m456p789s55p", "shanghai", kaibao=True)
    assert out["total"] == 6 and names(out)["开宝"] == 3


def test_shanghai_eight_flowers_win_on_any_tiles() -> None:
    # "If you catch these eight flowers, you can count them as Hu cards ... directly counted
    # as two": no winning shape and no claim needed
    out = scored("1379m58p129sEWNCF", "shanghai", flowers=8, self_drawn=True)
    assert out["valid"] and names(out) == {"八花": 20}


def test_shanghai_contract_pays_the_whole_win() -> None:
    # "When contracting, the contractor pays one point for several shots and three points for
    # self-taking": three melds claimed from the left (North, for East) on a self-draw
    out = scored("[123m,1][456p,1][789s,1]111s55p", "shanghai", self_drawn=True)
    pay = out["payments"]
    assert pay["contractor"] == -6 and pay["N"] == -6 and pay["S"] == pay["W"] == 0


# --- Sichuan -------------------------------------------------------------------------------


@pytest.mark.parametrize(("ruleset", "value"), [("sichuan", 3), ("sichuan-ordinary", 8)])
def test_sichuan_heavenly_and_earthly_wins(ruleset: str, value: int) -> None:
    # blood battle "Three times (8 times): ... Tianhu ... Emperor tiger"; ordinary "8 points:
    # (1) Tianhu ... (2) as long as you play the first card, you will become Hu"
    heaven = scored("123m345m222p999p66p", ruleset, self_drawn=True, heavenly_win=True)
    earth = scored("123m345m222p999p66p", ruleset, seat_wind="S", earthly_win=True)
    assert heaven["total"] == earth["total"] == value
    assert "天胡" in names(heaven) and "地胡" in names(earth)


def test_sichuan_win_on_the_discard_after_a_kong() -> None:
    # "Gun on the bar: 1 time ... the player fills the cards after the lever, plays the
    # cards, and then fools other players"
    out = scored("123m345m222p999p66p", "sichuan", seat_wind="S", kong_discard=True)
    assert names(out) == {"平胡": 0, "杠上炮": 1} and out["total"] == 1


def test_sichuan_pure_dragon_seven_pairs_pays_no_extra_root() -> None:
    # "Seven pairs of dragons ... such as 1122444557799万. Subtract 1 when calculating the
    # number": 清龙七对 alone, its four not again as 根
    out = scored("11222244557799m", "sichuan")
    assert names(out) == {"清龙七对": 3} and out["total"] == 3
    # a second four is a 根, and the sum is shown capped: 4 番, capped at 3
    two = scored("11112222557799m", "sichuan")
    assert names(two) == {"清龙七对": 3, "根": 1} and two["total"] == 3


@pytest.mark.parametrize(
    ("notation", "context", "total", "items"),
    [
        # "Pinghu (1)+ 1 (1) = 2: 2222 cylinder 1.23 million 3.45 million 999 cylinder 66"
        ("[2222p]123m345m999p66p", {}, 2, {"平胡": 1, "杠": 1}),
        # "Seven pairs (3 points) +2 pairs (2 points) = seven pairs of Ssangyong (5 points)"
        ("11112222m446699p", {}, 5, {"龙七对": 4, "杠": 1}),
        # "Big pair (2 points)+one bar (1 point) = 3 points. 2222 cylinder 111 444万 999 66"
        ("[2222p]111m444m999p66p", {}, 3, {"对对胡": 2, "杠": 1}),
        # "All colors (3 points)+one (1 minute) = 4 points. Articles 8888, 123, 567, 234, 77"
        ("[8888s]123s567s234s77s", {}, 4, {"清一色": 3, "杠": 1}),
        # "2 points: (2) grab the bar Hu" = 平胡 1 + "Grab bar plus 1 point"
        ("123m345m23p999p66p", {"robbing_kong": True, "winning_tile": "4p"}, 2,
         {"平胡": 1, "抢杠": 1}),
        # "Add 2 points to the flowers on the bar"
        ("[2222p]123m345m999p66p", {"self_drawn": True, "kong_replacement": True}, 4,
         {"平胡": 1, "杠": 1, "杠上花": 2}),
    ],
)  # fmt: skip
def test_sichuan_ordinary_point_table(
    notation: str, context: dict[str, Any], total: int, items: dict[str, int]
) -> None:
    out = score(read_notation(notation, **context), "sichuan-ordinary").to_json()
    assert out["unit"] == "points" and out["total"] == total and names(out) == items


def test_sichuan_drawn_hand_flower_pig_and_waiting() -> None:
    # "花猪 pays 8 times points to each non-花猪 player. Step 2: Check the player who didn't
    # draw the cards (without 花猪) to compensate the player who drew the cards for the
    # maximum possible number of times (up to 3 times, that is, 8 times)"
    hands = {
        "E": read_notation("1113335557779s"),  # waits on 8s (清一色) and 9s (清对): 3 番
        "S": read_notation("123m456m789p1255s"),  # all three suits: 花猪
        "W": read_notation("123m456m789m1359p"),  # not waiting
        "N": read_notation("123m456m78m11p234p"),  # waits on 3m 6m 9m, 平胡: 0 番, paid 1
    }
    settled = settle_drawn(hands, "sichuan")
    # the pig pays 8 to each other; W, not waiting, pays E 8 and N 1
    assert settled.nets() == {"E": 8 + 8, "S": -24, "W": 8 - 8 - 1, "N": 8 + 1}
    ordinary = settle_drawn(hands, "sichuan-ordinary")  # "the lowest available score"
    assert ordinary.nets() == {"E": 3 + 3, "S": -3 - 1, "W": -3 - 1, "N": 1 + 1}


def test_drawn_command_line(capsys: Any) -> None:
    argv = ["drawn", "E=1113335557779s", "S=123m456m789p1255s", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert {t["why"] for t in out["transfers"]} == {"查花猪"}


def test_beijing_a_wild_tile_waits_on_more_than_its_face() -> None:
    # "The role of 'meeting class' is the same as the main card": 123m 456p 789s 111s and a
    # 会 wait on any tile the 会 can pair, not only on the 会's own face
    plain = scored("123m456p789s111sC", "beijing", seat_wind="S")
    wild = scored("123m456p789s111sC", "beijing", seat_wind="S", wild=["C"])
    assert [w["tile"] for w in plain["waits"]] == ["C"]
    assert {"1m", "5p", "E"} <= {w["tile"] for w in wild["waits"]}
