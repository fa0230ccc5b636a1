"""`mjlens score`: score a hand given in the compact notation, or stream Hand JSON lines.

`mjlens score "[567m,2][999s,3][SSSS]123pCC" --seat S` prints a table for a person; 13 tiles
and no `--win` print what the hand waits on and what each win would score, and 14 tiles that
form no winning shape the discards that would leave them waiting. `mjlens score --jsonl`
reads one Hand JSON per line on stdin and writes one Score JSON per line on stdout, an
invalid line answered in place with `valid: false`.
"""

from __future__ import annotations

import gc
import json
import sys
from typing import TYPE_CHECKING, Any, TextIO

from api.cli import CliError
from scoring import RULESETS, HandError, Score, json_text, read_notation, score
from scoring.fan_tables import UNIT_WORDS, amount, fan_table
from scoring.rulesets import Unit
from scoring.score import MINIMUM
from scoring.score import invalid as score_invalid
from scoring.tiles import PLAYING, WINDS
from scoring.waits import Discard, Wait
from scoring.win_text import plain_win_text

if TYPE_CHECKING:
    import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "notation",
        nargs="?",
        help='the hand, e.g. "[567m,2][999s,3][SSSS]123pCC", or one Hand JSON object',
    )
    parser.add_argument(
        "--jsonl", action="store_true", help="read Hand JSON lines on stdin, write Score JSON lines"
    )
    parser.add_argument(
        "--ruleset",
        choices=RULESETS,
        help="rule set (default mcr; with --jsonl a hand may name its own `ruleset`)",
    )
    parser.add_argument(
        "--win",
        metavar="TILE",
        help="the winning tile (default: the last tile written; 13 tiles without it: the waits)",
    )
    parser.add_argument(
        "--self-drawn", action="store_true", help="won on a tile from the wall (自摸)"
    )
    parser.add_argument("--seat", default="E", choices=WINDS, help="seat wind (default E)")
    parser.add_argument(
        "--prevalent", default="E", choices=WINDS, help="prevalent wind (default E)"
    )
    parser.add_argument(
        "--flowers", type=int, default=0, metavar="N", help="number of flowers (0-8)"
    )
    parser.add_argument(
        "--last-tile", action="store_true", help="the last copy of the winning tile (和绝张)"
    )
    parser.add_argument(
        "--last-of-wall",
        action="store_true",
        help="won on the last tile of the wall (妙手回春/海底捞月)",
    )
    parser.add_argument(
        "--kong-replacement",
        action="store_true",
        help="won on a kong's replacement tile (杠上开花)",
    )
    parser.add_argument(
        "--robbing-kong", action="store_true", help="won by robbing a kong (抢杠和)"
    )
    parser.add_argument(
        "--json", action="store_true", help="print the Score JSON instead of a table"
    )
    _table_arguments(parser)


def _table_arguments(parser: argparse.ArgumentParser) -> None:
    """What the table knows beyond the tiles (Hand JSON's table facts); a rule set that does
    not score one refuses the hand."""
    table = parser.add_argument_group("the table (rule sets other than MCR)")
    table.add_argument("--dealer", choices=WINDS, help="the dealer's seat (default E)")
    table.add_argument(
        "--discarder", choices=WINDS, help="the seat that discarded the winning tile"
    )
    table.add_argument(
        "--wild", action="append", choices=PLAYING, metavar="TILE",
        help="a wild tile (Beijing 会), repeatable",
    )  # fmt: skip
    table.add_argument(
        "--heavenly-win", action="store_true", help="the dealer's dealt tiles won (天和)"
    )
    table.add_argument(
        "--earthly-win", action="store_true", help="won before the first discard (地和)"
    )
    table.add_argument(
        "--kong-discard", action="store_true", help="won on the discard after a kong (杠上炮)"
    )
    table.add_argument("--burned-rounds", type=int, metavar="N", help="rounds of 烧庄 (Beijing)")
    table.add_argument(
        "--mutual-pay", action="append", choices=WINDS, metavar="SEAT",
        help="a seat in 互包 with the winner (Beijing), repeatable",
    )  # fmt: skip
    table.add_argument("--kaibao", action="store_true", help="开宝: the points double (Shanghai)")
    table.add_argument("--huangfan", action="store_true", help="荒番: the points double (Shanghai)")


def _table(args: argparse.Namespace) -> dict[str, Any]:
    """The table facts given on the command line, as Hand JSON keys."""
    given = {
        "dealer": args.dealer,
        "discarder": args.discarder,
        "wild": args.wild,
        "heavenly_win": args.heavenly_win or None,
        "earthly_win": args.earthly_win or None,
        "kong_discard": args.kong_discard or None,
        "burned_rounds": args.burned_rounds,
        "mutual_pay": args.mutual_pay,
        "kaibao": args.kaibao or None,
        "huangfan": args.huangfan or None,
    }
    return {key: value for key, value in given.items() if value is not None}


def run(args: argparse.Namespace) -> int:
    if args.jsonl:
        if args.notation:
            raise CliError("give either a notation or --jsonl, not both")
        return run_stream(args.ruleset)
    if not args.notation:
        raise CliError('give a hand, e.g. mjlens score "[567m,2][999s,3][SSSS]123pCC", or --jsonl')
    if args.notation.lstrip().startswith("{"):
        return _print(score(_hand_json(args), args.ruleset), args.json)
    try:
        hand = read_notation(
            args.notation,
            winning_tile=args.win,
            self_drawn=args.self_drawn,
            seat_wind=args.seat,
            prevalent_wind=args.prevalent,
            flowers=args.flowers,
            last_tile=args.last_tile,
            last_of_wall=args.last_of_wall,
            kong_replacement=args.kong_replacement,
            robbing_kong=args.robbing_kong,
            table=_table(args),
        )
    except HandError as exc:
        raise CliError(f"invalid hand: {exc}") from None
    return _print(score(hand, args.ruleset or "mcr"), args.json)


def _print(result: Score, as_json: bool) -> int:
    if as_json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print(render(result))
    return 0 if result.valid or result.waits is not None else 1


CONTEXT_FLAGS = ("win", "self_drawn", "last_tile", "last_of_wall", "kong_replacement",
                 "robbing_kong")  # fmt: skip


def _hand_json(args: argparse.Namespace) -> Any:
    """A Hand JSON object given in place of the notation, read as `--jsonl` reads a line;
    the context lives inside it, so a context flag beside it is refused, not ignored."""
    given = [name for name in CONTEXT_FLAGS if getattr(args, name)]
    given += [n for n in ("seat", "prevalent") if getattr(args, n) != "E"]
    given += ["flowers"] * bool(args.flowers) + list(_table(args))
    if given:
        flag = given[0].replace("_", "-")
        raise CliError(f"--{flag} beside a Hand JSON: give it inside the hand instead")
    try:
        return json.loads(args.notation)
    except json.JSONDecodeError as exc:
        raise CliError(f"not JSON: {exc.msg} at column {exc.colno}") from None


def run_stream(ruleset: str | None) -> int:
    """`mjlens score --jsonl`: this process's stdin to its stdout."""
    # Scoring makes many short-lived, acyclic objects that reference counting frees at
    # once; the cycle collector's frequent young-generation passes find nothing and cost
    # about a quarter of the stream's time. This process only streams: freeze what the
    # imports made and collect young objects less often.
    gc.freeze()
    gc.set_threshold(50_000, 10, 10)
    done = stream(sys.stdin, sys.stdout, ruleset)
    gc.freeze()  # what the stream remembered too: the collection at exit need not walk it
    return done


def stream(source: TextIO, sink: TextIO, ruleset: str | None) -> int:
    """One Score JSON line per input line, in order; a bad line is answered, never fatal.
    `ruleset` None: each hand's own `ruleset` key, else mcr."""
    for line in source:
        sink.write(_line_text(line, ruleset) + "\n")
        sink.flush()  # a caller may wait for each answer before sending the next hand
    return 0


def _line_text(line: str, ruleset: str | None) -> str:
    """The Score JSON text of one line: a plain MCR win's written straight from its reading
    (`plain_win_text`, the same text), any other answer through `score()`."""
    try:
        data = _read_line(line)
    except json.JSONDecodeError:
        return json_text.score_text(_score_line(line, ruleset))  # it answers the error
    text = plain_win_text(data, ruleset)
    return json_text.score_text(score(data, ruleset)) if text is None else text


_decode = json.JSONDecoder().raw_decode


def _read_line(line: str) -> Any:
    """json.loads(line), without its trailing-whitespace pattern for a line that is one
    JSON text and its newline; anything else is json.loads's, errors and all."""
    try:
        data, end = _decode(line)
    except ValueError:
        return json.loads(line)
    if end != len(line) and line[end:].strip(" \t\n\r"):  # JSON's whitespace only
        return json.loads(line)
    return data


def _score_line(line: str, ruleset: str | None) -> Score:
    try:
        data = _read_line(line)
    except json.JSONDecodeError as exc:
        error = (
            "empty line: expected one Hand JSON object"
            if not line.strip()
            else f"not JSON: {exc.msg} at column {exc.colno}"
        )
        return score_invalid(ruleset or "mcr", error)
    return score(data, ruleset)


def render(result: Score) -> str:
    """A table for a person: each fan with its points and sets, then the total and payments;
    for 13 tiles the waits, for 14 in no winning shape the discards that leave a wait."""
    if result.waits is not None:
        return render_waits(result.waits, result.ruleset, result.error)
    if not result.valid:
        lines = [f"invalid hand: {result.error}"]
        if result.discards:
            lines.append(render_discards(result.discards))
        return "\n".join(lines)
    table = fan_table(result.ruleset)
    unit = table.unit
    lines = []
    for fan in result.fans:
        times = f" x{fan.count}" if fan.count > 1 else ""
        name = f"{fan.name_en} {fan.name_zh}{times}"
        lines.append(f"{fan.points * fan.count:>4}  {fan.id:>2} {name:<34} {' '.join(fan.sets)}")
    lines.append(
        f"{result.total:>4}  total ({result.ruleset}): {amount(result.total, unit, result.ruleset)}"
        f" / {amount(result.total, unit, result.ruleset, 'zh')}"
        + (f", {result.flower_points} from flowers" if result.flower_points else "")
    )
    if result.capped_from is not None and table.limits.cap is not None:
        raw, cap = result.capped_from, table.limits.cap
        lines.append(
            f"      {raw} {_zh(unit)}, capped at {cap} "
            f"({amount(raw, unit, result.ruleset)}, 封顶 {cap} {_zh(unit)})"
        )
    if result.meets_minimum and result.payments is not None:
        lines.append(f"      payments: {_payments(result.payments)}")
    else:
        lines.append("      below the 8-point minimum (flowers not counted): not a legal win")
    for ex in result.excluded:
        by = table.name_en(ex.because_of)
        times = f" x{ex.count}" if ex.count > 1 else ""
        lines.append(
            f"      not counted: {table.name_en(ex.id)}{times} (because of {by}; {ex.rule})"
        )
    return "\n".join(lines)


def _zh(unit: Unit) -> str:
    return UNIT_WORDS[unit][1]


def _payments(pay: dict[str, int | None]) -> str:
    """Who pays what: the winner, the discarder or each of the three, a contractor, and
    each seat's net where the rule set gives it."""
    if pay.get("contractor") is not None:
        who = f"contractor {pay['contractor']} (承包)"
    elif pay.get("discarder") is not None:
        who = f"discarder {pay['discarder']}, others {pay['others']} each"
    else:
        who = f"each of the three {pay['others']}"
    seats = [f"{seat} {pay[seat]:+d}" for seat in WINDS if pay.get(seat) is not None]
    return f"winner +{pay['winner']}, {who}" + (f"; by seat {', '.join(seats)}" if seats else "")


UNDER = "*"  # marks a win under the minimum in the tables below


def _points(result: Score) -> str:
    if not result.valid:
        return "-"
    return f"{result.total}{'' if result.meets_minimum else UNDER}"


def _fan_names(result: Score) -> str:
    return ", ".join(f.name_en + (f" x{f.count}" if f.count > 1 else "") for f in result.fans)


def _footnote(waits: tuple[Wait, ...]) -> list[str]:
    wins = [s for w in waits for s in (w.discard, w.self_drawn) if s.valid]
    if all(s.meets_minimum for s in wins):
        return []
    return [f"  {UNDER} under the {MINIMUM}-point minimum (flowers not counted): not a legal win"]


def render_waits(waits: tuple[Wait, ...], ruleset: str, why: str | None = None) -> str:
    """Each tile the hand waits on: copies unseen, points won on a discard and self-drawn
    (- where the rule set refuses that win), and the fans of the win on a discard; with no
    waits, `why`."""
    if not waits:
        return why or "not waiting"
    unseen = sum(w.unseen for w in waits)
    lines = [
        f"waits on {len(waits)} tile{'s' if len(waits) > 1 else ''} ({ruleset}), "
        f"{unseen} cop{'ies' if unseen != 1 else 'y'} unseen",
        "  tile  unseen  discard  self-drawn  fans (on a discard)",
    ]
    for w in waits:
        fans = _fan_names(w.discard if w.discard.valid else w.self_drawn)
        lines.append(
            f"  {w.tile:>4}  {w.unseen:>6}  {_points(w.discard):>7}  {_points(w.self_drawn):>10}"
            f"  {fans}"
        )
    return "\n".join(lines + _footnote(waits))


def render_discards(discards: tuple[Discard, ...]) -> str:
    """One line per discard that leaves the hand waiting: each wait with its copies unseen
    and its points on a discard / self-drawn."""
    lines = ["discards that leave the hand waiting (each wait: copies unseen, points on a "
             "discard / self-drawn):"]  # fmt: skip
    for d in discards:
        each = "  ".join(
            f"{w.tile} ({w.unseen} unseen, {_points(w.discard)} / {_points(w.self_drawn)})"
            for w in d.waits
        )
        lines.append(f"  discard {d.tile}: {each}")
    return "\n".join(lines + _footnote(tuple(w for d in discards for w in d.waits)))
