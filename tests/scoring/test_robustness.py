"""Whatever arrives, `score` answers with a Score: valid, or invalid with a reason."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import RULESETS, score
from scoring.tiles import FACES, PLAYING

tile = st.sampled_from(PLAYING)
anything = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 20) | st.text(max_size=4) | tile,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
meld = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["chow", "pung", "kong", "eye"]),
        "tiles": st.lists(tile, min_size=2, max_size=5),
    },
    optional={
        "concealed": st.booleans() | anything,
        "claimed_from": st.sampled_from(["left", "right", "opposite", "up"]),
        "claimed_tile": tile,
    },
)
hand_like = st.fixed_dictionaries(
    {},
    optional={
        "melds": st.lists(meld, max_size=5) | anything,
        "concealed": st.lists(st.sampled_from(FACES), max_size=15) | anything,
        "winning_tile": tile | anything,
        "self_drawn": st.booleans() | anything,
        "seat_wind": st.sampled_from("ESWNX"),
        "prevalent_wind": st.sampled_from("ESWN"),
        "flowers": st.integers(-1, 9) | st.lists(st.sampled_from(FACES), max_size=3),
        "last_tile": st.booleans(),
        "last_of_wall": st.booleans(),
        "kong_replacement": st.booleans(),
        "robbing_kong": st.booleans(),
    },
)


@settings(max_examples=300, deadline=None)
@given(data=hand_like | anything, ruleset=st.sampled_from(RULESETS[:2]))
def test_score_never_raises(data: Any, ruleset: str) -> None:
    result = score(data, ruleset).to_json()
    assert result["valid"] or result["error"]
    if result["valid"]:
        assert result["total"] == sum(f["points"] * f["count"] for f in result["fans"])


@settings(max_examples=200, deadline=None)
@given(tiles=st.lists(tile, min_size=14, max_size=14))
def test_fourteen_random_tiles(tiles: list[str]) -> None:
    """Mostly not a win: either a clear refusal or a consistent score."""
    result = score({"concealed": tiles[:13], "winning_tile": tiles[13]})
    assert result.valid or (result.error and result.total == 0)
