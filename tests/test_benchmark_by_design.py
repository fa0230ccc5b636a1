"""benchmarks/recognize.py keeps the complete wins' figures per design of set."""

from __future__ import annotations

from benchmarks.recognize import _by_design, _design


def _row(design: str | None, right: bool, review: bool, complete: bool = True) -> dict:
    return {
        "design": design,
        "complete": complete,
        "hand_right": right,
        "score_right": right,
        "right_but_flowers": right,
        "review": review,
    }


def test_each_design_counts_only_its_own_complete_photos() -> None:
    rows = [
        _row("kde/classic", False, True),
        _row("kde/classic", False, False),
        _row("kde/classic", True, True, complete=False),
        _row("kde/default", True, False),
        _row("kde/default", True, True),
    ]
    got = _by_design(rows)
    assert got is not None
    assert got["kde/classic"]["complete_photos"] == 2
    assert got["kde/classic"]["right"] == 0.0
    assert got["kde/classic"]["wrong_flagged"] == 0.5
    assert got["kde/default"]["right"] == 1.0
    assert got["kde/default"]["flag_rate"] == 0.5


def test_one_design_or_unlabelled_photos_give_no_breakdown() -> None:
    assert _by_design([_row("procedural", True, False)]) is None
    assert _by_design([_row(None, True, False), _row(None, False, True)]) is None
    assert _design([{"code": "5p"}]) is None
    assert _design([{"design": "gnome/smooth"}, {"design": "gnome/smooth"}]) == "gnome/smooth"
