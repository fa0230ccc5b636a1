"""`api.cli.stream_request`: the argument lists it reads as `mjlens score --jsonl` without
argparse are read by argparse as the same stream with the same rule set, every other option
at its default; every other argument list is left to argparse."""

from __future__ import annotations

import gc
import io
import sys
from typing import Any

import pytest

from api import cli
from api.commands import score as score_command
from scoring import RULESETS


def _argparse(argv: list[str]) -> dict[str, Any]:
    args = cli.build_parser(only="score").parse_args(argv)
    return {k: v for k, v in vars(args).items() if k != "_module"}


def _stream_forms() -> list[tuple[list[str], str | None]]:
    forms: list[tuple[list[str], str | None]] = [(["score", "--jsonl"], None)]
    for name in RULESETS:
        forms += [
            (["score", "--jsonl", "--ruleset", name], name),
            (["score", "--ruleset", name, "--jsonl"], name),
            (["score", "--jsonl", f"--ruleset={name}"], name),
            (["score", f"--ruleset={name}", "--jsonl"], name),
        ]
    return forms


@pytest.mark.parametrize(("argv", "ruleset"), _stream_forms())
def test_what_it_reads_argparse_reads_the_same(argv: list[str], ruleset: str | None) -> None:
    assert cli.stream_request(argv) == (ruleset,)
    want = {**_argparse(["score", "--jsonl"]), "ruleset": ruleset}
    assert _argparse(argv) == want


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["score"],
        ["--jsonl"],
        ["score", "--jsonl", "--jsonl"],
        ["score", "--jsonl", "--json"],
        ["score", "--jsonl", "--ruleset"],
        ["score", "--jsonl", "--ruleset", "nope"],
        ["score", "--jsonl", "--ruleset=nope"],
        ["score", "--jsonl", "--rules", "mcr"],
        ["score", "--jsonl", "123m"],
        ["score", "--ruleset", "--jsonl", "mcr"],
        ["score", "--ruleset", "--jsonl"],
        ["score", "mcr", "--jsonl", "--ruleset"],
        ["score", "--jsonl", "--ruleset", "mcr", "--seat", "S"],
        ["fans", "--jsonl"],
        ["-h", "score", "--jsonl"],
    ],
)
def test_anything_else_is_left_to_argparse(argv: list[str]) -> None:
    assert cli.stream_request(argv) is None


def test_main_streams_with_the_rule_set_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str | None] = []

    def run_stream(ruleset: str | None) -> int:
        asked.append(ruleset)
        return 0

    monkeypatch.setattr(score_command, "run_stream", run_stream)
    assert cli.main(["score", "--ruleset=mcr-mil", "--jsonl"]) == 0
    assert cli.main(["score", "--jsonl"]) == 0
    assert asked == ["mcr-mil", None]


def test_main_streams_stdin_to_stdout(monkeypatch: pytest.MonkeyPatch) -> None:
    line = '{"concealed": ["1m","1m","1m","2m","3m","4m","5m","6m","7m","8m","9m","9m","9m"], '
    line += '"winning_tile": "5m"}\n'
    monkeypatch.setattr(sys, "stdin", io.StringIO(line + "\n"))
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    threshold = gc.get_threshold()
    try:
        assert cli.main(["score", "--jsonl", "--ruleset", "mcr"]) == 0
    finally:  # the stream tunes the collector for its own process: not for the tests after
        gc.unfreeze()
        gc.set_threshold(*threshold)
    texts = out.getvalue().splitlines()
    assert len(texts) == 2
    assert texts[0].startswith('{"ruleset":"mcr","valid":true,"total":')
    assert '"valid":false' in texts[1]
