"""JSON text of a Score for the JSON-lines stream, the same text as
`json.dumps(value, ensure_ascii=False, separators=(",", ":"))`, faster once compiled.

Part of the compiled core (compiled.py). A Score's JSON repeats the same few hundred strings
(fan names, set texts, rules), so each string's escaped form is remembered; anything other
than objects with string keys, arrays, strings, ints, booleans and null is left to the json
module.

`score_text(score)` writes `score.to_json()`'s text without building the dicts: a fan's
id, names, points and count, and an exclusion, recur from hand to hand, so each one's text is
remembered whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from json.encoder import encode_basestring
from types import FunctionType
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .score import Exclusion, FanScore, Score

MOST_REMEMBERED: Final = 1 << 16  # escaped strings kept; a stream of odd strings clears them
_plain: Final[Callable[[object], str]] = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":")
).encode
_ESCAPED: Final[dict[str, str]] = {}


def dumps(value: object) -> str:
    """The compact JSON text of `value`, non-ASCII characters as they are."""
    out: list[str] = []
    _write(value, out)
    return "".join(out)


def encoder() -> Callable[[object], str]:
    """`dumps` when this module runs compiled, else the json module's encoder (same text):
    uncompiled, the json module's own C encoder is the faster."""
    return _plain if isinstance(dumps, FunctionType) else dumps


def string_text(value: str) -> str:
    found = _ESCAPED.get(value)
    if found is None:
        if len(_ESCAPED) >= MOST_REMEMBERED:
            _ESCAPED.clear()
        found = _ESCAPED[value] = encode_basestring(value)
    return found


def _write(value: object, out: list[str]) -> None:
    kind = type(value)
    if kind is str:
        out.append(string_text(str(value)))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif kind is int:
        out.append(str(value))
    elif isinstance(value, dict) and kind is dict:
        mark = len(out)
        out.append("{")
        first = True
        for k, v in value.items():
            if type(k) is not str:  # the json module's rules for other keys: all of it there
                del out[mark:]
                out.append(_plain(value))
                return
            if not first:
                out.append(",")
            first = False
            out.append(string_text(k))
            out.append(":")
            _write(v, out)
        out.append("}")
    elif isinstance(value, list | tuple) and (kind is list or kind is tuple):
        out.append("[")
        first = True
        for v in value:
            if not first:
                out.append(",")
            first = False
            _write(v, out)
        out.append("]")
    else:  # str and int subclasses, floats: the json module's own rules
        out.append(_plain(value))


def score_text(score: Score) -> str:
    """The text of `dumps(score.to_json())`, written from the Score's fields."""
    out = [
        '{"ruleset":',
        string_text(score.ruleset),
        ',"valid":true,"total":' if score.valid else ',"valid":false,"total":',
        str(int(score.total)),
        ',"meets_minimum":true' if score.meets_minimum else ',"meets_minimum":false',
        ',"fans":[',
    ]
    first = True
    whole: tuple[str, ...] | None = None  # the fans of the whole hand share one tuple of sets
    whole_text = ""
    for fan in score.fans:
        if not first:
            out.append(",")
        first = False
        out.append(_fan_head(fan))
        if fan.sets is not whole:
            if len(fan.sets) < 5:  # a fan's few sets: they recur, their text is remembered
                out.append(short_strings_text(fan.sets))
                out.append("}")
                continue
            whole, whole_text = fan.sets, strings_text(fan.sets)
        out.append(whole_text)
        out.append("}")
    out.append('],"excluded":[')
    first = True
    for ex in score.excluded:
        if not first:
            out.append(",")
        first = False
        out.append(_exclusion_text(ex))
    out.append('],"flower_points":')
    out.append(str(int(score.flower_points)))
    out.append(',"payments":')
    _write(score.payments, out)
    out.append(',"error":')
    out.append("null" if score.error is None else string_text(str(score.error)))
    out.append(',"unit":')
    out.append(string_text(str(score.unit.value)))
    if score.pointer:
        out.append(',"pointer":')
        out.append(string_text(str(score.pointer)))
    if score.capped_from is not None:
        out.append(',"capped_from":')
        out.append(str(int(score.capped_from)))
    if score.waits is not None:
        out.append(',"waits":')
        _write([w.to_json() for w in score.waits], out)
    if score.discards is not None:
        out.append(',"discards":')
        _write([d.to_json() for d in score.discards], out)
    out.append("}")
    return "".join(out)


def _fan_head(fan: FanScore) -> str:
    """A fan's text up to its sets: remembered by id and count, for the very name strings
    and points it was written with (a fan table's own strings, compared by identity)."""
    ident, count = int(fan.id), int(fan.count)
    if not (0 <= ident < 1 << 16 and 0 <= count < 256):
        return _fan_head_text(fan)
    key = ident << 8 | count
    found = _HEADS_BY_ID.get(key)
    if (
        found is not None
        and found[0] is fan.name_en
        and found[1] is fan.name_zh
        and found[2] == int(fan.points)
    ):
        return found[3]
    head = _fan_head_text(fan)
    if len(_HEADS_BY_ID) >= MOST_REMEMBERED:
        _HEADS_BY_ID.clear()
    _HEADS_BY_ID[key] = (fan.name_en, fan.name_zh, int(fan.points), head)
    return head


def _fan_head_text(fan: FanScore) -> str:
    """A fan's text up to its sets: remembered by id, names, points and count."""
    key = (int(fan.id), fan.name_en, fan.name_zh, int(fan.points), int(fan.count))
    head = _FAN_HEADS.get(key)
    if head is None:
        if len(_FAN_HEADS) >= MOST_REMEMBERED:
            _FAN_HEADS.clear()
        parts = ['{"id":', str(key[0]), ',"name_en":', string_text(str(fan.name_en)), ',"name_zh":',
                 string_text(str(fan.name_zh)), ',"points":', str(key[3]), ',"count":', str(key[4]),
                 ',"sets":']  # fmt: skip
        head = _FAN_HEADS[key] = "".join(parts)
    return head


def strings_text(texts: tuple[str, ...]) -> str:
    """A JSON array of strings (a whole hand's sets rarely recur: each string's text does)."""
    return "[" + ",".join([string_text(t) for t in texts]) + "]"


def short_strings_text(texts: tuple[str, ...]) -> str:
    found = _ARRAYS.get(texts)
    if found is None:
        if len(_ARRAYS) >= MOST_REMEMBERED:
            _ARRAYS.clear()
        found = _ARRAYS[texts] = strings_text(texts)
    return found


def _exclusion_text(ex: Exclusion) -> str:
    by = ex.because_of
    key = (int(ex.id), -1 if by is None else int(by), ex.rule, int(ex.count))
    found = _EXCLUSIONS.get(key)
    if found is None:
        if len(_EXCLUSIONS) >= MOST_REMEMBERED:
            _EXCLUSIONS.clear()
        out: list[str] = []
        _write(ex.to_json(), out)
        found = _EXCLUSIONS[key] = "".join(out)
    return found


_FAN_HEADS: Final[dict[tuple[int, str, str, int, int], str]] = {}
_HEADS_BY_ID: Final[dict[int, tuple[str, str, int, str]]] = {}
_EXCLUSIONS: Final[dict[tuple[int, int, str, int], str]] = {}
_ARRAYS: Final[dict[tuple[str, ...], str]] = {}
