"""Sichuan, Shanghai and Beijing scoring, on hands whose value seed document 003 states.

Where the seed's example is garbled by the translation, the hand is rebuilt from the words
around it; the comment quotes what the text says the hand is worth.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.generate import generate_hands
from scoring.other import OTHER_RULESETS, score_other


def tiles(text: str) -> list[str]:
    """`111222m99p` -> ["1m", "1m", ...]; honors as single letters: `EEESSS`."""
    out: list[str] = []
    ranks = ""
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            ranks += ch
        elif ch in "mps":
            out += [f"{r}{ch}" for r in ranks]
            ranks = ""
        else:
            out.append(ch)
    return out


def hand(concealed: str, win: str, *melds: dict[str, Any], **flags: Any) -> dict[str, Any]:
    return {"melds": list(melds), "concealed": tiles(concealed), "winning_tile": win,
            "flowers": [], **flags}  # fmt: skip


def pung(tile: str, side: str = "opposite") -> dict[str, Any]:
    return {"type": "pung", "tiles": [tile] * 3, "claimed_from": side}


def kong(tile: str, concealed: bool = False) -> dict[str, Any]:
    if concealed:
        return {"type": "kong", "tiles": [tile] * 4, "concealed": True}
    return {"type": "kong", "tiles": [tile] * 4, "claimed_from": "right"}


def result(h: dict[str, Any], ruleset: str) -> dict[str, Any]:
    out = score_other(h, ruleset).to_json()
    assert out["valid"], out["error"]
    return out


def fan_names(out: dict[str, Any]) -> dict[str, int]:
    return {f["name_zh"]: f["count"] for f in out["fans"]}


# --- Sichuan 血战到底: 番, highest base pattern + extras, capped at 3 ------------------------


@pytest.mark.parametrize(
    ("h", "total", "base"),
    [
        # "Pinghu (basic Hu) ... four columns plus a general": 234 456 77p 345 789s, 0 番
        (hand("234456p7p345789s", "7p"), 0, "平胡"),
        # "Hu Dui (big pair) ... 111 222 444 万 333 99 筒": 1 番
        (hand("111222444m3339p", "9p"), 1, "对对胡"),
        # "All in one suit ... 11 333 222 456 999 条": 2 番
        (hand("1133322245699s", "9s"), 2, "清一色"),
        # "With nine ... 111 222 333 万 789 99 筒" (123m three times): 2 番
        (hand("111222333m7899p", "9p"), 2, "带幺九"),
        # "Seven pairs, the players' hands are all in pairs": 2 番
        (hand("2244m5599p66m77p8p", "8p"), 2, "七对"),
        # "Clear right (清对): all pungs of one suit": 3 番
        (hand("1113335557779s", "9s"), 3, "清对"),
        # "将对 ... 222 555 888 条 888 55 万": 3 番
        (hand("222555888s8885m", "5m"), 3, "将对"),
        # "Dragon seven pairs ... 11 2222 44 筒 55 77 99 万": 3 番, its four is no extra 根
        (hand("1122224p557799m", "4p"), 3, "龙七对"),
        # "Clear seven pairs, all seven pairs of one suit": 3 番
        (hand("1133447788992s", "2s"), 3, "清七对"),
        # "Clear nine (清幺九) ... 111 23 77 8 999": 111 123 789 789 99 条, 3 番
        (hand("1111237788999s", "9s"), 3, "清幺九"),
    ],
)  # fmt: skip
def test_sichuan_base_patterns(h: dict[str, Any], total: int, base: str) -> None:
    out = result(h, "sichuan")
    assert out["total"] == total and base in fan_names(out)
    assert out["payments"] == {"winner": 2**total, "discarder": -(2**total), "others": 0}


def test_sichuan_root_adds_and_the_cap_holds() -> None:
    # "8888 条, 123, 567, 234 and 77": 清一色 2 + 根 1 = 3 番, paid 8 by each on a self-draw
    out = result(hand("1235672347s", "7s", kong("8s"), self_drawn=True), "sichuan")
    assert fan_names(out) == {"清一色": 1, "根": 1} and out["total"] == 3
    sets = {f["name_zh"]: f["sets"] for f in out["fans"]}
    assert sets == {"清一色": ["8888s", "123s", "234s", "567s", "77s"], "根": ["8888s"]}
    assert out["payments"] == {"winner": 24, "discarder": None, "others": -8}
    # 清对 3 + 根 1 + 杠上花 1 stays at the 3 番 cap
    capped = hand("3335557779s", "9s", kong("1s"), self_drawn=True, kong_replacement=True)
    assert result(capped, "sichuan")["total"] == 3
    # 平胡 0 + 抢杠 1 = 1: the robbed 6p is a tile the winner holds no copy of
    robbed = hand("123456789m45p99p", "6p", robbing_kong=True)
    assert result(robbed, "sichuan")["total"] == 1


def test_sichuan_lists_the_patterns_it_leaves_out() -> None:
    # "only the maximum number is calculated": 清对 stands for 清一色 and 对对胡
    out = result(hand("1113335557779s", "9s"), "sichuan")
    left_out = {(e["id"], e["because_of"], e["rule"]) for e in out["excluded"]}
    assert left_out == {(2, 6, "highest-only"), (3, 6, "highest-only")}


@pytest.mark.parametrize(
    ("h", "why"),
    [
        (hand("111222444m333pE", "E"), "honor"),  # "no flowers, wind cards"
        (hand("456m789m123p123s9s", "9s"), "lack"),  # three suits: no 缺一门
        (hand("456m11p22p33p9p", "9p", {"type": "chow", "tiles": ["1m", "2m", "3m"],
                                        "claimed_from": "left"}), "chow"),  # "don't eat"
    ],
)  # fmt: skip
def test_sichuan_refuses_what_its_tiles_cannot_make(h: dict[str, Any], why: str) -> None:
    out = score_other(h, "sichuan").to_json()
    assert not out["valid"] and why in out["error"]


# --- Shanghai: points, 勒子 of 10 ------------------------------------------------------------


def test_shanghai_plain_win_is_base_plus_flowers() -> None:
    # 2 base + 3 flower tiles + wind pung 1 + concealed suited kong 2 = 8
    h = hand("678p45s99s", "3s", pung("N"), kong("5m", concealed=True))
    h["flowers"] = ["1h", "2h", "6h"]
    out = result(h, "shanghai")
    assert out["total"] == 8 and fan_names(out) == {"平和": 1, "花": 6}
    assert out["payments"] == {"winner": 8, "discarder": -8, "others": 0}


def test_shanghai_plain_win_is_capped_at_one_lezi() -> None:
    # dragon concealed kong 4 + 7 flowers + 2 base = 13 -> "greater than the cap value": 10
    h = hand("678p45s99s", "3s", pung("1m"), kong("C", concealed=True))
    h["flowers"] = 7
    assert result(h, "shanghai")["total"] == 10


@pytest.mark.parametrize(
    ("h", "total", "name"),
    [
        # "unification ... all cards are one set ... it is 1 (勒)"
        (hand("123456789p1p", "1p", pung("9p")), 10, "清一色"),
        # "mixed color touch ... it is 1"
        (hand("111p555pE", "E", pung("9p"), pung("C")), 10, "混碰"),
        # "clean touch ... straight into two"; "Qing Touch + Kaibao is 4 lira" (Kaibao x2)
        (hand("111p555p3p", "3p", pung("9p"), pung("7p")), 20, "清碰"),
        # "Wind collision: all wind cards and bumping ... straight into four"
        (hand("EEESSSC", "C", pung("W"), pung("N")), 40, "字碰"),
        # "wind color ... can be cards with chaotic winds" (乱风, no sets needed): two 勒
        (hand("EESNNCCFFP", "P", pung("W")), 20, "字一色"),
    ],
)  # fmt: skip
def test_shanghai_limit_hands(h: dict[str, Any], total: int, name: str) -> None:
    out = result(h, "shanghai")
    assert out["total"] == total and name in fan_names(out)


def test_shanghai_kong_bloom_raises_to_one_lezi_and_robbing_costs_three_shares() -> None:
    bloom = hand("234m678p45s99s", "3s", kong("5m"), self_drawn=True, kong_replacement=True)
    assert result(bloom, "shanghai")["total"] == 10
    # "the person who pays it will pay three copies": 2 base + the wind pung's flower, x3
    robbed = hand("234m678p45s99s", "3s", pung("E"), robbing_kong=True)
    out = result(robbed, "shanghai")
    assert out["payments"] == {"winner": 9, "discarder": -9, "others": 0}
    # "If you catch these eight flowers ... directly counted as two" 勒
    eight = hand("234m678p45s99s", "3s", pung("E"))
    eight["flowers"] = 8
    assert result(eight, "shanghai")["total"] == 20


# --- Beijing: 番 that add up ---------------------------------------------------------------------


def test_beijing_example_1_dealer_self_drawn_all_pungs() -> None:
    # "the owner touched it himself, and the card type was right (对对和)": 庄 1 + 对对 2;
    # "(Zhuang 1 Fan + Duihe 2 Fan) * 3" for the winner, "* (-1)" for each other player
    h = hand("777s9m", "9m", pung("2m"), pung("5p"), pung("E"), self_drawn=True, seat_wind="E")
    out = result(h, "beijing")
    assert fan_names(out) == {"庄": 1, "对对和": 1} and out["total"] == 3
    assert out["payments"] == {"winner": 9, "discarder": None, "others": -3,
                               "E": 9, "S": -3, "W": -3, "N": -3}  # fmt: skip


def test_beijing_example_2_push_down_is_one() -> None:
    # "the card type was pushed down": 推倒和 1 (its 庄 came from the dealer's discard)
    h = hand("234m678p9s", "9s", pung("3p"), {"type": "kong", "tiles": ["7m"] * 4,
                                               "claimed_from": "left"}, seat_wind="S")  # fmt: skip
    out = result(h, "beijing")
    assert fan_names(out) == {"推倒和": 1} and out["total"] == 1


@pytest.mark.parametrize(
    ("h", "total", "names"),
    [
        # "Luxury seven pairs ... not counted as seven pairs (8 times)" + 门清 1
        (hand("1111m3355p77s99sE", "E", seat_wind="S"), 9, {"豪华七对", "门清"}),
        # "A dragon: 1-9 with a suit" 3 + 门清 1
        (hand("123456789m23p99s", "4p", seat_wind="N"), 4, {"一条龙", "门清"}),
        # "Grab the fifth: only use a single 5万": closed wait 4-6万 won on 5万, + 门清
        (hand("456m123p789p567s9s", "9s", seat_wind="W"), 1 + 1, {"推倒和", "门清"}),
        (hand("46m123p789p567s99s", "5m", seat_wind="W"), 2 + 1, {"捉五魁", "门清"}),
        # "All-in-one ... same suit (6)" + "Fishing for the moon ... last card" 2 + 一条龙 3
        (hand("1234567899p", "9p", pung("5p"), seat_wind="S", last_of_wall=True), 11,
         {"清一色", "海底捞月", "一条龙"}),
    ],
)  # fmt: skip
def test_beijing_patterns(h: dict[str, Any], total: int, names: set[str]) -> None:
    out = result(h, "beijing")
    assert set(fan_names(out)) == names and out["total"] == total


def test_beijing_chowed_hand_must_self_draw() -> None:
    chow = {"type": "chow", "tiles": ["1m", "2m", "3m"], "claimed_from": "left"}
    h = hand("456m789p123s9s", "9s", chow)
    assert not score_other(h, "beijing").to_json()["valid"]
    assert score_other({**h, "self_drawn": True}, "beijing").to_json()["valid"]


@pytest.mark.parametrize("ruleset", OTHER_RULESETS)
def test_bad_input_answers_invalid_never_raises(ruleset: str) -> None:
    for bad in ({}, {"melds": "x"}, hand("1m", "1m"), hand("123456789m1234p", "9s")):
        out = score_other(bad, ruleset).to_json()
        assert out["valid"] is False and out["error"]


def test_unknown_ruleset() -> None:
    assert not score_other(hand("234456p7p345789s", "7p"), "riichi").valid


@pytest.mark.parametrize("ruleset", OTHER_RULESETS)
def test_generated_hands_score_or_are_refused_with_a_reason(ruleset: str) -> None:
    valid = 0
    for h in generate_hands(3, 1500):
        out = score_other(h, ruleset).to_json()
        if not out["valid"]:
            assert out["error"]
            continue
        valid += 1
        if "contractor" in out["payments"]:  # 承包: one player pays the whole win
            assert out["payments"]["contractor"] == -out["payments"]["winner"]
            continue
        share = -out["payments"]["others"] if h["self_drawn"] else out["payments"]["winner"]
        assert out["payments"]["winner"] == share * (3 if h["self_drawn"] else 1)
        if ruleset == "sichuan":
            assert 0 <= out["total"] <= 3 and share == 2 ** out["total"]
        elif ruleset == "shanghai":
            assert out["total"] >= 2 and (out["total"] <= 10 or out["total"] % 10 == 0)
        else:
            assert out["total"] == sum(f["points"] * f["count"] for f in out["fans"])
    assert valid > 50  # the generator's hands reach every rule set
