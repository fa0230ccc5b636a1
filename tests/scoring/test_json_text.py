"""`json_text.score_text`: the stream's text of a Score is the json module's text of its
Score JSON, for every kind of answer (wins, waits, discards, refusals, capped totals)."""

from __future__ import annotations

import json

import pytest

from scoring import RULESETS, json_text, score
from scoring.generate import generate_hands
from scoring.score import Exclusion, FanScore, Score, invalid
from scoring.waiting_hands import near_hands, waiting_hands

ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def _hands() -> list[object]:
    return [
        *generate_hands(21, 400),
        *waiting_hands(21, 30),
        *near_hands(21, 30),
        {"concealed": ["1m"] * 13, "winning_tile": "1m"},
        {"melds": 3},
        {"concealed": ["1m"], "winning_tile": "1m", "bogus": 1},
        "not an object",
    ]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_score_text_is_the_score_jsons_text(ruleset: str) -> None:
    for hand in _hands():
        result = score(hand, ruleset)  # type: ignore[arg-type]
        assert json_text.score_text(result) == ENCODE(result.to_json()), hand


def test_score_text_escapes_and_odd_values() -> None:
    result = Score(
        ruleset="mcr",
        valid=True,
        total=12,
        meets_minimum=True,
        fans=(FanScore(81, 'a "name"\\', "花\n牌", 1, 3, ("1h", "é\t")),),
        excluded=(Exclusion(76, None, "non-repeat", 2), Exclusion(7, 3, "high-versus-low")),
        flower_points=3,
        payments={"winner": 60, "discarder": None, "others": -20},
        error="x \x01 y",
        capped_from=40,
    )
    assert json_text.score_text(result) == ENCODE(result.to_json())
    refused = invalid("mcr", "bad", "/melds/0")
    assert json_text.score_text(refused) == ENCODE(refused.to_json())


def test_the_encoder_writes_the_json_modules_text() -> None:
    value = {"name_zh": "清一色", "sets": ["888p"], "n": None, "ok": True, "big": 10**30}
    assert json_text.encoder()(value) == ENCODE(value)
