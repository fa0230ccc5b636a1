"""PyMahjongGB behind the `mjlens score --jsonl` contract: the peer in benchmarks/scoring.py.

One Hand JSON per line on stdin, one Score-shaped JSON per line on stdout, a bad line
answered in place with `valid: false`. Plain Python around the C++ calculator, so the
benchmark's ratio measures our scorer against the best a Python script can do with it.

    python benchmarks/pmgb_jsonl.py < hands.jsonl > scores.jsonl
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import MahjongGB

from tests.scoring import pmgb


def answer(line: str) -> dict[str, object]:
    """The Score JSON for one line of input, or the reason it is not a hand."""
    try:
        result = MahjongGB.MahjongFanCalculator(**pmgb.arguments(json.loads(line)))
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as error:
        return {"ruleset": "pymahjonggb", "valid": False, "total": 0, "fans": [],
                "error": f"{type(error).__name__}: {error}"}  # fmt: skip
    fans = [
        {"id": pmgb.FAN_ID[en], "name_en": en, "name_zh": zh, "points": points, "count": count}
        for points, count, zh, en in result
    ]
    total = sum(f["points"] * f["count"] for f in fans)
    return {"ruleset": "pymahjonggb", "valid": True, "total": total, "fans": fans, "error": None}


def main() -> int:
    out = sys.stdout
    for line in sys.stdin:
        if line.strip():
            out.write(json.dumps(answer(line), ensure_ascii=False) + "\n")
            out.flush()  # a streaming contract: each answer leaves as soon as it is ready
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
