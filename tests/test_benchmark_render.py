"""benchmarks/recognize.py renders labelled wins of the kind asked for."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.recognize import render


def test_render_writes_each_win_with_its_hand_and_kind(tmp_path: Path) -> None:
    render(tmp_path, 2, ["procedural"], 320, 5, kind="cluttered_win")
    labels = sorted(tmp_path.glob("*.json"))
    assert [p.stem for p in labels] == ["00000", "00001"]
    assert all((tmp_path / f"{p.stem}.jpg").stat().st_size > 0 for p in labels)
    for path in labels:
        label = json.loads(path.read_text())
        assert label["kind"] == "cluttered_win" and label["hand"]["winning_tile"]
        assert label["annotations"]
