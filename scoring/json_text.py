"""JSON text of a Score for the JSON-lines stream, the same text as
`json.dumps(value, ensure_ascii=False, separators=(",", ":"))`, faster once compiled.

Part of the compiled core (compiled.py). A Score's JSON repeats the same few hundred strings
(fan names, set texts, rules), so each string's escaped form is remembered; anything other
than objects with string keys, arrays, strings, ints, booleans and null is left to the json
module. Uncompiled, the json module's own C encoder is the faster: `encoder()` picks.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from json.encoder import encode_basestring
from types import FunctionType

MOST_REMEMBERED = 1 << 16  # escaped strings kept; a stream of odd strings clears them
_plain: Callable[[object], str] = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_ESCAPED: dict[str, str] = {}


def dumps(value: object) -> str:
    """The compact JSON text of `value`, non-ASCII characters as they are."""
    out: list[str] = []
    _write(value, out)
    return "".join(out)


def encoder() -> Callable[[object], str]:
    """`dumps` when this module runs compiled, else the json module's encoder (same text)."""
    return _plain if isinstance(dumps, FunctionType) else dumps


def _string(value: str) -> str:
    found = _ESCAPED.get(value)
    if found is None:
        if len(_ESCAPED) >= MOST_REMEMBERED:
            _ESCAPED.clear()
        found = _ESCAPED[value] = encode_basestring(value)
    return found


def _write(value: object, out: list[str]) -> None:
    kind = type(value)
    if kind is str:
        out.append(_string(str(value)))
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
            out.append(_string(k))
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
