"""Throughput of our MCR scorer against PyMahjongGB (C++) on the same generated hands.

Two races, one run: in-process (`scoring.score` against `MahjongGB.MahjongFanCalculator`
with the Hand JSON conversion it needs), and through the JSON-lines contract
(`mjlens score --jsonl` against benchmarks/pmgb_jsonl.py, same input file, each a fresh
subprocess, start-up included and also shown apart). Prints hands/s and the ratios, by wall
clock and by CPU time: on a shared machine the CPU figure is the steadier of the two. The
first lines say whether the compiled core (scoring/compiled.py) is in use; set
MJLENS_PURE_PYTHON=1 to race the pure-Python scorer instead. `--stages` prints instead where
one line's CPU time goes, stage by stage, in this process.

    python benchmarks/scoring.py --n 5000 --seed 1
    python benchmarks/scoring.py --n 5000 --seed 1 --stages
"""

from __future__ import annotations

import argparse
import compileall
import gc
import json
import resource
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

from scoring import compiled, score  # noqa: E402
from scoring.generate import generate_hands  # noqa: E402
from tests.scoring import pmgb  # noqa: E402

Rates = tuple[float, float]  # hands/s by wall clock, hands/s by CPU time


def best_rates(work: Callable[[], object], n: int, repeat: int) -> Rates:
    """Hands/s of the fastest of `repeat` runs, by wall clock and by this process's CPU time
    (the machine is shared: CPU time is what the scorer itself costs)."""
    wall = cpu = float("inf")
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        work()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return n / wall, n / cpu


def in_process(hands: list[dict[str, Any]], ruleset: str, repeat: int) -> tuple[Rates, Rates]:
    def ours() -> None:
        for hand in hands:
            score(hand, ruleset=ruleset)

    def reference() -> None:
        for hand in hands:
            MahjongGB.MahjongFanCalculator(**pmgb.arguments(hand))

    return best_rates(ours, len(hands), repeat), best_rates(reference, len(hands), repeat)


def mjlens_command(ruleset: str) -> list[str]:
    """The `mjlens` console script of this interpreter, as a virtual environment runs it (a
    version manager's shim in front of it would add its own start-up), else any on PATH."""
    beside = Path(sys.executable).with_name("mjlens")
    exe = str(beside) if beside.is_file() else shutil.which("mjlens")
    if exe is not None:
        return [exe, "score", "--jsonl", "--ruleset", ruleset]
    code = "import sys; from api.cli import main; sys.exit(main())"
    return [sys.executable, "-c", code, "score", "--jsonl", "--ruleset", ruleset]


def timed_run(command: Sequence[str], source: Path) -> tuple[float, float, int]:
    """Wall and CPU seconds of one subprocess fed `source`, and how many lines it answered."""
    with source.open("rb") as stdin:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, stdin=stdin, capture_output=True, cwd=ROOT, check=False)
        seconds = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{command[0]} failed: {done.stderr.decode(errors='replace')[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu, done.stdout.count(b"\n")


def through_jsonl(lines: list[str], ruleset: str, repeat: int) -> dict[str, tuple[Rates, float]]:
    """{side: ((hands/s wall, hands/s CPU), start-up wall s)}, start-up included in the rates."""
    commands = {
        "mjlens score --jsonl": mjlens_command(ruleset),
        "pmgb_jsonl.py": [sys.executable, str(ROOT / "benchmarks" / "pmgb_jsonl.py")],
    }
    # Both sides start from compiled bytecode, as an installed package does: a source
    # changed since its last .pyc (PYTHONDONTWRITEBYTECODE set) would be compiled at each start.
    for folder in ("scoring", "api", "tests"):
        compileall.compile_dir(ROOT / folder, quiet=1)
    results: dict[str, tuple[Rates, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        source, empty = Path(tmp) / "hands.jsonl", Path(tmp) / "empty.jsonl"
        source.write_text("".join(line + "\n" for line in lines))
        empty.write_text("")
        for name, command in commands.items():
            runs = [timed_run(command, source) for _ in range(repeat)]
            if any(answered != len(lines) for _, _, answered in runs):
                raise SystemExit(f"{name} answered {runs[0][2]} of {len(lines)} lines")
            startup = min(timed_run(command, empty)[0] for _ in range(repeat))
            wall = min(w for w, _, _ in runs)
            cpu = min(c for _, c, _ in runs)
            results[name] = ((len(lines) / wall, len(lines) / cpu), startup)
    return results


def stages(lines: list[str], ruleset: str, repeat: int) -> None:
    """CPU µs per line of each stage of `mjlens score --jsonl`, best of `repeat` (caches warm),
    and of the whole line on a first pass (caches empty, as in a fresh process)."""
    from api.commands.score import _line_text, _read_line
    from scoring.json_text import score_text
    from scoring.plain import plain_deal
    from scoring.profiles import MCR_PROFILES
    from scoring.reading import best_reading
    from scoring.score import score_deal
    from scoring.win_text import plain_win_text

    def line(text: str) -> str:  # as the stream answers a line
        return _line_text(text, ruleset)

    start = time.process_time()
    for text in lines:
        line(text)
    first = (time.process_time() - start) / len(lines) * 1e6

    def timed(name: str, work: Callable[[Any], object], items: list[Any]) -> list[Any]:
        best, out = float("inf"), []
        for _ in range(repeat):
            start = time.process_time()
            out = [work(item) for item in items]
            best = min(best, time.process_time() - start)
        print(f"  {name:44} {best / len(items) * 1e6:7.1f}")
        return out

    profile = MCR_PROFILES[ruleset]
    print("CPU µs per line, best of", repeat)
    data = timed("read the line (JSON decoder)", _read_line, lines)
    found = timed("Hand JSON -> numbers (plain.plain_deal)", lambda d: plain_deal(d, profile), data)
    plain = [p for p in found if p is not None]
    timed("the readings and their fans (best_reading)", lambda p: best_reading(p.deal), plain)
    timed("  + their text, the Score (score_deal)",
          lambda p: score_deal(p.deal, p.flowers, p.flower_count), plain)  # fmt: skip
    scores = timed("score() of the decoded line, in all", lambda d: score(d, ruleset), data)
    timed("the Score JSON's text (json_text.score_text)", score_text, scores)
    timed("Hand JSON to text (win_text.plain_win_text)",
          lambda d: plain_win_text(d, ruleset), data)  # fmt: skip
    timed("the whole line", line, lines)
    print(f"  {'the whole line, first pass (caches empty)':44} {first:7.1f}")
    print(f"  ({len(plain)} of {len(lines)} hands read by plain_deal, the rest by the full parser)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=5000, help="hands (default 5000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", default="mcr-mil", help="our profile (default mcr-mil)")
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs (default 3)")
    parser.add_argument("--stages", action="store_true", help="CPU time per stage instead")
    args = parser.parse_args(argv)

    hands = list(generate_hands(args.seed, args.n))
    lines = [json.dumps(hand) for hand in hands]
    print(f"{args.n} generated hands, seed {args.seed}, our profile {args.ruleset}")
    why = compiled.reason
    print("compiled core: " + ("in use" if why is None else f"not in use ({why})"))
    if args.stages:
        gc.freeze()  # as the stream does (api/commands/score.py)
        gc.set_threshold(50_000, 10, 10)
        stages([line + "\n" for line in lines], args.ruleset, args.repeat)
        return 0

    ours, reference = in_process(hands, args.ruleset, args.repeat)
    print("in-process                 hands/s wall   hands/s CPU")
    print(f"  scoring.score            {ours[0]:12.0f} {ours[1]:13.0f}")
    print(f"  PyMahjongGB              {reference[0]:12.0f} {reference[1]:13.0f}")
    print(
        f"  ratio ours/PMGB          {ours[0] / reference[0]:12.3f} {ours[1] / reference[1]:13.3f}"
    )

    streams = through_jsonl(lines, args.ruleset, args.repeat)
    print("JSON lines, subprocess     hands/s wall   hands/s CPU   start-up s")
    for name, ((wall, cpu), startup) in streams.items():
        print(f"  {name:24} {wall:12.0f} {cpu:13.0f} {startup:12.3f}")
    (ours_wall, ours_cpu), _ = streams["mjlens score --jsonl"]
    (peer_wall, peer_cpu), _ = streams["pmgb_jsonl.py"]
    print(f"  ratio ours/PMGB          {ours_wall / peer_wall:12.3f} {ours_cpu / peer_cpu:13.3f}"
          "   (asked: >= 1.0)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
