"""Keeping a long-running server's memory bounded: glibc's allocator, told to give back.

A photo decodes to tens of megabytes of pixel buffers that live a second. glibc serves such
blocks from per-thread arenas and, once freed, keeps them; with a dozen threads (event
loop, recognizer workers, ONNX's own pool, the scoring thread pool) the arenas fragment
and the resident size climbs photo after photo. So, on glibc only:

- at most `ARENAS` arenas (M_ARENA_MAX), so fewer heaps hold freed pages;
- blocks from `MMAP_THRESHOLD` up always come from mmap (a fixed M_MMAP_THRESHOLD also
  stops glibc raising the threshold after each large free), so a photo's buffers go back
  to the system the moment they are freed;
- after each recognition, malloc_trim(0) returns the free pages at the arenas' tops.

MJLENS_MALLOC_TUNING=0 leaves the allocator as it is (to measure the difference).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
from functools import cache

log = logging.getLogger("mjlens.api")

M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
ARENAS = 2
MMAP_THRESHOLD = 1024 * 1024


@cache
def _glibc() -> ctypes.CDLL | None:
    if os.environ.get("MJLENS_MALLOC_TUNING", "1") == "0":
        return None
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
        libc.mallopt  # noqa: B018  (glibc only: musl and macOS have no mallopt)
        libc.malloc_trim  # noqa: B018
    except (OSError, AttributeError):
        return None
    return libc


def tune_allocator() -> bool:
    """Set the arena cap and a fixed mmap threshold; False where the allocator is not glibc."""
    libc = _glibc()
    if libc is None:
        return False
    arenas = libc.mallopt(M_ARENA_MAX, ARENAS)
    threshold = libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    ok = bool(arenas == 1 and threshold == 1)
    if not ok:
        log.warning("the allocator refused mallopt; memory may grow under load")
    return ok


def release_free_memory() -> None:
    """Give free pages back to the system (a few milliseconds; once per photo)."""
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim(0)
