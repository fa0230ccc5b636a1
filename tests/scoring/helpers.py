"""Hands from strings for the scoring tests."""

from __future__ import annotations

from typing import Any

from scoring import Score, parse_notation, score


def scored(notation: str, ruleset: str = "mcr", **context: Any) -> Score:
    """Score a hand written in the compact notation (last tile = winning tile by default)."""
    result = score(parse_notation(notation, **context), ruleset)
    assert result.valid, result.error
    return result


def fans(notation: str, ruleset: str = "mcr", **context: Any) -> dict[int, int]:
    """{fan id: count} counted for the hand, flowers included."""
    return {f.id: f.count for f in scored(notation, ruleset, **context).fans}
