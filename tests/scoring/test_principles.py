"""The principles that choose what is counted, each on a hand that shows it at work."""

from __future__ import annotations

from scoring import Fan, parse_notation, score

from .helpers import fans, scored


def excluded(notation: str, **context: object) -> set[tuple[int, int | None, str]]:
    return {(e.id, e.because_of, e.rule) for e in scored(notation, **context).excluded}  # type: ignore[arg-type]


def test_non_repeat_all_chows_drops_no_honors() -> None:
    # 平和 implies 无字: No Honors is shown but not counted.
    assert Fan.NO_HONORS not in fans("123m456m234p678s55p")
    assert (Fan.NO_HONORS, Fan.ALL_CHOWS, "non-repeat") in excluded("123m456m234p678s55p")


def test_non_separation_pure_straight_keeps_its_chows_whole() -> None:
    counted = fans("123456789m123p55s")
    assert Fan.SHORT_STRAIGHT not in counted and Fan.TWO_TERMINAL_CHOWS not in counted
    assert (Fan.SHORT_STRAIGHT, Fan.PURE_STRAIGHT, "non-separation") in excluded(
        "123456789m123p55s"
    )
    # The fourth chow still combines once with the straight's chows: 123m with 123p.
    assert counted[Fan.MIXED_DOUBLE_CHOW] == 1


def test_account_once_caps_pairs_of_chows() -> None:
    # 234567s + 234567p: two Mixed Double Chows and one Short Straight, not two of each.
    counted = fans("234567s234567p55m")
    assert counted[Fan.MIXED_DOUBLE_CHOW] + counted.get(Fan.SHORT_STRAIGHT, 0) == 3


def test_non_identical_one_chow_not_used_twice_for_the_same_fan() -> None:
    # 234s + 223344p + 567p: Pure Double Chow, Mixed Double Chow, Short Straight (not two
    # Mixed Double Chows).
    counted = fans("234s223344p567p55m")
    assert counted[Fan.PURE_DOUBLE_CHOW] == 1
    assert counted[Fan.MIXED_DOUBLE_CHOW] == 1
    assert counted[Fan.SHORT_STRAIGHT] == 1
    rules = {(e[0], e[2]) for e in excluded("234s223344p567p55m")}
    assert (Fan.MIXED_DOUBLE_CHOW, "non-identical") in rules


def test_high_versus_low_keeps_the_best_reading() -> None:
    # 111222333m read as pungs (Pure Shifted Pungs + Three Concealed Pungs) beats three chows.
    counted = fans("111m222m333m456p77s")
    assert Fan.PURE_SHIFTED_PUNGS in counted and Fan.THREE_CONCEALED_PUNGS in counted
    assert Fan.PURE_TRIPLE_CHOW not in counted


def test_seven_pairs_yields_to_a_higher_four_sets_reading() -> None:
    # 1122334455667 + 7: Seven Shifted Pairs (88) is the higher reading, not the chows.
    assert Fan.SEVEN_SHIFTED_PAIRS in fans("11223344556677p")
    # 11223344m 556677s also reads as 123m 123m 44m 567s 567s, worth far less than Seven Pairs.
    assert Fan.SEVEN_PAIRS in fans("11223344m556677s")


def test_wind_pung_takes_back_its_pung_of_honors() -> None:
    counted = fans("EEE111m234p567p99s", prevalent_wind="E", seat_wind="E")
    assert counted[Fan.PREVALENT_WIND] == 1 and counted[Fan.SEAT_WIND] == 1
    assert counted[Fan.PUNG_OF_TERMINALS_OR_HONORS] == 1  # the 111m only


def test_discard_completing_a_pung_makes_it_exposed() -> None:
    # 222m 444p 666s concealed, 6s won on a discard: only two concealed pungs.
    assert Fan.TWO_CONCEALED_PUNGS in fans("222m444p123s55p66s6s")
    assert Fan.THREE_CONCEALED_PUNGS in fans("222m444p123s55p66s6s", self_drawn=True)


def test_only_one_wait_fan_for_the_only_winning_tile() -> None:
    counted = fans("12m456p789s111pEE3m")
    assert counted == {**counted, Fan.EDGE_WAIT: 1}
    assert Fan.CLOSED_WAIT not in counted and Fan.SINGLE_WAIT not in counted
    # Two possible winning tiles (1m or 4m): no wait fan at all.
    assert not {Fan.EDGE_WAIT, Fan.CLOSED_WAIT, Fan.SINGLE_WAIT} & set(fans("23m456p789s111pEE4m"))


def test_flowers_do_not_count_toward_the_minimum() -> None:
    result = scored("[123m,1][567p,1][555s,2]67mEE8m", flowers=3)
    assert result.total == 8 + 3 and result.flower_points == 3 and result.meets_minimum
    small = scored("[123m,1][567p,1][555s,2]67mEE8m", self_drawn=True, flowers=8)
    assert small.total == 1 + 8 and not small.meets_minimum and small.payments is None


def test_payments() -> None:
    on_discard = scored("123456789m123p55s")  # 16 + 2 + 2 + 1 + 1 = 22
    assert on_discard.payments == {
        "winner": on_discard.total + 24,
        "discarder": -(on_discard.total + 8),
        "others": -8,
    }
    self_drawn = scored("123456789m123p55s", self_drawn=True)
    assert self_drawn.payments == {
        "winner": 3 * (self_drawn.total + 8),
        "discarder": None,
        "others": -(self_drawn.total + 8),
    }


def test_profiles_differ_on_concealed_and_melded_kong() -> None:
    notation = "[1111m,1][2222p]345s678s99s"
    assert fans(notation, "mcr-mil").get(Fan.CONCEALED_AND_MELDED_KONG) == 1
    book = fans(notation, "mcr")
    assert book[Fan.CONCEALED_KONG] == 1 and book[Fan.MELDED_KONG] == 1
    assert Fan.CONCEALED_AND_MELDED_KONG not in book


def test_profiles_differ_on_waits_inside_a_knitted_straight() -> None:
    # 147m 258p 369s + 345m + 55s, won on 4m: the 4m could sit in the knitted straight or in
    # 345m. PyMahjongGB counts Closed Wait; the book does not read a wait into 组合龙.
    notation = "147m258p369s35m55s4m"
    assert fans(notation, "mcr-mil").get(Fan.CLOSED_WAIT) == 1
    assert Fan.CLOSED_WAIT not in fans(notation, "mcr")
    # A winning tile only in the extra chow gives the wait fan in both.
    for ruleset in ("mcr", "mcr-mil"):
        assert fans("147m258p369s46s55m5s", ruleset).get(Fan.CLOSED_WAIT) == 1


def test_score_totals_match_fans() -> None:
    result = score(parse_notation("[567m,2][999s,3][SSSS]123pCC"))
    assert result.total == sum(f.points * f.count for f in result.fans)


def test_equal_totals_prefer_pure_triple_chow() -> None:
    # 22m 444-555-666m 678p won on 4m: three 456m chows (Pure Triple Chow + All Chows) and three
    # pungs (Pure Shifted Pungs + Two Concealed Pungs) both total 31; the chows are kept.
    counted = fans("22m44m555m666m678p4m")
    assert Fan.PURE_TRIPLE_CHOW in counted and Fan.PURE_SHIFTED_PUNGS not in counted
    assert scored("22m44m555m666m678p4m").total == 31


def test_equal_totals_prefer_four_sets_over_seven_pairs() -> None:
    # 44 55 66m 44 66p 55s + 5p: Seven Pairs + Middle Tiles (48) ties the chows reading.
    counted = fans("445566m44566p55s5p")
    assert Fan.SEVEN_PAIRS not in counted and Fan.MIDDLE_TILES in counted


def test_a_lower_reading_s_fans_are_shown_as_not_counted() -> None:
    # The chows reading of 111222333m would give Pure Triple Chow; the pungs reading is kept.
    assert (Fan.PURE_TRIPLE_CHOW, Fan.PURE_SHIFTED_PUNGS, "high-versus-low") in excluded(
        "111m222m333m456p77s"
    )
