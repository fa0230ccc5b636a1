"""The fan table itself: the rule book's 81 rows, in order, each with a check that exists."""

from __future__ import annotations

import importlib
from collections import Counter

from scoring import FAN_TABLE
from scoring.fan_table import ROWS


def test_ids_are_the_book_order() -> None:
    assert [row.id for row in FAN_TABLE] == list(range(1, 82))


def test_points_per_group_match_the_book() -> None:
    # 88 x7, 64 x6, 48 x2, 32 x3, 24 x9, 16 x6, 12 x5, 8 x9, 6 x7, 4 x4, 2 x10, 1 x13
    expected = {88: 7, 64: 6, 48: 2, 32: 3, 24: 9, 16: 6, 12: 5, 8: 9, 6: 7, 4: 4, 2: 10, 1: 13}
    assert Counter(row.points for row in FAN_TABLE) == expected
    assert [row.points for row in FAN_TABLE] == sorted((r.points for r in FAN_TABLE), reverse=True)


def test_names_are_unique_and_present() -> None:
    assert len({row.name_en for row in FAN_TABLE}) == 81
    assert len({row.name_zh for row in FAN_TABLE}) == 81
    assert all(row.description for row in FAN_TABLE)


def test_excludes_point_at_other_real_fans() -> None:
    for row in FAN_TABLE:
        assert row.id not in row.excludes
        assert all(e in ROWS for e in row.excludes)


def test_every_check_exists() -> None:
    for row in ROWS.values():
        module, name = row.check.rsplit(".", 1)
        assert callable(getattr(importlib.import_module(f"scoring.{module}"), name)), row
