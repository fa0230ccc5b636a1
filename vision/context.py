"""The win's context as a caller gives it (winds, flags, flowers, hidden kongs), checked once:
a field the recognizer cannot use is a ContextError naming the field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.tiles import FLOWERS, PLAYING, WINDS

_CONTEXT_KEYS = (
    "seat_wind",
    "prevalent_wind",
    "self_drawn",
    "flowers",
    "last_tile",
    "last_of_wall",
    "kong_replacement",
    "robbing_kong",
    "concealed_kongs",
)


class ContextError(ValueError):
    """A context field the recognizer cannot use; the message names the field."""


def check_context(context: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validate the win context; raises ContextError naming the bad field."""
    checked: dict[str, Any] = {}
    for key, value in (context or {}).items():
        if key not in _CONTEXT_KEYS:
            raise ContextError(f"unknown context field {key!r}; known: {', '.join(_CONTEXT_KEYS)}")
        if value is None:
            continue
        if key in ("seat_wind", "prevalent_wind"):
            if str(value).upper() not in WINDS:
                raise ContextError(f"{key} must be one of E, S, W, N, not {value!r}")
            value = str(value).upper()
        elif key == "flowers":
            value = _check_flowers(value)
        elif key == "concealed_kongs":
            value = _check_kongs(value)
        else:
            value = bool(value)
        checked[key] = value
    return checked


def _check_flowers(value: Any) -> int | list[str]:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 8:
        return value
    listed = isinstance(value, list | tuple) and all(v in FLOWERS for v in value)
    if listed and len(set(value)) == len(value):
        return [str(v) for v in value]
    raise ContextError(f"flowers must be a count 0-8 or distinct codes 1h-8h, not {value!r}")


def _check_kongs(value: Any) -> list[str]:
    codes = value.split(",") if isinstance(value, str) else value
    if isinstance(codes, list | tuple) and all(str(c).strip() in PLAYING for c in codes):
        return [str(c).strip() for c in codes]
    raise ContextError(f"concealed_kongs must list tile codes such as ['5p'], not {value!r}")
