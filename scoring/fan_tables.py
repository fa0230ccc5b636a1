"""Each rule set's own fan table: its rows, the unit they count in, its cap and limits.

What `GET /v1/fans?ruleset=R` and `mjlens fans --ruleset R` list, and where a Score's
"not counted" lines find their names: always in the table of the Score's own rule set.
"""

from __future__ import annotations

import importlib
from typing import Any

from .fan_table import CONCEALED_AND_MELDED_KONG_ROW, FAN_TABLE
from .record import Record
from .rulesets import RULESETS, Unit, unit_of

UNIT_WORDS: dict[Unit, tuple[str, str]] = {  # (English, Chinese)
    Unit.POINTS: ("points", "分"),
    Unit.FAN: ("fan", "番"),
    Unit.LEZI: ("lezi", "勒子"),
}
LEZI_POINTS = 10  # Shanghai: one 勒子 is 10 points


class TableRow(Record):
    FIELDS = ("id", "name_en", "name_zh", "points", "excludes", "description")
    __slots__ = FIELDS
    id: int
    name_en: str
    name_zh: str
    points: int  # in the table's unit
    excludes: tuple[int, ...]  # ids of this same table
    description: str

    def __init__(
        self,
        id: int,
        name_en: str,
        name_zh: str,
        points: int,
        excludes: tuple[int, ...],
        description: str,
    ) -> None:
        _set = object.__setattr__
        _set(self, "id", id)
        _set(self, "name_en", name_en)
        _set(self, "name_zh", name_zh)
        _set(self, "points", points)
        _set(self, "excludes", excludes)
        _set(self, "description", description)

    def to_json(self, names: dict[int, tuple[str, str]]) -> dict[str, Any]:
        return {
            "id": self.id,
            "name_en": self.name_en,
            "name_zh": self.name_zh,
            "points": self.points,
            "excludes": list(self.excludes),
            "excludes_names": [
                {"id": i, "name_en": names[i][0], "name_zh": names[i][1]} for i in self.excludes
            ],
            "description": self.description,
        }


class Limits(Record):
    """A cap on the total, or a floor, as the rule set words them (en, zh)."""

    FIELDS = ("cap", "notes_en", "notes_zh")
    __slots__ = FIELDS
    cap: int | None  # the highest total a win is paid, in the table's unit
    notes_en: tuple[str, ...]
    notes_zh: tuple[str, ...]

    def __init__(self, cap: int | None, notes_en: tuple[str, ...], notes_zh: tuple[str, ...]):
        _set = object.__setattr__
        _set(self, "cap", cap)
        _set(self, "notes_en", notes_en)
        _set(self, "notes_zh", notes_zh)


LIMITS: dict[str, Limits] = {
    "mcr": Limits(None, ("A win needs 8 points without the flowers.",), ("起和 8 分，花牌不计。",)),
    "mcr-mil": Limits(
        None, ("A win needs 8 points without the flowers.",), ("起和 8 分，花牌不计。",)
    ),
    "sichuan": Limits(
        3,
        (
            "Base patterns do not add: the highest counts; extras add.",
            "Capped at 3 fan; a hand is paid 2^fan (at most 8) base units.",
        ),
        ("番型不叠加，只计最大；加番另计。", "封顶 3 番，即 8 倍。"),
    ),
    "sichuan-ordinary": Limits(
        None,
        (
            "Base patterns do not add: the highest counts; each four of a kind, 杠上花 and "
            "抢杠 add.",
        ),
        ("番型只计最大；杠、杠上花、抢杠另加。",),
    ),
    "shanghai": Limits(
        LEZI_POINTS,
        (
            "A plain win is 2 + flowers, capped at one 勒子 (10 points); limit hands count whole "
            "勒子; 开宝 and 荒番 each double the points, 勒子 included.",
        ),
        ("平和 2 分加花，封顶一勒子（10 分）；清一色等按勒子计；开宝、荒番各翻倍。",),
    ),
    "beijing": Limits(
        None,
        (
            "Items add up; 推倒和 only when no pattern applies; 烧庄 is paid by the dealer to "
            "each other player.",
        ),
        ("番数相加；无其他牌型时计推倒和；烧庄由庄家付给每位闲家。",),
    ),
}


class FanTable(Record):
    FIELDS = ("ruleset", "unit", "rows", "limits")
    __slots__ = FIELDS
    ruleset: str
    unit: Unit
    rows: tuple[TableRow, ...]
    limits: Limits

    def __init__(
        self, ruleset: str, unit: Unit, rows: tuple[TableRow, ...], limits: Limits
    ) -> None:
        _set = object.__setattr__
        _set(self, "ruleset", ruleset)
        _set(self, "unit", unit)
        _set(self, "rows", rows)
        _set(self, "limits", limits)

    def names(self) -> dict[int, tuple[str, str]]:
        return {r.id: (r.name_en, r.name_zh) for r in self.rows}

    def name_en(self, fan_id: int | None) -> str:
        """A row's English name, from this table; an id it lacks is said as such."""
        for row in self.rows:
            if row.id == fan_id:
                return row.name_en
        return f"fan {fan_id}" if fan_id is not None else "another fan"

    def to_json(self) -> dict[str, Any]:
        names = self.names()
        en, zh = UNIT_WORDS[self.unit]
        return {
            "ruleset": self.ruleset,
            "unit": self.unit.value,
            "unit_en": en,
            "unit_zh": zh,
            "cap": self.limits.cap,
            "notes_en": list(self.limits.notes_en),
            "notes_zh": list(self.limits.notes_zh),
            "fans": [row.to_json(names) for row in self.rows],
        }


def _mcr_rows(ruleset: str) -> tuple[TableRow, ...]:
    rows = [*FAN_TABLE, CONCEALED_AND_MELDED_KONG_ROW] if ruleset == "mcr-mil" else FAN_TABLE
    return tuple(
        TableRow(r.id, r.name_en, r.name_zh, r.points, r.excludes, r.description) for r in rows
    )


_OTHER_ROWS = {
    "sichuan": ("scoring.other.sichuan", "ROWS"),
    "sichuan-ordinary": ("scoring.other.sichuan", "ORDINARY_ROWS"),
    "shanghai": ("scoring.other.shanghai", "ROWS"),
    "beijing": ("scoring.other.beijing", "ROWS"),
}


def _other_rows(ruleset: str) -> tuple[TableRow, ...]:
    module, name = _OTHER_ROWS[ruleset]
    rows = getattr(importlib.import_module(module), name)
    return tuple(
        TableRow(r.id, r.name_en, r.name_zh, r.points, r.excludes, r.description) for r in rows
    )


_CACHE: dict[str, FanTable] = {}


def fan_table(ruleset: str) -> FanTable:
    """The fan table of one of `RULESETS`; raises KeyError for another name."""
    if ruleset not in RULESETS:
        raise KeyError(ruleset)
    table = _CACHE.get(ruleset)
    if table is None:
        rows = _mcr_rows(ruleset) if ruleset.startswith("mcr") else _other_rows(ruleset)
        table = _CACHE[ruleset] = FanTable(ruleset, unit_of(ruleset), rows, LIMITS[ruleset])
    return table


def amount(total: int, unit: Unit, ruleset: str, lang: str = "en") -> str:
    """`3 fan`, `20 points (2 勒子)`: a total in its unit, for a person."""
    en, zh = UNIT_WORDS[unit]
    text = f"{total} {en if lang == 'en' else zh}"
    if ruleset == "shanghai" and total >= LEZI_POINTS and total % LEZI_POINTS == 0:
        text += f" ({total // LEZI_POINTS} 勒子)"
    return text
