"""A `/v1/score` request's body to its Score JSON, or the reason the hand is refused: the one
path that both the HTTP route and the page's offline scorer (Pyodide, in the browser) run.

Standard library and `scoring` only, and no import from `api`: the server zips this module
beside the `scoring` package for the browser (api/offline_scorer.py).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from scoring import HandError, Score, parse_hand_or_waiting, score
from scoring.rulesets import RULESETS, check_table, requested_ruleset

log = logging.getLogger("mjlens.api")

# The problems the route answers with, slug and title as api/problems.py has them.
INVALID_HAND = "invalid-hand"
INVALID_FIELD = "invalid-field"
TITLES = {
    INVALID_HAND: "The hand is not valid Hand JSON",
    INVALID_FIELD: "A request field is invalid",
}


class RequestRefused(Exception):
    """A hand or rule set the scorer refuses: the problem's slug, what is wrong, and the JSON
    pointer of the field ("" for the whole body)."""

    def __init__(self, slug: str, detail: str, pointer: str = "") -> None:
        super().__init__(detail)
        self.slug, self.detail, self.pointer = slug, detail, pointer


def parse_request(data: Any, asked: str | None) -> tuple[Any, str]:
    """The hand (a Waiting hand without `winning_tile`) and the rule set it is scored under;
    RequestRefused with a pointer to the bad field otherwise."""
    if not isinstance(data, dict):
        kind = _json_type(data)
        raise RequestRefused(INVALID_HAND, f"the body must be a Hand JSON object, not {kind}")
    try:
        hand = parse_hand_or_waiting(data)
    except HandError as exc:
        raise RequestRefused(INVALID_HAND, str(exc), exc.pointer or "") from None
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
        # parse_hand promises HandError for any malformed hand; should one slip through, the
        # client still gets a 422 (without a precise pointer), never a 500.
        log.warning("parse_hand raised %s instead of HandError: %s", type(exc).__name__, exc)
        raise RequestRefused(INVALID_HAND, "a field of the hand has the wrong type") from None
    try:
        chosen = requested_ruleset(data, asked)
    except HandError as exc:
        raise RequestRefused(INVALID_HAND, str(exc), exc.pointer) from None
    foreign = check_table(hand, chosen)
    if foreign is not None:
        raise RequestRefused(INVALID_HAND, str(foreign), foreign.pointer)
    return hand, chosen


def score_request(data: Any, asked: str | None) -> Score:
    hand, chosen = parse_request(data, asked)
    return score(hand, chosen)


def answer(body: str, ruleset: str | None) -> str:
    """What `POST /v1/score?ruleset=` answers to `body`, as JSON text: `{"status": 200,
    "body": Score JSON}` or `{"status": 422, "body": problem}` (the browser's entry point;
    the page reads either as it reads the server's answer)."""
    try:
        asked = None if ruleset is None else ruleset.strip().lower()
        if asked is not None and asked not in RULESETS:  # as api.context.parse_ruleset says
            raise RequestRefused(
                INVALID_FIELD, f"ruleset must be one of {', '.join(RULESETS)}, not {ruleset!r}"
            )
        result = score_request(json.loads(body), asked).to_json()
        return json.dumps({"status": 200, "body": result}, ensure_ascii=False)
    except RequestRefused as refused:
        problem = {
            "type": f"/problems/{refused.slug}",
            "title": TITLES[refused.slug],
            "status": 422,
            "detail": refused.detail,
            "pointer": refused.pointer,
        }
        return json.dumps({"status": 422, "body": problem}, ensure_ascii=False)


def _json_type(value: Any) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")
