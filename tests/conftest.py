"""Every test process keeps its prepared models in a fresh cache folder, never the user's."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator

import pytest

from vision.sessions import CACHE_ENV


@pytest.fixture(scope="session", autouse=True)
def _model_cache() -> Iterator[None]:
    """`vision.sessions`' cache under a temporary folder for the whole run (the commands
    tests start inherit it); a test may point it elsewhere with monkeypatch."""
    before = os.environ.get(CACHE_ENV)
    with tempfile.TemporaryDirectory(prefix="mjlens-cache-") as folder:
        os.environ[CACHE_ENV] = folder
        yield
    if before is None:
        os.environ.pop(CACHE_ENV, None)
    else:
        os.environ[CACHE_ENV] = before
