"""`mjlens fans --ruleset R`: a rule set's own fan table, in its own unit, with its cap.

Each row: id, value, names in English and Chinese, and what it stands for (the rows of the
same table not counted beside it); `--json` prints what `GET /v1/fans?ruleset=R` answers.
"""

from __future__ import annotations

import argparse
import json

from scoring import RULESETS
from scoring.fan_tables import UNIT_WORDS, FanTable, fan_table


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ruleset", default="mcr", choices=RULESETS, help="rule set (default mcr)")
    parser.add_argument("--json", action="store_true", help="print the table as JSON")


def run(args: argparse.Namespace) -> int:
    table = fan_table(args.ruleset)
    if args.json:
        print(json.dumps(table.to_json(), ensure_ascii=False))
    else:
        print(render(table))
    return 0


def render(table: FanTable) -> str:
    """The table for a person: unit and limits first, then one line a row."""
    en, zh = UNIT_WORDS[table.unit]
    lines = [f"{table.ruleset}: values in {en} ({zh})"]
    lines += [f"  {note}" for note in table.limits.notes_en]
    lines += [f"  {note}" for note in table.limits.notes_zh]
    names = table.names()
    for row in table.rows:
        line = f"{row.id:>3} {row.points:>4} {en:<6} {row.name_en} {row.name_zh}"
        if row.excludes:
            line += " — not with: " + ", ".join(
                f"{names[i][0]} {names[i][1]}" for i in row.excludes
            )
        lines.append(line)
    return "\n".join(lines)
