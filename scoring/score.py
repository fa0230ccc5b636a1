"""`score()`: a hand in, the Score JSON out, never an exception for a bad hand."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from .deal import Deal, deal_from_hand
from .explain import exclusion_lines, fan_lines
from .fan_table import ROWS, Fan
from .hand import Hand, HandError, Waiting
from .parse import parse_hand_or_waiting
from .plain import plain_deal
from .profiles import MCR_PROFILES, Profile, points_table
from .reading import best_reading
from .rulesets import RULESETS as RULESETS  # the names callers import from here
from .rulesets import Unit, check_table, requested_ruleset, unit_of

if TYPE_CHECKING:
    from .waits import Discard, Wait

MINIMUM: Final = 8  # 起和番: points needed to declare a win, flowers not counted
BASE_PAYMENT: Final = 8  # every loser pays 8 on top of what the winner's hand is worth


# Plain classes with their methods written out: mypyc compiles them, and no dataclass
# machinery is built at start-up. Equal when their fields are (Score: all but `pointer`).
class FanScore:
    id: int
    name_en: str
    name_zh: str
    points: int
    count: int
    sets: tuple[str, ...]

    def __init__(
        self, id: int, name_en: str, name_zh: str, points: int, count: int, sets: tuple[str, ...]
    ) -> None:
        self.id = id
        self.name_en = name_en
        self.name_zh = name_zh
        self.points = points
        self.count = count
        self.sets = sets

    def _values(self) -> tuple[object, ...]:
        return (self.id, self.name_en, self.name_zh, self.points, self.count, self.sets)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FanScore):
            return NotImplemented
        return self._values() == other._values()

    def __repr__(self) -> str:
        return _repr("FanScore", FANSCORE_FIELDS, self._values())

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name_en": self.name_en,
            "name_zh": self.name_zh,
            "points": self.points,
            "count": self.count,
            "sets": list(self.sets),
        }


class Exclusion:
    id: int
    because_of: int | None
    rule: str
    count: int = 1

    def __init__(self, id: int, because_of: int | None, rule: str, count: int = 1) -> None:
        self.id = id
        self.because_of = because_of
        self.rule = rule
        self.count = count

    def _values(self) -> tuple[object, ...]:
        return (self.id, self.because_of, self.rule, self.count)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Exclusion):
            return NotImplemented
        return self._values() == other._values()

    def __repr__(self) -> str:
        return _repr("Exclusion", EXCLUSION_FIELDS, self._values())

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "because_of": self.because_of, "rule": self.rule}
        if self.count > 1:
            out["count"] = self.count
        return out


class Score:
    ruleset: str
    valid: bool
    total: int
    meets_minimum: bool
    fans: tuple[FanScore, ...]
    excluded: tuple[Exclusion, ...]
    flower_points: int
    payments: dict[str, int | None] | None
    error: str | None
    pointer: str | None  # not compared
    waits: tuple[Wait, ...] | None  # a hand of 13 tiles: what it waits on
    discards: tuple[Discard, ...] | None  # 14 tiles in no winning shape: what to let go
    unit: Unit  # what `total` counts: the rule set's unit
    capped_from: int | None  # the sum a rule set's cap cut down to `total`

    def __init__(
        self,
        ruleset: str,
        valid: bool,
        total: int = 0,
        meets_minimum: bool = False,
        fans: tuple[FanScore, ...] = (),
        excluded: tuple[Exclusion, ...] = (),
        flower_points: int = 0,
        payments: dict[str, int | None] | None = None,
        error: str | None = None,
        pointer: str | None = None,
        waits: tuple[Wait, ...] | None = None,
        discards: tuple[Discard, ...] | None = None,
        unit: Unit = Unit.POINTS,
        capped_from: int | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.valid = valid
        self.total = total
        self.meets_minimum = meets_minimum
        self.fans = fans
        self.excluded = excluded
        self.flower_points = flower_points
        self.payments = payments
        self.error = error
        self.pointer = pointer
        self.waits = waits
        self.discards = discards
        self.unit = unit
        self.capped_from = capped_from

    def _values(self) -> tuple[object, ...]:
        return (self.ruleset, self.valid, self.total, self.meets_minimum, self.fans,
                self.excluded, self.flower_points, self.payments, self.error, self.pointer,
                self.waits, self.discards, self.unit, self.capped_from)  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        mine, theirs = self._values(), other._values()
        return mine[:9] == theirs[:9] and mine[10:] == theirs[10:]  # all but `pointer`

    def __repr__(self) -> str:
        return _repr("Score", SCORE_FIELDS, self._values())

    def to_json(self) -> dict[str, Any]:
        """The Score JSON of DESIGN.md."""
        out = {
            "ruleset": self.ruleset,
            "valid": self.valid,
            "total": self.total,
            "meets_minimum": self.meets_minimum,
            "fans": [f.to_json() for f in self.fans],
            "excluded": [e.to_json() for e in self.excluded],
            "flower_points": self.flower_points,
            "payments": self.payments,
            "error": self.error,
            "unit": self.unit.value,
        }
        if self.pointer:
            out["pointer"] = self.pointer
        if self.capped_from is not None:
            out["capped_from"] = self.capped_from
        if self.waits is not None:
            out["waits"] = [w.to_json() for w in self.waits]
        if self.discards is not None:
            out["discards"] = [d.to_json() for d in self.discards]
        return out


FANSCORE_FIELDS: Final = ("id", "name_en", "name_zh", "points", "count", "sets")
EXCLUSION_FIELDS: Final = ("id", "because_of", "rule", "count")
SCORE_FIELDS: Final = (
    "ruleset", "valid", "total", "meets_minimum", "fans", "excluded", "flower_points",
    "payments", "error", "pointer", "waits", "discards", "unit", "capped_from",
)  # fmt: skip


def _repr(name: str, fields: tuple[str, ...], values: tuple[object, ...]) -> str:
    """As a dataclass writes itself: Name(field=value, ...)."""
    parts = [f"{f}={v!r}" for f, v in zip(fields, values, strict=True)]
    return name + "(" + ", ".join(parts) + ")"


def invalid(ruleset: str, error: str, pointer: str | None = None) -> Score:
    return Score(ruleset=ruleset, valid=False, error=error, pointer=pointer, unit=unit_of(ruleset))


def payments(total: int, self_drawn: bool) -> dict[str, int | None]:
    """Self-drawn: each of the three pays 8 + total. On a discard: the discarder pays
    8 + total, the other two 8 each."""
    if self_drawn:
        each = BASE_PAYMENT + total
        return {"winner": 3 * each, "discarder": None, "others": -each}
    return {
        "winner": BASE_PAYMENT + total + 2 * BASE_PAYMENT,
        "discarder": -(BASE_PAYMENT + total),
        "others": -BASE_PAYMENT,
    }


def score(hand: Hand | Waiting | Mapping[str, object], ruleset: str | None = None) -> Score:
    """Score a hand under a rule set; an invalid hand gives `Score(valid=False, error=...)`.

    The rule set is `ruleset`, else the Hand JSON's own `ruleset` key, else mcr; a hand that
    names another rule set than `ruleset`, or a table fact the rule set does not score
    (`rulesets.HONOURED`), is refused.

    A hand of 13 tiles without a winning tile is not a win either: its answer lists `waits`,
    each tile that completes it with the win scored on a discard and self-drawn. Fourteen
    tiles in no winning shape list the `discards` that would leave them waiting.

    Example:
        >>> from scoring import parse_notation, score
        >>> score(parse_notation("123m456m789m123p55s", self_drawn=True)).total
        24
    """
    if ruleset is not None and ruleset not in RULESETS:
        return invalid(
            str(ruleset), f"unknown ruleset {ruleset!r}; choose one of {', '.join(RULESETS)}"
        )
    if (type(hand) is dict or isinstance(hand, Mapping)) and "ruleset" in hand:
        try:
            ruleset = requested_ruleset(hand, ruleset)
        except HandError as exc:
            return invalid(ruleset or "mcr", exc.message, exc.pointer)
    ruleset = ruleset or "mcr"
    profile = MCR_PROFILES.get(ruleset)
    if profile is not None and type(hand) is dict:
        plain = plain_deal(hand, profile)
        if plain is not None:
            result = score_deal(plain.deal, plain.flowers, plain.flower_count)
            if result.valid:  # else the full parser's Hand gives the discards to advise
                return result
    try:
        parsed = hand if isinstance(hand, Hand | Waiting) else parse_hand_or_waiting(hand)
    except HandError as exc:
        return invalid(ruleset, exc.message, exc.pointer)
    except (TypeError, ValueError, LookupError, AttributeError) as exc:  # no check foresaw it
        return invalid(ruleset, f"cannot read this hand: {type(exc).__name__}: {exc}")
    foreign = check_table(parsed, ruleset)
    if foreign is not None:
        return invalid(ruleset, foreign.message, foreign.pointer)
    if isinstance(parsed, Waiting):
        from .waits import score_waiting  # waits.py scores each win through this module

        waiting = score_waiting(parsed, ruleset)
        waiting.unit = unit_of(ruleset)
        return waiting
    result = _score_other(parsed, ruleset) if profile is None else score_mcr(parsed, profile)
    if not result.valid:
        from .waits import advise

        result.discards = advise(parsed, ruleset)
    return result


def _score_other(hand: Hand, ruleset: str) -> Score:
    try:
        module = importlib.import_module("scoring.other")
    except ModuleNotFoundError:
        return invalid(ruleset, f"ruleset {ruleset!r} is not available in this build")
    result: Score = module.score(hand, ruleset)
    return result


def score_mcr(hand: Hand, profile: Profile) -> Score:
    return score_deal(deal_from_hand(hand, profile), hand.flowers, hand.flower_count)


def score_deal(deal: Deal, flowers: tuple[str, ...], flower_count: int) -> Score:
    """The Score of a hand read into numbers, with its flowers (named, or only counted)."""
    profile = deal.profile
    reading = best_reading(deal)
    if reading is None:
        return invalid(
            profile.name, "not a winning hand: the 14 tiles form no MCR winning shape", "/concealed"
        )
    lines, total = fan_lines(reading, points_table(profile))
    fans: list[FanScore] = []
    for fan, points, count, texts in lines:
        row = ROWS[fan]
        fans.append(FanScore(fan, row.name_en, row.name_zh, points, count, texts))
    if flower_count:
        row = ROWS[Fan.FLOWER_TILES]
        fans.append(FanScore(row.id, row.name_en, row.name_zh, row.points, flower_count, flowers))
        total += row.points * flower_count
    meets = total - flower_count >= MINIMUM
    excluded = tuple(Exclusion(*line) for line in exclusion_lines(reading))
    return Score(
        ruleset=profile.name,
        valid=True,
        total=total,
        meets_minimum=meets,
        fans=tuple(fans),
        excluded=excluded,
        flower_points=flower_count,
        payments=payments(total, deal.self_drawn) if meets else None,
    )
