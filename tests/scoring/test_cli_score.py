"""`mjlens score`: the table, --json, and the --jsonl stream contract."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from api.cli import main
from api.commands import score as score_command
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


def test_waits_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "123456789m1234p", "--seat", "S"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "waits on 2 tiles (mcr), 6 copies unseen"
    assert out[2].split()[:4] == ["1p", "3", "21", "23"] and "Pure Straight" in out[2]
    assert out[3].split()[:4] == ["4p", "3", "22", "24"]


def test_waits_table_marks_wins_under_the_minimum(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "[123m,1][567p,1]789s23p55s"]) == 0
    out = capsys.readouterr().out
    assert "   1p       4       3*          4*" in out and "under the 8-point minimum" in out


def test_waits_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "19m19p19sESWNCFP", "--json", "--ruleset", "mcr-mil"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert not result["valid"] and result["ruleset"] == "mcr-mil"
    assert len(result["waits"]) == 13
    first = result["waits"][0]
    assert first["tile"] == "1m" and first["unseen"] == 3
    assert first["discard"]["total"] == 88 and first["self_drawn"]["total"] == 89


def test_not_waiting(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "159m26p37s48sESWC"]) == 0
    assert capsys.readouterr().out == "not a win yet, and no tile completes these 13 tiles\n"
    assert main(["score", "123m456p789s1234p", "--ruleset", "sichuan"]) == 0
    assert "sichuan takes no win on 1p 4p 7p: " in capsys.readouterr().out


def test_thirteen_tiles_and_a_winning_tile_is_a_win(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "123456789m1234p", "--win", "1p", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["valid"] and result["total"] == 21 and "waits" not in result


def test_a_flag_of_one_win_with_13_tiles_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "123456789m1234p", "--self-drawn"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mjlens: error: invalid hand: self_drawn describes one win")
    assert err.count("\n") == 1


def test_fourteen_tiles_in_no_shape_list_discards(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "123456789m1235p9s"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("invalid hand: not a winning hand")
    assert out[2:] == [
        "  discard 5p: 9s (3 unseen, 22 / 24)",
        "  discard 9s: 5p (3 unseen, 23 / 25)",
    ]


def test_jsonl_answers_a_waiting_hand() -> None:
    waiting = {"concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p"]}
    waiting["concealed"] += ["3p", "4p"]
    out = io.StringIO()
    stream(io.StringIO(json.dumps(waiting) + "\n"), out, "mcr")
    answer = json.loads(out.getvalue())
    assert [w["tile"] for w in answer["waits"]] == ["1p", "4p"]


@pytest.mark.parametrize(
    "line",
    ['{"a":1}\n', '{"a":1}', ' {"a":1}\n', '{"a":1}\r\n', '{"a":1}\t \n', "[1,2]\n", "NaN\n",
     '{"a":1} x\n', "\ufeff{}\n", "", "\n", "1 2\n", '{"a":1}\x0b\n', '{"a":1}\u2028\n',
     '{"a"\n'],
)  # fmt: skip
def test_a_stream_line_is_read_as_json_loads_reads_it(line: str) -> None:
    def read(how: Callable[[str], object]) -> tuple[str, object]:
        try:
            return "read", how(line)
        except json.JSONDecodeError as exc:
            return "refused", str(exc)

    assert repr(read(score_command._read_line)) == repr(read(json.loads))  # repr: NaN too
