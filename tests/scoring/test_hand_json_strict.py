"""Hand JSON is read strictly: an unknown key at any depth is refused with its JSON pointer,
a `ruleset` key is honoured or refused, and a table fact a rule set does not score is
refused under it rather than ignored."""

from __future__ import annotations

import json
from typing import Any

import pytest

from api.commands.score import stream
from scoring import parse_hand, score
from scoring.hand import HandError

KONG_HAND: dict[str, Any] = {
    "melds": [{"type": "kong", "tiles": ["9p"] * 4, "concealed": True}],
    "concealed": ["1m", "2m", "3m", "4s", "5s", "6s", "E", "E", "E", "7p"],
    "winning_tile": "7p",
}


def with_meld_key(key: str, value: Any) -> dict[str, Any]:
    meld = {**KONG_HAND["melds"][0], key: value}
    meld.pop("concealed")
    return {**KONG_HAND, "melds": [meld]}


@pytest.mark.parametrize(
    ("hand", "pointer"),
    [
        # a misspelt "concealed" once scored this concealed kong as a claimed one
        (with_meld_key("concealled", True), "/melds/0/concealled"),
        (with_meld_key("claimed_form", "left"), "/melds/0/claimed_form"),
        ({**KONG_HAND, "self_draw": True}, "/self_draw"),
        ({**KONG_HAND, "a/b": 1}, "/a~1b"),
    ],
)
def test_an_unknown_key_at_any_depth_is_refused_with_its_pointer(
    hand: dict[str, Any], pointer: str
) -> None:
    with pytest.raises(HandError) as caught:
        parse_hand(hand)
    assert caught.value.pointer == pointer
    out = score(hand).to_json()
    assert out["valid"] is False and out["pointer"] == pointer and pointer in out["error"]


def test_the_known_hand_still_scores() -> None:
    assert score(KONG_HAND).valid


def test_jsonl_answers_an_unknown_meld_key_in_place() -> None:
    import io

    lines = io.StringIO(json.dumps(with_meld_key("concealled", True)) + "\n")
    sink = io.StringIO()
    stream(lines, sink, None)
    out = json.loads(sink.getvalue())
    assert out["valid"] is False and out["pointer"] == "/melds/0/concealled"


SICHUAN_HAND: dict[str, Any] = {
    "melds": [],
    "concealed": ["1m", "1m", "2m", "2m", "3m", "3m", "4m", "4m", "5m", "5m", "6m", "6m", "7m"],
    "winning_tile": "7m",
}


def test_a_ruleset_key_is_honoured() -> None:
    out = score({**SICHUAN_HAND, "ruleset": "sichuan"}).to_json()
    assert out["ruleset"] == "sichuan" and out["unit"] == "fan" and out["total"] == 3


def test_a_ruleset_key_that_disagrees_with_the_request_is_refused() -> None:
    out = score({**SICHUAN_HAND, "ruleset": "sichuan"}, "mcr").to_json()
    assert out["valid"] is False and out["pointer"] == "/ruleset"
    assert score({**SICHUAN_HAND, "ruleset": "sichuan"}, "sichuan").valid


@pytest.mark.parametrize("bad", ["riichi", 3, None])
def test_a_ruleset_key_that_names_no_rule_set_is_refused(bad: object) -> None:
    hand = {**SICHUAN_HAND, "ruleset": bad}
    if bad is None:  # null is the same as absent
        assert score(hand).ruleset == "mcr"
        return
    out = score(hand).to_json()
    assert out["valid"] is False and out["pointer"] == "/ruleset"


@pytest.mark.parametrize(
    ("field", "value", "ruleset"),
    [
        ("wild", ["C"], "mcr"),
        ("kaibao", True, "sichuan"),
        ("kong_discard", True, "sichuan-ordinary"),
        ("burned_rounds", 2, "shanghai"),
    ],
)
def test_a_table_fact_the_rule_set_does_not_score_is_refused(
    field: str, value: object, ruleset: str
) -> None:
    out = score({**SICHUAN_HAND, field: value}, ruleset).to_json()
    assert out["valid"] is False and out["pointer"] == f"/{field}"


@pytest.mark.parametrize(
    ("extra", "pointer"),
    [
        ({"discarder": "E"}, "/discarder"),  # the winner sits East: not his own discard
        ({"discarder": "S", "self_drawn": True}, "/discarder"),
        ({"dealer": "X"}, "/dealer"),
        ({"wild": ["9z"]}, "/wild/0"),
        ({"heavenly_win": True}, "/heavenly_win"),  # on a discard
        ({"earthly_win": True}, "/earthly_win"),  # the winner is the dealer
        ({"burned_rounds": -1}, "/burned_rounds"),
        ({"mutual_pay": ["E"]}, "/mutual_pay"),
    ],
)
def test_table_facts_that_cannot_hold_are_refused(extra: dict[str, Any], pointer: str) -> None:
    with pytest.raises(HandError) as caught:
        parse_hand({**SICHUAN_HAND, **extra})
    assert caught.value.pointer == pointer


def test_the_table_facts_round_trip_through_hand_json() -> None:
    extra = {"dealer": "S", "discarder": "S", "wild": ["C"], "seat_wind": "W"}
    hand = parse_hand({**SICHUAN_HAND, **extra})
    assert {k: hand.to_json()[k] for k in extra} == extra
    assert "dealer" not in parse_hand(SICHUAN_HAND).to_json()  # defaults stay out


# --- the same through every door: POST /v1/score and the command line ----------------------


@pytest.fixture(scope="module")
def client() -> Any:
    from fastapi.testclient import TestClient

    from api.app import create_app

    return TestClient(create_app())


@pytest.mark.parametrize(
    ("body", "params", "pointer"),
    [
        (with_meld_key("concealled", True), {}, "/melds/0/concealled"),
        ({**SICHUAN_HAND, "ruleset": "sichuan"}, {"ruleset": "mcr"}, "/ruleset"),
        ({**SICHUAN_HAND, "ruleset": "riichi"}, {}, "/ruleset"),
        ({**SICHUAN_HAND, "wild": ["C"]}, {}, "/wild"),
        ({**SICHUAN_HAND, "kaibao": True}, {"ruleset": "sichuan"}, "/kaibao"),
    ],
)
def test_post_score_refuses_with_the_pointer(
    client: Any, body: dict[str, Any], params: dict[str, str], pointer: str
) -> None:
    answer = client.post("/v1/score", json=body, params=params)
    assert answer.status_code == 422
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["pointer"] == pointer


def test_post_score_honours_the_hands_ruleset(client: Any) -> None:
    answer = client.post("/v1/score", json={**SICHUAN_HAND, "ruleset": "sichuan"})
    assert answer.status_code == 200 and answer.json()["ruleset"] == "sichuan"
    assert answer.json()["unit"] == "fan"
    same = client.post("/v1/score", json={**SICHUAN_HAND, "ruleset": "sichuan"},
                       params={"ruleset": "sichuan"})  # fmt: skip
    assert same.status_code == 200


def test_command_line_hand_json_is_read_strictly(capsys: Any) -> None:
    from api.cli import main

    assert main(["score", "--json", json.dumps(with_meld_key("concealled", True))]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["pointer"] == "/melds/0/concealled"
    assert main(["score", "--json", json.dumps({**SICHUAN_HAND, "ruleset": "sichuan"})]) == 0
    assert json.loads(capsys.readouterr().out)["ruleset"] == "sichuan"
    # a context flag beside a Hand JSON would be ignored: refused instead
    assert main(["score", json.dumps(SICHUAN_HAND), "--self-drawn"]) == 2


def test_jsonl_honours_each_hands_ruleset() -> None:
    import io

    lines = "\n".join(json.dumps(h) for h in ({**SICHUAN_HAND, "ruleset": "sichuan"}, KONG_HAND))
    sink = io.StringIO()
    stream(io.StringIO(lines + "\n"), sink, None)
    answers = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert [a["ruleset"] for a in answers] == ["sichuan", "mcr"]
