"""Bad input is answered with `valid: false` and a precise reason, never an exception."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import HandError, parse_hand, parse_notation, score


def tiles(text: str) -> list[str]:
    return text.split()


def hand(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "melds": [{"type": "chow", "tiles": ["4s", "5s", "6s"], "claimed_from": "left"}],
        "concealed": ["1m", "2m", "3m", "7p", "7p", "7p", "E", "E", "9s", "9s"],
        "winning_tile": "9s",
    }
    base.update(changes)
    return base


@pytest.mark.parametrize(
    ("data", "pointer", "words"),
    [
        (hand(concealed=["1m", "2m"]), "/concealed", "wrong tile count"),  # too few tiles
        # once an IndexError (found by the property test): a chow holding an honor
        (hand(melds=[{"type": "chow", "tiles": ["1p", "2p", "E"]}]), "/melds/0/tiles", "chow"),
        (
            hand(winning_tile="9s", concealed=tiles("9s 9s 9s 9s 1m 2m 3m 7p 7p 7p")),
            "/concealed",
            "5 copies of 9s",
        ),
        (
            hand(melds=[{"type": "chow", "tiles": ["4s", "5s", "7s"]}]),
            "/melds/0/tiles",
            "not a chow",
        ),
        (
            hand(melds=[{"type": "pung", "tiles": ["4s", "4s", "5s"]}]),
            "/melds/0/tiles",
            "not a pung",
        ),
        (
            hand(melds=[{"type": "kong", "tiles": ["4s", "4s", "4s"]}]),
            "/melds/0/tiles",
            "a kong has 4 tiles",
        ),
        (
            hand(melds=[{"type": "triple", "tiles": ["4s", "4s", "4s"]}]),
            "/melds/0/type",
            "not chow, pung or kong",
        ),
        (
            hand(melds=[{"type": "chow", "tiles": ["4s", "5s", "6s"], "claimed_from": "right"}]),
            "/melds/0/claimed_from",
            "left",
        ),
        (hand(winning_tile="10m"), "/winning_tile", "not a tile code"),
        (hand(concealed=tiles("1m 2m 3m 7p 7p 7p E E 9s 1h")), "/concealed/9", "flowers"),
        (hand(self_drawn="yes"), "/self_drawn", "true or false"),
        (hand(seat_wind="X"), "/seat_wind", "E S W N"),
        (hand(flowers=9), "/flowers", "8 flowers"),
        (hand(flowers=["1h", "1h"]), "/flowers", "once"),
        (hand(colour="red"), "/colour", "unknown field"),
        (hand(robbing_kong=True, self_drawn=True), "/robbing_kong", "not self-drawn"),
        (
            hand(
                robbing_kong=True, winning_tile="E", concealed=tiles("1m 2m 3m 7p 7p 7p E 9s 9s 9s")
            ),
            "/robbing_kong",
            "holding a copy",
        ),
        (hand(kong_replacement=True, self_drawn=True), "/kong_replacement", "needs a kong"),
        (hand(kong_replacement=True), "/kong_replacement", "self-drawn"),
        (
            hand(last_tile=True, winning_tile="7p", concealed=tiles("1m 2m 3m 7p 7p E E 9s 9s 9s")),
            "/last_tile",
            "still in the hand",
        ),
    ],
)
def test_bad_hand_is_answered_not_raised(data: dict[str, Any], pointer: str, words: str) -> None:
    result = score(data)
    assert not result.valid and result.total == 0 and result.payments is None
    assert result.error is not None and words in result.error
    with pytest.raises(HandError) as caught:
        parse_hand(data)
    assert caught.value.pointer == pointer


def test_not_a_winning_shape() -> None:
    result = score(hand(concealed=tiles("1m 2m 4m 7p 7p 7p E E 9s 9s")))
    assert not result.valid and result.error is not None and "not a winning hand" in result.error


@pytest.mark.parametrize("data", [None, [], "hand", 7, {"concealed": "1m2m"}, {"melds": {}}])
def test_garbage_never_raises(data: Any) -> None:
    assert score(data).valid is False


def test_unknown_ruleset() -> None:
    result = score(hand(), "riichi")
    assert not result.valid and result.error is not None and "unknown ruleset" in result.error


def test_valid_hand_round_trips_through_json() -> None:
    parsed = parse_hand(hand(flowers=["2h"]))
    assert parse_hand(parsed.to_json()) == parsed


@pytest.mark.parametrize(
    ("text", "melds", "concealed", "win"),
    [
        ("[567m,2][999s,3][SSSS]123pCC", 3, 4, "C"),
        ("123m456p789s111pE E", 0, 13, "E"),
        ("[1111m,1]456p789s111pEE", 1, 10, "E"),
    ],
)
def test_notation(text: str, melds: int, concealed: int, win: str) -> None:
    parsed = parse_notation(text)
    assert (len(parsed.melds), len(parsed.concealed), parsed.winning_tile) == (
        melds,
        concealed,
        win,
    )


def test_notation_melds() -> None:
    parsed = parse_notation("[567m,2][999s,3][SSSS]123pCC")
    chow, pung, kong = parsed.melds
    assert chow.kind == "chow" and chow.claimed_tile == "6m"
    assert pung.kind == "pung" and pung.claimed_from == "right"
    assert kong.kind == "kong" and kong.concealed


def test_notation_with_winning_tile_named() -> None:
    parsed = parse_notation("123m456p789s111pEE", winning_tile="1m")
    assert parsed.winning_tile == "1m" and parsed.concealed.count("1m") == 0


@pytest.mark.parametrize(
    "text", ["[12m]3m", "123x", "[567m,4]123p456p789sEE", "123m[456p]789s11pEE", ""]
)
def test_bad_notation(text: str) -> None:
    with pytest.raises(HandError):
        parse_notation(text)
