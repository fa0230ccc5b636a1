"""Throughput of our MCR scorer against PyMahjongGB (C++) on the same generated hands.

Two races, one run: in-process (`scoring.score` against `MahjongGB.MahjongFanCalculator`
with the Hand JSON conversion it needs), and through the JSON-lines contract
(`mjlens score --jsonl` against benchmarks/pmgb_jsonl.py, same input file, each a fresh
subprocess, start-up included and also shown apart). Prints hands/s and the ratios.

    python benchmarks/scoring.py --n 5000 --seed 1
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import MahjongGB  # noqa: E402

from scoring import score  # noqa: E402
from scoring.generate import generate_hands  # noqa: E402
from tests.scoring import pmgb  # noqa: E402


def best_rate(work: Callable[[], object], n: int, repeat: int) -> float:
    """Hands per second of the fastest of `repeat` runs (the machine is shared and noisy)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return n / best


def in_process(hands: list[dict[str, Any]], ruleset: str, repeat: int) -> tuple[float, float]:
    def ours() -> None:
        for hand in hands:
            score(hand, ruleset=ruleset)

    def reference() -> None:
        for hand in hands:
            MahjongGB.MahjongFanCalculator(**pmgb.arguments(hand))

    return best_rate(ours, len(hands), repeat), best_rate(reference, len(hands), repeat)


def mjlens_command(ruleset: str) -> list[str]:
    exe = shutil.which("mjlens")
    if exe is not None:
        return [exe, "score", "--jsonl", "--ruleset", ruleset]
    code = "import sys; from api.cli import main; sys.exit(main())"
    return [sys.executable, "-c", code, "score", "--jsonl", "--ruleset", ruleset]


def timed_run(command: Sequence[str], source: Path) -> tuple[float, int]:
    """Wall seconds of one subprocess fed `source`, and how many lines it answered."""
    with source.open("rb") as stdin:
        start = time.perf_counter()
        done = subprocess.run(command, stdin=stdin, capture_output=True, cwd=ROOT, check=False)
        seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{command[0]} failed: {done.stderr.decode(errors='replace')[-500:]}")
    return seconds, done.stdout.count(b"\n")


def through_jsonl(lines: list[str], ruleset: str, repeat: int) -> dict[str, tuple[float, float]]:
    """{side: (hands/s start-up included, start-up seconds)} for both JSON-lines servers."""
    commands = {
        "mjlens score --jsonl": mjlens_command(ruleset),
        "pmgb_jsonl.py": [sys.executable, str(ROOT / "benchmarks" / "pmgb_jsonl.py")],
    }
    results: dict[str, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        source, empty = Path(tmp) / "hands.jsonl", Path(tmp) / "empty.jsonl"
        source.write_text("".join(line + "\n" for line in lines))
        empty.write_text("")
        for name, command in commands.items():
            runs = [timed_run(command, source) for _ in range(repeat)]
            if any(answered != len(lines) for _, answered in runs):
                raise SystemExit(f"{name} answered {runs[0][1]} of {len(lines)} lines")
            startup = min(timed_run(command, empty)[0] for _ in range(repeat))
            results[name] = (len(lines) / min(seconds for seconds, _ in runs), startup)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=5000, help="hands (default 5000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", default="mcr-mil", help="our profile (default mcr-mil)")
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs (default 3)")
    args = parser.parse_args(argv)

    hands = list(generate_hands(args.seed, args.n))
    lines = [json.dumps(hand) for hand in hands]
    print(f"{args.n} generated hands, seed {args.seed}, our profile {args.ruleset}")

    ours, reference = in_process(hands, args.ruleset, args.repeat)
    print("in-process             hands/s")
    print(f"  scoring.score        {ours:10.0f}")
    print(f"  PyMahjongGB          {reference:10.0f}")
    print(f"  ratio ours/PMGB      {ours / reference:10.3f}")

    streams = through_jsonl(lines, args.ruleset, args.repeat)
    print("JSON lines, subprocess hands/s   start-up s")
    for name, (rate, startup) in streams.items():
        print(f"  {name:22} {rate:10.0f} {startup:10.3f}")
    ratio = streams["mjlens score --jsonl"][0] / streams["pmgb_jsonl.py"][0]
    print(f"  ratio ours/PMGB      {ratio:10.3f}   (issue 2 asks >= 0.25)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
