"""One hand per fan of the table: the fan is counted, as many times as the hand shows it."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import FAN_TABLE, Fan

from .helpers import fans

SELF = {"self_drawn": True}
# (fan, notation, context, count). The last tile written is the winning tile.
CASES: list[tuple[Fan, str, dict[str, Any], int]] = [
    (Fan.BIG_FOUR_WINDS, "EEESSSWWWNNN11m", {}, 1),
    (Fan.BIG_THREE_DRAGONS, "CCCFFFPPP123m55p", {}, 1),
    (Fan.ALL_GREEN, "234s234s666s888sFF", {}, 1),
    (Fan.NINE_GATES, "11123456789995m", {}, 1),
    (Fan.FOUR_KONGS, "[1111m,1][2222p,2][3333s,3][EEEE,1]NN", {}, 1),
    (Fan.SEVEN_SHIFTED_PAIRS, "11223344556677p", {}, 1),
    (Fan.THIRTEEN_ORPHANS, "19m19p19sESWNCFPP", {}, 1),
    (Fan.ALL_TERMINALS, "111m999m111p999p11s", {}, 1),
    (Fan.LITTLE_FOUR_WINDS, "EEESSSWWW123mNN", {}, 1),
    (Fan.LITTLE_THREE_DRAGONS, "CCCFFF123m456pPP", {}, 1),
    (Fan.ALL_HONORS, "EEESSSCCCFFFPP", {}, 1),
    (Fan.FOUR_CONCEALED_PUNGS, "111m333p555s777mEE", {}, 1),
    (Fan.PURE_TERMINAL_CHOWS, "12312378978955m", {}, 1),
    (Fan.QUADRUPLE_CHOW, "12312312312399p", {}, 1),
    (Fan.FOUR_PURE_SHIFTED_PUNGS, "111222333444m55p", {}, 1),
    (Fan.FOUR_PURE_SHIFTED_CHOWS, "123234345456m99s", {}, 1),
    (Fan.THREE_KONGS, "[1111m,1][2222p,2][3333s,3]456sEE", {}, 1),
    (Fan.ALL_TERMINALS_AND_HONORS, "111m999pEEECCC11s", {}, 1),
    (Fan.SEVEN_PAIRS, "1133557799mEEFF", {}, 1),
    (Fan.GREATER_HONORS_AND_KNITTED, "147m25p36sESWNCFP", {}, 1),
    (Fan.ALL_EVEN_PUNGS, "222m444p666s888m44s", {}, 1),
    (Fan.FULL_FLUSH, "123m345m666m789m55m", {}, 1),
    (Fan.PURE_TRIPLE_CHOW, "[123m,1]123m123m456p77s", {}, 1),
    (Fan.PURE_SHIFTED_PUNGS, "111m222m333m456p77s", {}, 1),
    (Fan.UPPER_TILES, "777m888p999s789m99p", {}, 1),
    (Fan.MIDDLE_TILES, "456m456p456s444m55p", {}, 1),
    (Fan.LOWER_TILES, "123m123p123s111m22p", {}, 1),
    (Fan.PURE_STRAIGHT, "123456789m123p55s", {}, 1),
    (Fan.THREE_SUITED_TERMINAL_CHOWS, "123789m123789p55s", {}, 1),
    (Fan.PURE_SHIFTED_CHOWS, "123m234m345m789p55s", {}, 1),
    (Fan.ALL_FIVE, "345m456p567s555m55p", {}, 1),
    (Fan.TRIPLE_PUNG, "111m111p111s234m55p", {}, 1),
    (Fan.THREE_CONCEALED_PUNGS, "222m444p666s123m55p", {}, 1),
    (Fan.LESSER_HONORS_AND_KNITTED, "147m258p36sESWNCF", {}, 1),
    (Fan.KNITTED_STRAIGHT, "147m258p369s123m55s", {}, 1),
    (Fan.UPPER_FOUR, "666m789p789s678m99s", {}, 1),
    (Fan.LOWER_FOUR, "123m234p444s123m11p", {}, 1),
    (Fan.BIG_THREE_WINDS, "EEESSSWWW123m55p", {}, 1),
    (Fan.MIXED_STRAIGHT, "123m456p789s111m55p", {}, 1),
    (Fan.REVERSIBLE_TILES, "123p345p888s999sPP", {}, 1),
    (Fan.MIXED_TRIPLE_CHOW, "123m123p123s789m55p", {}, 1),
    (Fan.MIXED_SHIFTED_PUNGS, "111m222p333s789m55p", {}, 1),
    (Fan.CHICKEN_HAND, "[123m,1][567p,1][555s,2]67mEE8m", {}, 1),
    (Fan.LAST_TILE_DRAW, "[123m,1]456p789s111pEE", {"self_drawn": True, "last_of_wall": True}, 1),
    (Fan.LAST_TILE_CLAIM, "[123m,1]456p789s111pEE", {"last_of_wall": True}, 1),
    (
        Fan.OUT_WITH_REPLACEMENT_TILE,
        "[1111m,1]456p789s111pEE",
        {"self_drawn": True, "kong_replacement": True},
        1,
    ),
    (Fan.ROBBING_THE_KONG, "[123m,1]456p789s11p13p2p", {"robbing_kong": True}, 1),
    (Fan.ALL_PUNGS, "[111m,1]222p444s666m55p", {}, 1),
    (Fan.HALF_FLUSH, "123m456m789mEEE11m", {}, 1),
    (Fan.MIXED_SHIFTED_CHOWS, "123m234p345s777m55p", {}, 1),
    (Fan.ALL_TYPES, "123m456p789sEEECC", {}, 1),
    (Fan.MELDED_HAND, "[123m,1][456p,1][789s,1][EEE,1]CC", {}, 1),
    (Fan.TWO_CONCEALED_KONGS, "[1111m][2222p]345s678s99s", {}, 1),
    (Fan.TWO_DRAGON_PUNGS, "CCCFFF123m456p77s", {}, 1),
    (Fan.OUTSIDE_HAND, "123m789m123p999sEE", {}, 1),
    (Fan.FULLY_CONCEALED_HAND, "123m456m234p678s55p", SELF, 1),
    (Fan.TWO_MELDED_KONGS, "[1111m,1][2222p,2]345s678s99s", {}, 1),
    (Fan.LAST_TILE, "[123m,1]456p789s11p13p2p", {"last_tile": True}, 1),
    (Fan.DRAGON_PUNG, "CCC123m456p789s11p", {}, 1),
    (Fan.PREVALENT_WIND, "SSS123m456p789s11p", {"prevalent_wind": "S", "seat_wind": "E"}, 1),
    (Fan.SEAT_WIND, "WWW123m456p789s11p", {"prevalent_wind": "E", "seat_wind": "W"}, 1),
    (Fan.CONCEALED_HAND, "123m456m234p678s55p", {}, 1),
    (Fan.ALL_CHOWS, "123m456m234p678s55p", {}, 1),
    (Fan.TILE_HOG, "123m123m456p789s11m", {}, 1),
    (Fan.DOUBLE_PUNG, "222m222p123s456s77p", {}, 1),
    (Fan.TWO_CONCEALED_PUNGS, "222m444p123s456s77p", {}, 1),
    (Fan.CONCEALED_KONG, "[2222m]123s456s789p11p", {}, 1),
    (Fan.ALL_SIMPLES, "234m456p678s345m55p", {}, 1),
    (Fan.PURE_DOUBLE_CHOW, "123m123m456p789sEE", {}, 1),
    (Fan.MIXED_DOUBLE_CHOW, "123m123p456s789sEE", {}, 1),
    (Fan.SHORT_STRAIGHT, "123m456m789p111sEE", {}, 1),
    (Fan.TWO_TERMINAL_CHOWS, "123m789m456p111sEE", {}, 1),
    (Fan.PUNG_OF_TERMINALS_OR_HONORS, "111m999s234p567pNN", {}, 2),
    (Fan.MELDED_KONG, "[2222m,1]123s456s789p11p", {}, 1),
    (Fan.ONE_VOIDED_SUIT, "123m456m234p678p55p", {}, 1),
    (Fan.NO_HONORS, "[123m,1]456p789s111p22s", {}, 1),
    (Fan.EDGE_WAIT, "12m456p789s111pEE3m", {}, 1),
    (Fan.CLOSED_WAIT, "13m456p789s111pEE2m", {}, 1),
    (Fan.SINGLE_WAIT, "123m456p789s111pE" + "E", {}, 1),
    (Fan.SELF_DRAWN, "[123m,1]456p789s111pEE", SELF, 1),
    (Fan.FLOWER_TILES, "123m456m234p678s55p", {"flowers": ["1h", "6h"]}, 2),
]


def test_every_fan_has_a_case() -> None:
    assert sorted(int(fan) for fan, *_ in CASES) == [row.id for row in FAN_TABLE]


@pytest.mark.parametrize(
    ("fan", "notation", "context", "count"), CASES, ids=[f.name for f, *_ in CASES]
)
def test_fan_is_counted(fan: Fan, notation: str, context: dict[str, Any], count: int) -> None:
    assert fans(notation, **context).get(fan) == count
