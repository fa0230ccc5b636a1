"""`mjlens score`: the table, --json, and the --jsonl stream contract."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from api.cli import main
from api.commands.score import stream


def test_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "123456789m123p55s", "--self-drawn"]) == 0
    out = capsys.readouterr().out
    assert "Pure Straight 清龙" in out and "total (mcr)" in out and "each of the three -32" in out
    assert "not counted: No Honors (because of All Chows; non-repeat)" in out


def test_json_and_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "[1111m,1][2222p]345s678s99s", "--json", "--ruleset", "mcr-mil"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["ruleset"] == "mcr-mil" and {f["id"] for f in result["fans"]} >= {82}


def test_context_flags(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "score",
        "SSS123m456p789s11p",
        "--seat",
        "S",
        "--prevalent",
        "W",
        "--flowers",
        "2",
        "--json",
    ]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    ids = {f["id"] for f in result["fans"]}
    assert 61 in ids and 60 not in ids and result["flower_points"] == 2


def test_bad_notation_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "123m"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mjlens: error: invalid hand: wrong tile count") and err.count("\n") == 1


def test_jsonl_answers_every_line_in_place() -> None:
    good = {
        "concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "5s"],
        "winning_tile": "5s",
    }
    lines = [json.dumps(good), "not json", "", json.dumps({"concealed": []}), json.dumps(good)]
    out = io.StringIO()
    assert stream(io.StringIO("\n".join(lines) + "\n"), out, "mcr") == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["valid"] for a in answers] == [True, False, False, False, True]
    assert answers[0]["total"] == answers[4]["total"] == 22
    assert "not JSON" in answers[1]["error"] and "empty line" in answers[2]["error"]
    assert "winning_tile is missing" in answers[3]["error"]


def test_jsonl_through_the_command_line() -> None:
    """The real process: `mjlens score --jsonl` reads stdin and answers line by line."""
    root = Path(__file__).resolve().parents[2]
    hand = {
        "concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "5s"],
        "winning_tile": "5s",
    }
    done = subprocess.run(
        [sys.executable, "-m", "api.cli", "score", "--jsonl", "--ruleset", "mcr-mil"],
        input=json.dumps(hand) + "\n[]\n",
        capture_output=True,
        text=True,
        cwd=root,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first["valid"] and first["ruleset"] == "mcr-mil" and first["total"] == 22
    assert not second["valid"] and "JSON object" in second["error"]
