"""Environment variables pointed at a fresh folder for a test run, never the user's own."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def folder_in(name: str, prefix: str) -> Iterator[str]:
    """`$name` set to a new temporary folder inside the block, then as it was before."""
    before = os.environ.get(name)
    with tempfile.TemporaryDirectory(prefix=prefix) as folder:
        os.environ[name] = folder
        try:
            yield folder
        finally:
            if before is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = before
