"""Shared fixtures: an app with the replaying recognizer and small caps, so tests stay fast."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.limits import Limits
from tests.api.fakes import ReplayRecognizer, missing_models
from tests.env import folder_in

# Small caps: the corpus can cross them with little data.
TEST_LIMITS = Limits(photo_bytes=512 * 1024, json_bytes=16 * 1024, queue_wait_s=5.0)


@pytest.fixture(scope="session", autouse=True)
def _sets_home() -> Iterator[None]:
    """Taught sets go to a fresh folder, never the user's own (a test may point
    MJLENS_HOME elsewhere with monkeypatch: the app reads it at each request)."""
    with folder_in("MJLENS_HOME", "mjlens-home-"):
        yield


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = create_app(recognizer_factory=ReplayRecognizer, limits=TEST_LIMITS)
    with TestClient(app) as test_client:
        assert app.state.host.wait_ready(10), app.state.host.error
        yield test_client


@pytest.fixture(scope="module")
def no_models_client() -> Iterator[TestClient]:
    app = create_app(recognizer_factory=missing_models, limits=TEST_LIMITS)
    with TestClient(app) as test_client:
        app.state.host.wait_ready(5)
        yield test_client
