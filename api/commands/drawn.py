"""`mjlens drawn --ruleset sichuan E=NOTATION S=NOTATION ...`: settle a drawn Sichuan hand.

Each seat still in the hand gives its 13 tiles in the compact notation; the answer says
who is a 花猪 (all three suits), who waits and on what, and who pays whom (查花猪, 查大叫).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from api.cli import CliError
from scoring import HandError, read_notation
from scoring.other.drawn import DrawSettlement, settle_drawn


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "seats", nargs="+", metavar="SEAT=NOTATION", help="each seat's 13 tiles, e.g. E=123m..."
    )
    parser.add_argument(
        "--ruleset", default="sichuan", choices=("sichuan", "sichuan-ordinary"),
        help="sichuan (blood battle, default) or sichuan-ordinary",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the settlement as JSON")


def run(args: argparse.Namespace) -> int:
    hands: dict[str, Any] = {}
    for item in args.seats:
        seat, sep, notation = item.partition("=")
        if not sep or seat.upper() in hands:
            raise CliError(f"give each seat once as SEAT=NOTATION, e.g. E=1113335557779s: {item!r}")
        try:
            hands[seat.upper()] = read_notation(notation)
        except HandError as exc:
            raise CliError(f"seat {seat}: invalid hand: {exc}") from None
    try:
        settled = settle_drawn(hands, args.ruleset)
    except HandError as exc:
        raise CliError(f"invalid hand: {exc}") from None
    print(json.dumps(settled.to_json(), ensure_ascii=False) if args.json else render(settled))
    return 0


def render(settled: DrawSettlement) -> str:
    nets = settled.nets()
    lines = [f"drawn hand ({settled.ruleset})"]
    for s in settled.seats:
        state = "花猪 flower pig" if s.flower_pig else (
            f"waits on {' '.join(s.waits)} (worth {s.worth})" if s.waits else "not waiting"
        )  # fmt: skip
        lines.append(f"  {s.seat}: {state}; net {nets[s.seat]:+d}")
    for t in settled.transfers:
        lines.append(f"  {t.payer} pays {t.payee} {t.amount} ({t.why})")
    return "\n".join(lines)
