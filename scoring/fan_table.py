"""The 81 fans of the MCR rule book's table (国标麻将番种表), as data.

One row per fan, in the book's order: `id` is the serial number 1-81 that the Score JSON
carries. `excludes` lists the fans a row makes uncounted under the non-repeat principle
(不重复原则): they are implied by it. `check` names the small function that finds the fan:
`patterns.py` (fans made of several sets), `traits.py` (fans of the whole hand), `special.py`
(the special shapes) or `mcr.py` (the rest, and the order in which they are applied).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final


class Fan(IntEnum):
    BIG_FOUR_WINDS = 1
    BIG_THREE_DRAGONS = 2
    ALL_GREEN = 3
    NINE_GATES = 4
    FOUR_KONGS = 5
    SEVEN_SHIFTED_PAIRS = 6
    THIRTEEN_ORPHANS = 7
    ALL_TERMINALS = 8
    LITTLE_FOUR_WINDS = 9
    LITTLE_THREE_DRAGONS = 10
    ALL_HONORS = 11
    FOUR_CONCEALED_PUNGS = 12
    PURE_TERMINAL_CHOWS = 13
    QUADRUPLE_CHOW = 14
    FOUR_PURE_SHIFTED_PUNGS = 15
    FOUR_PURE_SHIFTED_CHOWS = 16
    THREE_KONGS = 17
    ALL_TERMINALS_AND_HONORS = 18
    SEVEN_PAIRS = 19
    GREATER_HONORS_AND_KNITTED = 20
    ALL_EVEN_PUNGS = 21
    FULL_FLUSH = 22
    PURE_TRIPLE_CHOW = 23
    PURE_SHIFTED_PUNGS = 24
    UPPER_TILES = 25
    MIDDLE_TILES = 26
    LOWER_TILES = 27
    PURE_STRAIGHT = 28
    THREE_SUITED_TERMINAL_CHOWS = 29
    PURE_SHIFTED_CHOWS = 30
    ALL_FIVE = 31
    TRIPLE_PUNG = 32
    THREE_CONCEALED_PUNGS = 33
    LESSER_HONORS_AND_KNITTED = 34
    KNITTED_STRAIGHT = 35
    UPPER_FOUR = 36
    LOWER_FOUR = 37
    BIG_THREE_WINDS = 38
    MIXED_STRAIGHT = 39
    REVERSIBLE_TILES = 40
    MIXED_TRIPLE_CHOW = 41
    MIXED_SHIFTED_PUNGS = 42
    CHICKEN_HAND = 43
    LAST_TILE_DRAW = 44
    LAST_TILE_CLAIM = 45
    OUT_WITH_REPLACEMENT_TILE = 46
    ROBBING_THE_KONG = 47
    ALL_PUNGS = 48
    HALF_FLUSH = 49
    MIXED_SHIFTED_CHOWS = 50
    ALL_TYPES = 51
    MELDED_HAND = 52
    TWO_CONCEALED_KONGS = 53
    TWO_DRAGON_PUNGS = 54
    OUTSIDE_HAND = 55
    FULLY_CONCEALED_HAND = 56
    TWO_MELDED_KONGS = 57
    LAST_TILE = 58
    DRAGON_PUNG = 59
    PREVALENT_WIND = 60
    SEAT_WIND = 61
    CONCEALED_HAND = 62
    ALL_CHOWS = 63
    TILE_HOG = 64
    DOUBLE_PUNG = 65
    TWO_CONCEALED_PUNGS = 66
    CONCEALED_KONG = 67
    ALL_SIMPLES = 68
    PURE_DOUBLE_CHOW = 69
    MIXED_DOUBLE_CHOW = 70
    SHORT_STRAIGHT = 71
    TWO_TERMINAL_CHOWS = 72
    PUNG_OF_TERMINALS_OR_HONORS = 73
    MELDED_KONG = 74
    ONE_VOIDED_SUIT = 75
    NO_HONORS = 76
    EDGE_WAIT = 77
    CLOSED_WAIT = 78
    SINGLE_WAIT = 79
    SELF_DRAWN = 80
    FLOWER_TILES = 81
    # Not in the rule book's table: PyMahjongGB's 明暗杠, kept only by profile `mcr-mil`.
    CONCEALED_AND_MELDED_KONG = 82


class FanRow:
    """One row of the table, never changed once built. A plain class with its methods written
    out (compiled with the core, and no dataclass machinery built at start-up)."""

    id: int
    name_en: str
    name_zh: str
    points: int
    excludes: tuple[int, ...]
    description: str
    check: str  # where the check lives: "module.function" inside scoring/

    def __init__(
        self,
        id: int,
        name_en: str,
        name_zh: str,
        points: int,
        excludes: tuple[int, ...],
        description: str,
        check: str,
    ) -> None:
        self.id = id
        self.name_en = name_en
        self.name_zh = name_zh
        self.points = points
        self.excludes = excludes
        self.description = description
        self.check = check

    def _values(self) -> tuple[object, ...]:
        return (self.id, self.name_en, self.name_zh, self.points, self.excludes,
                self.description, self.check)  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FanRow):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        names = ("id", "name_en", "name_zh", "points", "excludes", "description", "check")
        values = self._values()
        return "FanRow(" + ", ".join([f"{n}={values[i]!r}" for i, n in enumerate(names)]) + ")"


F = Fan


def _row(
    fan: Fan, en: str, zh: str, points: int, check: str, excludes: tuple[Fan, ...], text: str
) -> FanRow:
    return FanRow(int(fan), en, zh, points, tuple(int(e) for e in excludes), text, check)


FAN_TABLE: Final[tuple[FanRow, ...]] = (
    _row(F.BIG_FOUR_WINDS, "Big Four Winds", "大四喜", 88, "patterns.big_four_winds",
         (F.BIG_THREE_WINDS, F.ALL_PUNGS, F.PREVALENT_WIND, F.SEAT_WIND,
          F.PUNG_OF_TERMINALS_OR_HONORS),
         "Pungs or kongs of all four winds."),
    _row(F.BIG_THREE_DRAGONS, "Big Three Dragons", "大三元", 88, "patterns.big_three_dragons",
         (F.TWO_DRAGON_PUNGS, F.DRAGON_PUNG),
         "Pungs or kongs of all three dragons."),
    _row(F.ALL_GREEN, "All Green", "绿一色", 88, "traits.tile_kind_fans",
         (F.HALF_FLUSH, F.ONE_VOIDED_SUIT),
         "Only 2 3 4 6 8 bamboo and the green dragon."),
    _row(F.NINE_GATES, "Nine Gates", "九莲宝灯", 88, "mcr.is_nine_gates",
         (F.FULL_FLUSH, F.CONCEALED_HAND, F.FULLY_CONCEALED_HAND, F.ONE_VOIDED_SUIT, F.NO_HONORS,
          F.PUNG_OF_TERMINALS_OR_HONORS),
         "1112345678999 of one suit held concealed, winning on any tile of that suit; one Pung "
         "of Terminals is not counted either."),
    _row(F.FOUR_KONGS, "Four Kongs", "四杠", 88, "mcr.kong_and_pung_fans",
         (F.THREE_KONGS, F.ALL_PUNGS, F.TWO_MELDED_KONGS, F.TWO_CONCEALED_KONGS, F.MELDED_KONG,
          F.CONCEALED_KONG, F.SINGLE_WAIT),
         "Four kongs."),
    _row(F.SEVEN_SHIFTED_PAIRS, "Seven Shifted Pairs", "连七对", 88, "special.seven_pairs",
         (F.SEVEN_PAIRS, F.FULL_FLUSH, F.CONCEALED_HAND, F.FULLY_CONCEALED_HAND, F.SINGLE_WAIT,
          F.ONE_VOIDED_SUIT, F.NO_HONORS, F.PURE_DOUBLE_CHOW, F.ALL_CHOWS, F.SHORT_STRAIGHT),
         "Seven pairs of consecutive tiles of one suit."),
    _row(F.THIRTEEN_ORPHANS, "Thirteen Orphans", "十三幺", 88, "special.thirteen_orphans",
         (F.ALL_TYPES, F.CONCEALED_HAND, F.FULLY_CONCEALED_HAND, F.SINGLE_WAIT, F.OUTSIDE_HAND),
         "One of each terminal and honor, and a second of one of them."),
    _row(F.ALL_TERMINALS, "All Terminals", "清幺九", 64, "traits.tile_kind_fans",
         (F.ALL_TERMINALS_AND_HONORS, F.ALL_PUNGS, F.OUTSIDE_HAND, F.DOUBLE_PUNG,
          F.PUNG_OF_TERMINALS_OR_HONORS, F.NO_HONORS),
         "Only terminals (1 and 9)."),
    _row(F.LITTLE_FOUR_WINDS, "Little Four Winds", "小四喜", 64, "mcr.pair_fans",
         (F.BIG_THREE_WINDS, F.PUNG_OF_TERMINALS_OR_HONORS),
         "Pungs of three winds and a pair of the fourth."),
    _row(F.LITTLE_THREE_DRAGONS, "Little Three Dragons", "小三元", 64, "mcr.pair_fans",
         (F.TWO_DRAGON_PUNGS, F.DRAGON_PUNG),
         "Pungs of two dragons and a pair of the third."),
    _row(F.ALL_HONORS, "All Honors", "字一色", 64, "traits.tile_kind_fans",
         (F.ALL_TERMINALS_AND_HONORS, F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONORS,
          F.ONE_VOIDED_SUIT),
         "Only winds and dragons."),
    _row(F.FOUR_CONCEALED_PUNGS, "Four Concealed Pungs", "四暗刻", 64, "mcr.kong_and_pung_fans",
         (F.ALL_PUNGS, F.CONCEALED_HAND, F.FULLY_CONCEALED_HAND),
         "Four concealed pungs or kongs."),
    _row(F.PURE_TERMINAL_CHOWS, "Pure Terminal Chows", "一色双龙会", 64, "mcr.terminal_chows",
         (F.SEVEN_PAIRS, F.FULL_FLUSH, F.ALL_CHOWS, F.PURE_DOUBLE_CHOW, F.TWO_TERMINAL_CHOWS,
          F.ONE_VOIDED_SUIT, F.NO_HONORS),
         "Two 123 and two 789 chows of one suit with a pair of 5 of that suit."),
    _row(F.QUADRUPLE_CHOW, "Quadruple Chow", "一色四同顺", 48, "patterns.quadruple_chow",
         (F.PURE_TRIPLE_CHOW, F.TILE_HOG, F.PURE_DOUBLE_CHOW),
         "Four identical chows."),
    _row(F.FOUR_PURE_SHIFTED_PUNGS, "Four Pure Shifted Pungs", "一色四节高", 48,
         "patterns.four_pure_shifted_pungs",
         (F.PURE_SHIFTED_PUNGS, F.ALL_PUNGS),
         "Four pungs of one suit, each one higher."),
    _row(F.FOUR_PURE_SHIFTED_CHOWS, "Four Pure Shifted Chows", "一色四步高", 32,
         "patterns.four_pure_shifted_chows",
         (F.PURE_SHIFTED_CHOWS, F.TWO_TERMINAL_CHOWS, F.SHORT_STRAIGHT),
         "Four chows of one suit, each one or each two higher."),
    _row(F.THREE_KONGS, "Three Kongs", "三杠", 32, "mcr.kong_and_pung_fans",
         (F.TWO_MELDED_KONGS, F.TWO_CONCEALED_KONGS, F.MELDED_KONG, F.CONCEALED_KONG),
         "Three kongs."),
    _row(F.ALL_TERMINALS_AND_HONORS, "All Terminals and Honors", "混幺九", 32,
         "traits.tile_kind_fans",
         (F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONORS),
         "Only terminals and honors."),
    _row(F.SEVEN_PAIRS, "Seven Pairs", "七对", 24, "special.seven_pairs",
         (F.CONCEALED_HAND, F.FULLY_CONCEALED_HAND, F.SINGLE_WAIT),
         "Seven pairs (four identical tiles are two pairs)."),
    _row(F.GREATER_HONORS_AND_KNITTED, "Greater Honors and Knitted Tiles", "七星不靠", 24,
         "special.honors_and_knitted",
         (F.ALL_TYPES, F.CONCEALED_HAND, F.FULLY_CONCEALED_HAND, F.SINGLE_WAIT,
          F.LESSER_HONORS_AND_KNITTED),
         "All seven honors and seven tiles of one knitted straight."),
    _row(F.ALL_EVEN_PUNGS, "All Even Pungs", "全双刻", 24, "mcr.set_trait_fans",
         (F.ALL_PUNGS, F.ALL_SIMPLES, F.NO_HONORS),
         "Pungs and pair of even suited tiles only."),
    _row(F.FULL_FLUSH, "Full Flush", "清一色", 24, "traits.suit_fans",
         (F.ONE_VOIDED_SUIT, F.NO_HONORS),
         "Only tiles of one suit."),
    _row(F.PURE_TRIPLE_CHOW, "Pure Triple Chow", "一色三同顺", 24, "patterns.pure_triple_chow",
         (F.PURE_SHIFTED_PUNGS, F.PURE_DOUBLE_CHOW),
         "Three identical chows."),
    _row(F.PURE_SHIFTED_PUNGS, "Pure Shifted Pungs", "一色三节高", 24,
         "patterns.pure_shifted_pungs",
         (F.PURE_TRIPLE_CHOW,),
         "Three pungs of one suit, each one higher."),
    _row(F.UPPER_TILES, "Upper Tiles", "全大", 24, "traits.rank_range_fans",
         (F.UPPER_FOUR, F.NO_HONORS),
         "Only 7 8 9."),
    _row(F.MIDDLE_TILES, "Middle Tiles", "全中", 24, "traits.rank_range_fans",
         (F.ALL_SIMPLES, F.NO_HONORS),
         "Only 4 5 6."),
    _row(F.LOWER_TILES, "Lower Tiles", "全小", 24, "traits.rank_range_fans",
         (F.LOWER_FOUR, F.NO_HONORS),
         "Only 1 2 3."),
    _row(F.PURE_STRAIGHT, "Pure Straight", "清龙", 16, "patterns.pure_straight",
         (),
         "123, 456 and 789 of one suit."),
    _row(F.THREE_SUITED_TERMINAL_CHOWS, "Three-Suited Terminal Chows", "三色双龙会", 16,
         "mcr.terminal_chows",
         (F.ALL_CHOWS, F.NO_HONORS, F.MIXED_DOUBLE_CHOW, F.TWO_TERMINAL_CHOWS),
         "123 and 789 of two suits with a pair of 5 of the third."),
    _row(F.PURE_SHIFTED_CHOWS, "Pure Shifted Chows", "一色三步高", 16,
         "patterns.pure_shifted_chows",
         (),
         "Three chows of one suit, each one or each two higher."),
    _row(F.ALL_FIVE, "All Five", "全带五", 16, "mcr.set_trait_fans",
         (F.ALL_SIMPLES, F.NO_HONORS),
         "Every set and the pair include a 5."),
    _row(F.TRIPLE_PUNG, "Triple Pung", "三同刻", 16, "patterns.triple_pung",
         (),
         "Pungs of the same number in three suits."),
    _row(F.THREE_CONCEALED_PUNGS, "Three Concealed Pungs", "三暗刻", 16, "mcr.kong_and_pung_fans",
         (),
         "Three concealed pungs or kongs."),
    _row(F.LESSER_HONORS_AND_KNITTED, "Lesser Honors and Knitted Tiles", "全不靠", 12,
         "special.honors_and_knitted",
         (F.ALL_TYPES, F.CONCEALED_HAND, F.FULLY_CONCEALED_HAND, F.SINGLE_WAIT),
         "Fourteen unrelated tiles: honors and tiles of one knitted straight."),
    _row(F.KNITTED_STRAIGHT, "Knitted Straight", "组合龙", 12, "special.knitted_straight",
         (),
         "1-4-7, 2-5-8 and 3-6-9 each in a different suit."),
    _row(F.UPPER_FOUR, "Upper Four", "大于五", 12, "traits.rank_range_fans",
         (F.NO_HONORS,),
         "Only 6 7 8 9."),
    _row(F.LOWER_FOUR, "Lower Four", "小于五", 12, "traits.rank_range_fans",
         (F.NO_HONORS,),
         "Only 1 2 3 4."),
    _row(F.BIG_THREE_WINDS, "Big Three Winds", "三风刻", 12, "patterns.big_three_winds",
         (F.PUNG_OF_TERMINALS_OR_HONORS,),
         "Pungs of three winds (their three Pungs of Honors are not counted)."),
    _row(F.MIXED_STRAIGHT, "Mixed Straight", "花龙", 8, "patterns.mixed_straight",
         (),
         "123, 456 and 789 each in a different suit."),
    _row(F.REVERSIBLE_TILES, "Reversible Tiles", "推不倒", 8, "traits.tile_kind_fans",
         (F.ONE_VOIDED_SUIT,),
         "Only tiles that look the same upside down."),
    _row(F.MIXED_TRIPLE_CHOW, "Mixed Triple Chow", "三色三同顺", 8, "patterns.mixed_triple_chow",
         (),
         "The same chow in each suit."),
    _row(F.MIXED_SHIFTED_PUNGS, "Mixed Shifted Pungs", "三色三节高", 8,
         "patterns.mixed_shifted_pungs",
         (),
         "Pungs in three suits, each one higher."),
    _row(F.CHICKEN_HAND, "Chicken Hand", "无番和", 8, "mcr.chicken_hand",
         (),
         "No other fan (flowers aside)."),
    _row(F.LAST_TILE_DRAW, "Last Tile Draw", "妙手回春", 8, "mcr.win_condition_fans",
         (F.SELF_DRAWN,),
         "Self-drawn on the last tile of the wall."),
    _row(F.LAST_TILE_CLAIM, "Last Tile Claim", "海底捞月", 8, "mcr.win_condition_fans",
         (),
         "Winning on the last discard of the game."),
    _row(F.OUT_WITH_REPLACEMENT_TILE, "Out with Replacement Tile", "杠上开花", 8,
         "mcr.win_condition_fans",
         (F.SELF_DRAWN,),
         "Winning on the replacement tile drawn after a kong."),
    _row(F.ROBBING_THE_KONG, "Robbing the Kong", "抢杠和", 8, "mcr.win_condition_fans",
         (F.LAST_TILE,),
         "Winning on the tile another player adds to a melded pung."),
    _row(F.ALL_PUNGS, "All Pungs", "碰碰和", 6, "mcr.kong_and_pung_fans",
         (),
         "Four pungs or kongs."),
    _row(F.HALF_FLUSH, "Half Flush", "混一色", 6, "traits.suit_fans",
         (F.ONE_VOIDED_SUIT,),
         "One suit with honors."),
    _row(F.MIXED_SHIFTED_CHOWS, "Mixed Shifted Chows", "三色三步高", 6,
         "patterns.mixed_shifted_chows",
         (),
         "Chows in three suits, each one higher."),
    _row(F.ALL_TYPES, "All Types", "五门齐", 6, "traits.suit_fans",
         (),
         "All three suits, winds and dragons."),
    _row(F.MELDED_HAND, "Melded Hand", "全求人", 6, "mcr.concealment_fans",
         (F.SINGLE_WAIT,),
         "Four exposed sets, winning on a discard to the pair."),
    _row(F.TWO_CONCEALED_KONGS, "Two Concealed Kongs", "双暗杠", 6, "mcr.kong_and_pung_fans",
         (F.TWO_CONCEALED_PUNGS, F.CONCEALED_KONG),
         "Two concealed kongs."),
    _row(F.TWO_DRAGON_PUNGS, "Two Dragon Pungs", "双箭刻", 6, "patterns.two_dragon_pungs",
         (F.DRAGON_PUNG,),
         "Pungs of two dragons."),
    _row(F.OUTSIDE_HAND, "Outside Hand", "全带幺", 4, "mcr.set_trait_fans",
         (),
         "Every set and the pair include a terminal or an honor."),
    _row(F.FULLY_CONCEALED_HAND, "Fully Concealed Hand", "不求人", 4, "mcr.concealment_fans",
         (F.SELF_DRAWN,),
         "No exposed set, self-drawn."),
    _row(F.TWO_MELDED_KONGS, "Two Melded Kongs", "双明杠", 4, "mcr.kong_and_pung_fans",
         (F.MELDED_KONG,),
         "Two melded kongs."),
    _row(F.LAST_TILE, "Last Tile", "和绝张", 4, "mcr.win_condition_fans",
         (),
         "Winning on the last of a tile's four copies."),
    _row(F.DRAGON_PUNG, "Dragon Pung", "箭刻", 2, "patterns.single_pung_fan",
         (),
         "A pung of a dragon."),
    _row(F.PREVALENT_WIND, "Prevalent Wind", "圈风刻", 2, "mcr.wind_fans",
         (),
         "A pung of the prevalent wind (its Pung of Honors is not counted)."),
    _row(F.SEAT_WIND, "Seat Wind", "门风刻", 2, "mcr.wind_fans",
         (),
         "A pung of the seat wind (its Pung of Honors is not counted)."),
    _row(F.CONCEALED_HAND, "Concealed Hand", "门前清", 2, "mcr.concealment_fans",
         (),
         "No exposed set, winning on a discard."),
    _row(F.ALL_CHOWS, "All Chows", "平和", 2, "mcr.pair_fans",
         (F.NO_HONORS,),
         "Four chows and a suited pair."),
    _row(F.TILE_HOG, "Tile Hog", "四归一", 2, "traits.tile_hog_fans",
         (),
         "All four copies of a tile, not as a kong."),
    _row(F.DOUBLE_PUNG, "Double Pung", "双同刻", 2, "patterns.double_pung",
         (),
         "Pungs of the same number in two suits."),
    _row(F.TWO_CONCEALED_PUNGS, "Two Concealed Pungs", "双暗刻", 2, "mcr.kong_and_pung_fans",
         (),
         "Two concealed pungs or kongs."),
    _row(F.CONCEALED_KONG, "Concealed Kong", "暗杠", 2, "mcr.kong_and_pung_fans",
         (),
         "A concealed kong."),
    _row(F.ALL_SIMPLES, "All Simples", "断幺", 2, "traits.tile_kind_fans",
         (F.NO_HONORS,),
         "No terminals and no honors."),
    _row(F.PURE_DOUBLE_CHOW, "Pure Double Chow", "一般高", 1, "patterns.pure_double_chow",
         (),
         "Two identical chows."),
    _row(F.MIXED_DOUBLE_CHOW, "Mixed Double Chow", "喜相逢", 1, "patterns.mixed_double_chow",
         (),
         "The same chow in two suits."),
    _row(F.SHORT_STRAIGHT, "Short Straight", "连六", 1, "patterns.short_straight",
         (),
         "Two chows of one suit making six consecutive tiles."),
    _row(F.TWO_TERMINAL_CHOWS, "Two Terminal Chows", "老少副", 1, "patterns.two_terminal_chows",
         (),
         "123 and 789 of one suit."),
    _row(F.PUNG_OF_TERMINALS_OR_HONORS, "Pung of Terminals or Honors", "幺九刻", 1,
         "patterns.single_pung_fan",
         (),
         "A pung of 1, 9 or a wind."),
    _row(F.MELDED_KONG, "Melded Kong", "明杠", 1, "mcr.kong_and_pung_fans",
         (),
         "A melded kong."),
    _row(F.ONE_VOIDED_SUIT, "One Voided Suit", "缺一门", 1, "traits.suit_fans",
         (),
         "One of the three suits missing."),
    _row(F.NO_HONORS, "No Honors", "无字", 1, "traits.suit_fans",
         (),
         "No winds and no dragons."),
    _row(F.EDGE_WAIT, "Edge Wait", "边张", 1, "mcr.wait_fans",
         (),
         "The only winning tile is the 3 of 12 or the 7 of 89."),
    _row(F.CLOSED_WAIT, "Closed Wait", "嵌张", 1, "mcr.wait_fans",
         (),
         "The only winning tile is the middle of a chow."),
    _row(F.SINGLE_WAIT, "Single Wait", "单钓将", 1, "mcr.wait_fans",
         (),
         "The only winning tile completes the pair."),
    _row(F.SELF_DRAWN, "Self-Drawn", "自摸", 1, "mcr.win_condition_fans",
         (),
         "Winning on a tile from the wall."),
    _row(F.FLOWER_TILES, "Flower Tiles", "花牌", 1, "score.score_mcr",
         (),
         "One point per flower or season; not counted toward the 8-point minimum."),
)  # fmt: skip

# The extra row that profile `mcr-mil` uses in place of Melded Kong + Concealed Kong.
CONCEALED_AND_MELDED_KONG_ROW: Final = _row(
    F.CONCEALED_AND_MELDED_KONG, "Concealed Kong and Melded Kong", "明暗杠", 5,
    "mcr.kong_and_pung_fans", (),
    "One concealed and one melded kong (PyMahjongGB; not in the rule book).",
)  # fmt: skip

ROWS: Final[dict[int, FanRow]] = {
    row.id: row for row in (*FAN_TABLE, CONCEALED_AND_MELDED_KONG_ROW)
}
assert [row.id for row in FAN_TABLE] == list(range(1, 82)), "fan table out of order"
