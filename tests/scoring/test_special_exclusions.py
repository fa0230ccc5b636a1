"""Each MCR special hand lists, as not counted, the fans the rule book names beside it
(seed document 004, the "(not counting ...)" line under each), because of that hand."""

from __future__ import annotations

import pytest

from scoring import Fan, read_notation, score

F = Fan


@pytest.mark.parametrize(
    ("notation", "self_drawn", "special", "book"),
    [
        # 19. "Seven pairs ... (excluding Dont Ask For Help, single fishing, clearing in front
        # of the door ...)": 不求人, 单钓将, 门前清; the hand once listed none of them
        ("1133m5577p99sEECC", False, F.SEVEN_PAIRS,
         {F.FULLY_CONCEALED_HAND, F.SINGLE_WAIT, F.CONCEALED_HAND}),
        ("1133m5577p99sEECC", True, F.SEVEN_PAIRS,
         {F.FULLY_CONCEALED_HAND, F.SINGLE_WAIT, F.CONCEALED_HAND}),
        # 6. "Even seven pairs ... (excluding Quan Jin, Dont Ask For Help, single fishing, seven
        # pairs, clear in front of the door, missing one door, no words, generally high,
        # peaceful and even six"
        ("11223344556677m", False, F.SEVEN_SHIFTED_PAIRS,
         {F.FULL_FLUSH, F.FULLY_CONCEALED_HAND, F.SINGLE_WAIT, F.SEVEN_PAIRS, F.CONCEALED_HAND,
          F.ONE_VOIDED_SUIT, F.NO_HONORS, F.PURE_DOUBLE_CHOW, F.ALL_CHOWS, F.SHORT_STRAIGHT}),
        # 7. "Thirteen orphans ... (excluding five gates, Dont Ask For Help, single fishing,
        # full belt and clearing in front of the door)"
        ("19m19p19sESWNCFP1m", False, F.THIRTEEN_ORPHANS,
         {F.ALL_TYPES, F.FULLY_CONCEALED_HAND, F.SINGLE_WAIT, F.OUTSIDE_HAND,
          F.CONCEALED_HAND}),
        # 20. "Seven stars ... (Not counting the five doors, Dont Ask For Help, helpless,
        # fishing alone, clearing the door)"
        ("147m258p3sESWNCFP", False, F.GREATER_HONORS_AND_KNITTED,
         {F.ALL_TYPES, F.FULLY_CONCEALED_HAND, F.LESSER_HONORS_AND_KNITTED, F.SINGLE_WAIT,
          F.CONCEALED_HAND}),
        # 34. "Don't rely ... (Not counting the five doors, Dont Ask For Help, fishing alone,
        # clearing in front of the door)"
        ("147m258p36sESWNCF", False, F.LESSER_HONORS_AND_KNITTED,
         {F.ALL_TYPES, F.FULLY_CONCEALED_HAND, F.SINGLE_WAIT, F.CONCEALED_HAND}),
    ],
)  # fmt: skip
def test_special_hands_list_the_books_exclusions(
    notation: str, self_drawn: bool, special: Fan, book: set[Fan]
) -> None:
    out = score(read_notation(notation, self_drawn=self_drawn)).to_json()
    assert special in {f["id"] for f in out["fans"]}
    listed = {e["id"]: e["because_of"] for e in out["excluded"]}
    assert book <= set(listed)
    assert all(listed[fan] == special for fan in book)
    assert not {f["id"] for f in out["fans"]} & book  # and none of them is counted


def test_the_fan_table_says_the_same() -> None:
    from scoring import FAN_TABLE

    seven_pairs = next(row for row in FAN_TABLE if row.id == F.SEVEN_PAIRS)
    assert {F.FULLY_CONCEALED_HAND, F.CONCEALED_HAND, F.SINGLE_WAIT} <= set(seven_pairs.excludes)
