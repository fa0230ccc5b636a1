"""The waits benchmark runs end to end on a few hands and prints every row with a ratio."""

from __future__ import annotations

import pytest

from benchmarks.waits import main, random_deals


def test_a_small_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--n", "40", "--scored", "10", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("median time ours/MahjongShanten") == 2
    assert "target median under 5000 µs: met" in out


def test_random_deals_are_13_legal_tiles() -> None:
    for hand in random_deals(3, 50):
        assert len(hand["concealed"]) == 13
        assert max(hand["concealed"].count(t) for t in hand["concealed"]) <= 4
