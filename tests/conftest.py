"""Every test process keeps its prepared models in a fresh cache folder, never the user's."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.env import folder_in
from vision.sessions import CACHE_ENV


@pytest.fixture(scope="session", autouse=True)
def _model_cache() -> Iterator[None]:
    """`vision.sessions`' cache under a temporary folder for the whole run (the commands
    tests start inherit it); a test may point it elsewhere with monkeypatch."""
    with folder_in(CACHE_ENV, "mjlens-cache-"):
        yield
