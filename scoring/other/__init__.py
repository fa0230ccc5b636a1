"""Rule sets other than MCR, from seed document 003: Sichuan (blood battle and ordinary),
Shanghai and Beijing.

`score_other(hand, ruleset)` (alias `score`, what `scoring.score` calls for these names)
answers the MCR scorer's `Score`, with fan ids local to the rule set (each module's `ROWS`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .beijing import score_beijing
from .common import Hand, Score, invalid
from .shanghai import score_shanghai
from .sichuan import score_sichuan, score_sichuan_ordinary

SCORERS: dict[str, Callable[[Hand | Mapping[str, Any]], Score]] = {
    "sichuan": score_sichuan,
    "sichuan-ordinary": score_sichuan_ordinary,
    "shanghai": score_shanghai,
    "beijing": score_beijing,
}
OTHER_RULESETS: tuple[str, ...] = tuple(SCORERS)


def score_other(hand: Hand | Mapping[str, Any], ruleset: str) -> Score:
    """Score `hand` under one of `OTHER_RULESETS`; never raises on a bad hand or name."""
    scorer = SCORERS.get(ruleset)
    if scorer is None:
        return invalid(ruleset, f"unknown rule set {ruleset!r}; known: {', '.join(SCORERS)}")
    return scorer(hand)


score = score_other  # the name scoring/score.py looks up

__all__ = [
    "OTHER_RULESETS",
    "score",
    "score_beijing",
    "score_other",
    "score_shanghai",
    "score_sichuan",
    "score_sichuan_ordinary",
]
