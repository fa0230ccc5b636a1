"""The Score JSON text of a plain MCR win, written straight from its best reading.

Most lines of the JSON-lines stream are plain wins (plain.py). For those, `plain_win_text`
writes the text of `json_text.score_text(score(data, ruleset))` without building the Score:
no fan lines, FanScore, Exclusion or payments objects in between. A fan's text up to its sets
is remembered by its id, count and points, a use's sets by what their text depends on
(`explain.use_key`), an exclusion by its fields. Anything else (not a plain win, not a
winning shape, another rule set) answers None and takes the reference path, `score()`;
tests/scoring/test_win_text.py compares the two on generated hands of every kind.
"""

from __future__ import annotations

from typing import Final

from .deal import set_text
from .explain import REPEATED, described, use_key, use_texts, whole_hand_text
from .fan_table import ROWS, Fan
from .hand import HandError
from .json_text import short_strings_text, string_text, strings_text
from .plain import plain_deal
from .profiles import MCR_PROFILES, points_table
from .reading import Reading, best_reading
from .rulesets import requested_ruleset
from .score import BASE_PAYMENT, MINIMUM
from .shapes import PAIR
from .tally import Dropped
from .tile_index import CODES

MOST_REMEMBERED: Final = 1 << 16  # texts kept per kind; a long stream of odd hands clears them
FLOWERS: Final = ROWS[Fan.FLOWER_TILES]
# Each set's JSON string at kind * 34 + tile, as `deal.set_text` writes it; the array of one
# set, and of one tile (its code), as `_use_json` writes them.
SET_JSON: Final[list[str]] = [
    string_text(set_text((kind, t, False))) for kind in range(PAIR + 1) for t in range(34)
]
ONE_SET_JSON: Final[list[str]] = ["[" + text + "]" for text in SET_JSON]
ONE_TILE_JSON: Final[list[str]] = ["[" + string_text(code) + "]" for code in CODES]


def plain_win_text(data: object, ruleset: str | None) -> str | None:
    """`score_text(score(data, ruleset))` for a plain MCR win, else None."""
    if type(data) is not dict:
        return None
    name = ruleset
    if "ruleset" in data:
        try:
            name = requested_ruleset(data, ruleset)
        except HandError:
            return None
    profile = MCR_PROFILES.get(name or "mcr")  # an unknown name is no MCR profile either
    if profile is None:
        return None
    plain = plain_deal(data, profile)
    if plain is None:
        return None
    reading = best_reading(plain.deal)
    if reading is None:  # not a winning shape: the full parser's Hand gives the discards
        return None
    points = points_table(profile)
    counts = reading.tally.counts
    uses = reading.tally.uses
    fans: list[str] = []
    whole: tuple[str, ...] | None = None  # the reading's sets as text, when first needed
    whole_json = ""
    total = 0
    for fan in sorted(counts):
        count = counts[fan]
        worth = points[fan]
        total += worth * count
        fans.append(_fan_head(fan, count, worth))
        fan_uses = uses.get(fan)
        if fan_uses and len(fan_uses) == 1 and fan_uses[0]:  # one use (most fans)
            fans.append(_use_json(fan_uses[0], fan in REPEATED))
        elif fan_uses:  # several uses: their sets merged, as explain.fan_lines does
            if whole is None:
                whole = whole_hand_text(reading)
            texts = use_texts(fan in REPEATED, fan_uses, whole)
            fans.append(short_strings_text(texts) if len(texts) < 5 else strings_text(texts))
        else:  # the whole hand's sets
            if not whole_json:
                whole_json = _whole_json(reading)
            fans.append(whole_json)
        fans.append("},")
    flower_count = plain.flower_count
    if flower_count:
        total += FLOWERS.points * flower_count
        fans.append(_fan_head(FLOWERS.id, flower_count, FLOWERS.points))
        fans.append(short_strings_text(plain.flowers))
        fans.append("},")
    if fans:
        fans[-1] = "}"  # the last fan's close, without the comma
    meets = total - flower_count >= MINIMUM
    return "".join(
        [
            '{"ruleset":',
            string_text(profile.name),
            ',"valid":true,"total":',
            str(total),
            ',"meets_minimum":true,"fans":[' if meets else ',"meets_minimum":false,"fans":[',
            "".join(fans),
            '],"excluded":[',
            _excluded(reading),
            '],"flower_points":',
            str(flower_count),
            ',"payments":',
            _payments(total, plain.deal.self_drawn) if meets else "null",
            ',"error":null,"unit":"points"}',
        ]
    )


def _whole_json(reading: Reading) -> str:
    """`strings_text(whole_hand_text(reading))`: a reading's sets from their JSON texts."""
    sets = reading.sets
    if sets is None:  # a special shape
        return strings_text(whole_hand_text(reading))
    return "[" + ",".join([SET_JSON[s[0] * 34 + s[1]] for s in sets]) + "]"


def _payments(total: int, self_drawn: bool) -> str:
    """`score.payments` as text, remembered by the total and whether self-drawn."""
    key = total << 1 | self_drawn
    found = _PAYMENTS.get(key)
    if found is None:
        if len(_PAYMENTS) >= MOST_REMEMBERED:
            _PAYMENTS.clear()
        if self_drawn:
            each = BASE_PAYMENT + total
            found = '{"winner":' + str(3 * each) + ',"discarder":null,"others":' + str(-each) + "}"
        else:
            found = (
                '{"winner":' + str(BASE_PAYMENT + total + 2 * BASE_PAYMENT) + ',"discarder":'
                + str(-(BASE_PAYMENT + total)) + ',"others":' + str(-BASE_PAYMENT) + "}"
            )  # fmt: skip
        _PAYMENTS[key] = found
    return found


def _fan_head(fan: int, count: int, worth: int) -> str:
    """A fan's text up to its sets: its id and names from the fan table, points and count."""
    if not (0 <= count < 256 and 0 <= worth < 1024):
        return _fan_head_text(fan, count, worth)
    key = (fan << 8 | count) << 10 | worth
    found = _HEADS.get(key)
    if found is None:
        if len(_HEADS) >= MOST_REMEMBERED:
            _HEADS.clear()
        found = _HEADS[key] = _fan_head_text(fan, count, worth)
    return found


def _fan_head_text(fan: int, count: int, worth: int) -> str:
    row = ROWS[fan]
    return "".join(
        ['{"id":', str(fan), ',"name_en":', string_text(row.name_en), ',"name_zh":',
         string_text(row.name_zh), ',"points":', str(worth), ',"count":', str(count), ',"sets":']
    )  # fmt: skip


def _use_json(use: tuple[object, ...], repeat: bool) -> str:
    """One use's sets and tiles as a JSON array, remembered by `explain.use_key`; one tile
    or one set (most uses) read from the arrays written once for each."""
    if len(use) == 1:
        part = use[0]
        if isinstance(part, int) and 0 <= part < 34:
            return ONE_TILE_JSON[part]
        if isinstance(part, tuple) and len(part) == 3 and isinstance(part[2], bool):
            kind, t = part[0], part[1]
            if isinstance(kind, int) and isinstance(t, int) and 1 <= kind <= PAIR and 0 <= t < 34:
                return ONE_SET_JSON[kind * 34 + t]
    key = use_key(use, repeat)
    found = _USES.get(key)
    if found is None:
        if len(_USES) >= MOST_REMEMBERED:
            _USES.clear()
        found = _USES[key] = strings_text(described(use, repeat))
    return found


def _excluded(reading: Reading) -> str:
    """The fans not counted, as `explain.exclusion_lines` merges them, as text."""
    dropped = reading.tally.dropped
    if not dropped:
        return ""
    if len(dropped) == 1:
        d = dropped[0]
        return _exclusion(int(d.id), d.because_of, d.rule, d.count)
    if not _repeats(dropped):  # each line its own (most hands): in the order dropped
        return ",".join([_exclusion(int(d.id), d.because_of, d.rule, d.count) for d in dropped])
    merged: dict[tuple[int, int | None, str], int] = {}
    for d in dropped:
        key = (int(d.id), None if d.because_of is None else int(d.because_of), d.rule)
        merged[key] = merged.get(key, 0) + d.count
    return ",".join([_exclusion(fan, by, rule, n) for (fan, by, rule), n in merged.items()])


def _repeats(dropped: list[Dropped]) -> bool:
    """Whether two of `dropped` share their fan, cause and rule (and merge into one line)."""
    for i in range(1, len(dropped)):
        a = dropped[i]
        for j in range(i):
            b = dropped[j]
            if a.id == b.id and a.because_of == b.because_of and a.rule == b.rule:
                return True
    return False


def _exclusion(fan: int, by: int | None, rule: str, count: int) -> str:
    key = (fan, -1 if by is None else int(by), rule, count)
    found = _EXCLUSIONS.get(key)
    if found is None:
        if len(_EXCLUSIONS) >= MOST_REMEMBERED:
            _EXCLUSIONS.clear()
        parts = ['{"id":', str(fan), ',"because_of":', "null" if by is None else str(int(by)),
                 ',"rule":', string_text(rule)]  # fmt: skip
        if count > 1:
            parts += [',"count":', str(count)]
        parts.append("}")
        found = _EXCLUSIONS[key] = "".join(parts)
    return found


_HEADS: Final[dict[int, str]] = {}
_USES: Final[dict[object, str]] = {}
_EXCLUSIONS: Final[dict[tuple[int, int, str, int], str]] = {}
_PAYMENTS: Final[dict[int, str]] = {}
