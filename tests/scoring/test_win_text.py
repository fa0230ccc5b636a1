"""`win_text.plain_win_text`: the Score JSON text of a plain MCR win, written straight from its
reading, is the reference's text (`json_text.score_text(score(...))`) byte for byte; anything
else is left to the reference (None)."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest

from api.commands.score import stream
from scoring import json_text, score
from scoring.generate import generate_hands
from scoring.waiting_hands import near_hands, waiting_hands
from scoring.win_text import plain_win_text
from tests.scoring.test_plain import _mutations


def _reference(hand: object, ruleset: str | None) -> str:
    return json_text.score_text(score(hand, ruleset))  # type: ignore[arg-type]


@pytest.mark.parametrize("ruleset", ["mcr", "mcr-mil", None])
def test_a_plain_wins_text_is_the_references(ruleset: str | None) -> None:
    hands = list(generate_hands(5, 4000))
    written = 0
    for hand in hands:
        text = plain_win_text(hand, ruleset)
        assert text is not None, hand  # every generated win is plain and valid
        assert text == _reference(hand, ruleset), hand
        written += 1
    assert written == len(hands)


def test_flowers_kongs_flags_and_the_hands_own_ruleset() -> None:
    rng = random.Random(8)
    checked = 0
    for hand in generate_hands(6, 600):
        variants: list[dict[str, Any]] = [
            {**hand, "flowers": rng.randint(0, 8)},
            {**hand, "flowers": rng.sample([f"{n}h" for n in range(1, 9)], rng.randint(0, 8))},
            {**hand, "ruleset": rng.choice(["mcr", "mcr-mil"])},
            {**hand, "self_drawn": not hand.get("self_drawn", False)},
            {**hand, "last_of_wall": True},
            {**hand, "seat_wind": rng.choice("ESWN"), "prevalent_wind": rng.choice("ESWN")},
        ]
        for variant in variants:
            for ruleset in (None, "mcr", "mcr-mil"):
                text = plain_win_text(variant, ruleset)
                reference = _reference(variant, ruleset)
                if text is not None:
                    assert text == reference, (variant, ruleset)
                    checked += 1
                else:  # left to the reference: not a valid plain MCR win
                    assert not json.loads(reference)["valid"] or "ruleset" in variant
    assert checked > 6 * 600


def test_every_other_hand_is_left_to_the_reference() -> None:
    rng = random.Random(9)
    hands: list[Any] = [*waiting_hands(9, 150), *near_hands(9, 150)]
    for hand in generate_hands(9, 150):
        hands += _mutations(hand, rng)
    hands += ["not a hand", 3, None, [], {"concealed": ["1m"] * 13, "winning_tile": "1m"}]
    answered = 0
    for hand in hands:
        for ruleset in (None, "mcr", "mcr-mil", "sichuan", "shanghai", "beijing", "nope"):
            text = plain_win_text(hand, ruleset)
            if text is None:
                continue
            answered += 1
            assert text == _reference(hand, ruleset), (hand, ruleset)
    assert answered > 0  # some mutations stay plain wins (a legal flag, the hand's own ruleset)
    for ruleset in ("sichuan", "shanghai", "beijing", "nope"):
        assert plain_win_text(next(iter(generate_hands(9, 1))), ruleset) is None


def test_the_stream_answers_each_line_as_the_reference() -> None:
    hands: list[Any] = [*generate_hands(10, 200), *waiting_hands(10, 20), *near_hands(10, 20)]
    lines = [json.dumps(hand) for hand in hands] + ["", "{", "[1]", '{"melds": 3}']
    sink = io.StringIO()
    stream(io.StringIO("".join(line + "\n" for line in lines)), sink, None)
    got = sink.getvalue().splitlines()
    assert len(got) == len(lines)
    for line, text in zip(lines[: len(hands)], got, strict=False):
        assert text == _reference(json.loads(line), None)
    assert all(not json.loads(text)["valid"] for text in got[len(hands) :])
