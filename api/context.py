"""The win context a photo cannot show (winds, self-drawn, flags, flowers), from form fields.

A form field arrives as text; each is checked here so a typo answers 422 with a pointer to
the field rather than silently scoring a different hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from api.problems import INVALID_FIELD, Problem

WINDS = {"E": "E", "S": "S", "W": "W", "N": "N", "東": "E", "南": "S", "西": "W", "北": "N"}
FLOWER_CODES = tuple(f"{n}h" for n in range(1, 9))
_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}
# Until scoring lands (or if it fails to import) the rule sets of DESIGN.md.
DEFAULT_RULESETS = ("mcr", "mcr-mil", "sichuan", "sichuan-ordinary", "shanghai", "beijing")


def _wind(name: str, raw: str) -> str:
    wind = WINDS.get(raw.strip().upper()) or WINDS.get(raw.strip())
    if wind is None:
        raise Problem(
            INVALID_FIELD, f"{name} must be one of E, S, W, N, not {raw!r}", pointer=f"/{name}"
        )
    return wind


def parse_flag(name: str, raw: str) -> bool:
    """A form field's yes or no (true/false, 1/0, yes/no, on/off); a 422 problem otherwise."""
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise Problem(INVALID_FIELD, f"{name} must be true or false, not {raw!r}", pointer=f"/{name}")


def _count(name: str, raw: str, most: int) -> int:
    try:
        value = int(raw.strip())
    except ValueError:
        value = -1
    if not 0 <= value <= most:
        raise Problem(
            INVALID_FIELD,
            f"{name} must be a whole number 0-{most}, not {raw!r}",
            pointer=f"/{name}",
        )
    return value


def _flowers(name: str, raw: str) -> int | list[str]:
    """A count (0-8) or the flower codes seen, comma-separated (e.g. "1h,5h")."""
    text = raw.strip()
    if text.isdigit() or text.startswith("-"):
        return _count(name, text, 8)
    codes = [c.strip() for c in text.split(",") if c.strip()]
    bad = [c for c in codes if c not in FLOWER_CODES]
    if bad or len(set(codes)) != len(codes):
        raise Problem(
            INVALID_FIELD,
            f"flowers must be a count 0-8 or distinct codes 1h-8h, not {raw!r}",
            pointer=f"/{name}",
        )
    return codes


PLAYING_CODES = (
    *(f"{rank}{suit}" for suit in "mps" for rank in range(1, 10)),
    *("E", "S", "W", "N", "C", "F", "P"),
)


def _kongs(name: str, raw: str) -> list[str]:
    """The tiles of the concealed kongs on the table, comma-separated (e.g. "5p,9s"): their
    face-down tiles do not show which tile they are."""
    codes = [c.strip() for c in raw.split(",") if c.strip()]
    if len(codes) > 4 or any(c not in PLAYING_CODES for c in codes):
        raise Problem(
            INVALID_FIELD,
            f"concealed_kongs must list up to 4 tile codes such as 5p,9s, not {raw!r}",
            pointer=f"/{name}",
        )
    return codes


_PARSERS: dict[str, Callable[[str, str], Any]] = {
    "seat_wind": _wind,
    "prevalent_wind": _wind,
    "self_drawn": parse_flag,
    "last_tile": parse_flag,
    "last_of_wall": parse_flag,
    "kong_replacement": parse_flag,
    "robbing_kong": parse_flag,
    "flowers": _flowers,
    "concealed_kongs": _kongs,
}
CONTEXT_FIELDS: tuple[str, ...] = tuple(_PARSERS)


def parse_context(
    fields: Mapping[str, str], rulesets: tuple[str, ...]
) -> tuple[dict[str, Any], str]:
    """Form fields to (context for the recognizer, ruleset). Empty fields count as absent."""
    context: dict[str, Any] = {}
    ruleset = "mcr"
    for name, raw in fields.items():
        if not raw.strip():
            continue
        if name == "ruleset":
            ruleset = parse_ruleset(raw, rulesets, pointer="/ruleset")
        elif name in _PARSERS:
            context[name] = _PARSERS[name](name, raw)
        else:
            known = ", ".join((*CONTEXT_FIELDS, "ruleset"))
            raise Problem(
                INVALID_FIELD,
                f"unknown field {name!r}; the fields are photo, set, learn, {known}",
                pointer=f"/{name}",
            )
    return context, ruleset


def parse_ruleset(raw: str, rulesets: tuple[str, ...], *, pointer: str | None = None) -> str:
    name = raw.strip().lower()
    if name not in rulesets:
        raise Problem(
            INVALID_FIELD,
            f"ruleset must be one of {', '.join(rulesets)}, not {raw!r}",
            pointer=pointer,
        )
    return name
