"""The value classes keep what their dataclasses gave them: equality and hashing by field,
a repr naming each field, no assignment, copies and `replace`; and importing the scorer
does not import the dataclasses module (its start-up cost is what they were rewritten for)."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys

import pytest

from scoring import FanScore, Meld, Score, score
from scoring.fan_table import ROWS
from scoring.fan_tables import fan_table
from scoring.hand import Hand, Table
from scoring.profiles import MCR_PROFILES, Profile


def test_records_compare_hash_and_print_by_their_fields() -> None:
    meld = Meld("pung", ("1m", "1m", "1m"), claimed_from="left")
    same = Meld("pung", ("1m",) * 3, False, "left", None)
    assert meld == same and hash(meld) == hash(same) and meld != Meld("pung", ("2m",) * 3)
    assert repr(meld) == (
        "Meld(kind='pung', tiles=('1m', '1m', '1m'), concealed=False, claimed_from='left', "
        "claimed_tile=None)"
    )
    assert Table() == Table("E") and Table() != Table(dealer="S")
    with pytest.raises(AttributeError):
        setattr(meld, "kind", "chow")  # noqa: B010 (the assignment a frozen class refuses)
    hand = Hand((meld,), ("2m",) * 10, "3m", self_drawn=True)
    assert hand.replace(winning_tile="4m") == Hand((meld,), ("2m",) * 10, "4m", True)
    with pytest.raises(TypeError):
        hand.replace(winning="4m")
    assert copy.deepcopy(hand) == hand and pickle.loads(pickle.dumps(hand)) == hand
    match_args = ("kind", "tiles", "concealed", "claimed_from", "claimed_tile")
    assert getattr(Meld, "__match_args__") == match_args  # noqa: B009 (mypy does not see it)


def test_scores_rows_and_profiles_compare_by_their_fields() -> None:
    hand = {"concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p",
                          "3p", "5s"], "winning_tile": "5s"}  # fmt: skip
    first, again = score(hand), score(hand)
    assert first == again and first is not again
    assert first != score({**hand, "self_drawn": True})
    assert repr(first).startswith("Score(ruleset='mcr', valid=True, total=")
    fields = ("id", "name_en", "name_zh", "points", "count", "sets")
    assert first.fans[0] == FanScore(*(getattr(first.fans[0], n) for n in fields))
    assert ROWS[1] == ROWS[1] and ROWS[1] != ROWS[2] and "name_en='Big Four Winds'" in repr(ROWS[1])
    assert MCR_PROFILES["mcr"] == Profile("mcr") != MCR_PROFILES["mcr-mil"]
    assert fan_table("mcr") == fan_table("mcr")
    assert Score("mcr", False, pointer="/a") == Score("mcr", False, pointer="/b")  # not compared


def test_importing_the_scorer_leaves_dataclasses_out() -> None:
    code = "import sys, scoring, scoring.fan_tables; print('dataclasses' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
