"""Limits: defaults, and MJLENS_* overrides from the environment."""

from __future__ import annotations

import pytest

from api.limits import MIB, Limits


def test_overrides_from_the_environment() -> None:
    limits = Limits.from_env({"MJLENS_PHOTO_BYTES": str(5 * MIB), "MJLENS_QUEUE_WAIT_S": "1.5"})
    assert limits.photo_bytes == 5 * MIB and limits.queue_wait_s == 1.5
    assert limits.form_bytes == 5 * MIB + limits.form_overhead_bytes
    assert limits.json_bytes == Limits().json_bytes  # untouched


def test_a_non_number_names_the_variable() -> None:
    with pytest.raises(ValueError, match="MJLENS_WORKERS"):
        Limits.from_env({"MJLENS_WORKERS": "many"})


def test_at_least_one_worker() -> None:
    assert Limits().workers >= 1
