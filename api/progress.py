"""The command line's progress bar for batches (photos, crops, renders), on stderr.

Shown where a person watches (stderr is a terminal) or where asked (`--progress`); it never
writes to stdout, so `--json` output piped to a file stays one clean record a line. On a
terminal it redraws one line; elsewhere (a log file) it writes a line now and then instead.
"""

from __future__ import annotations

import argparse
import sys
import time
from types import TracebackType
from typing import TextIO

WIDTH = 24  # cells of the bar itself
LOG_EVERY_S = 5.0  # a log file gets a line this often, not a line per item


def add_progress_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--progress",
        action="store_true",
        help="show progress on stderr even when it is not a terminal (default: only on one)",
    )


def wanted(asked: bool, stream: TextIO | None = None) -> bool:
    """Show a bar: asked for, or stderr is a terminal a person watches."""
    stream = sys.stderr if stream is None else stream
    return asked or _is_terminal(stream)


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or fake stream
        return False


class Progress:
    """`done/total unit`, a bar, the rate and the time left; a no-op when not enabled.

    with Progress(len(photos), "recognize", "photo", wanted(args.progress)) as bar:
        for photo in photos:
            ...
            bar.clear()   # before printing a result on a shared terminal
            print(result)
            bar.update()
    """

    def __init__(
        self, total: int, label: str, unit: str, enabled: bool, stream: TextIO | None = None
    ) -> None:
        self.total = max(total, 0)
        self.label = label
        self.unit = unit
        self.enabled = enabled
        self.stream = sys.stderr if stream is None else stream
        self.terminal = _is_terminal(self.stream)
        self.done = 0
        self.failed = 0
        self._start = time.monotonic()
        self._last_draw = float("-inf")
        self._drawn = False
        if enabled:
            self._draw(force=True)

    def update(self, n: int = 1, failed: bool = False) -> None:
        self.done += n
        self.failed += int(failed)
        self._draw(force=self.done >= self.total)

    def clear(self) -> None:
        """Wipe the bar's line on a terminal, so that a result printed next starts clean."""
        if self.enabled and self.terminal and self._drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self._drawn = False

    def close(self) -> None:
        if self.enabled and self.terminal and self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False
        self.enabled = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def line(self) -> str:
        """The bar as text: `recognize  12/40 photos [####....]  30%  1.90 s/photo, 53 s left`."""
        total = max(self.total, 1)
        filled = min(WIDTH, WIDTH * self.done // total)
        bar = "#" * filled + "." * (WIDTH - filled)
        units = self.unit if self.total == 1 else f"{self.unit}s"
        percent = 100 * self.done // total
        text = f"{self.label}  {self.done}/{self.total} {units} [{bar}] {percent:3d}%"
        elapsed = time.monotonic() - self._start
        if self.done:
            per = elapsed / self.done
            text += f"  {per:.2f} s/{self.unit}" if per < 10 else f"  {per:.0f} s/{self.unit}"
            if self.done < self.total:
                text += f", {_duration(per * (self.total - self.done))} left"
            else:
                text += f", {_duration(elapsed)} in all"
        if self.failed:
            text += f"  ({self.failed} failed)"
        return text

    def _draw(self, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        every = 0.1 if self.terminal else LOG_EVERY_S
        if not force and now - self._last_draw < every:
            return
        self._last_draw = now
        if self.terminal:
            self.stream.write("\r\033[K" + self.line())
            self._drawn = True
        else:
            self.stream.write(self.line() + "\n")
        self.stream.flush()


def _duration(elapsed: float) -> str:
    seconds = round(elapsed)
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"
