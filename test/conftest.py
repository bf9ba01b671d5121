"""Shared fixtures: a private ROS_DOMAIN_ID per graph test, and repository paths."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest

os.environ.setdefault("MUJOCO_GL", "egl")  # before any test module imports mujoco

REPO = Path(__file__).resolve().parents[1]

# Domain ids 101-200 are kept for the test suite; each test that starts ROS 2
# participants takes the next one, so concurrent graphs never hear each other.
_DOMAINS = itertools.count(101 + (os.getpid() % 50))


@pytest.fixture
def ros_domain(monkeypatch: pytest.MonkeyPatch) -> int:
    """A ROS_DOMAIN_ID of the test's own, exported to child processes."""
    domain = next(_DOMAINS)
    assert domain <= 232, "ran out of ROS domain ids"
    monkeypatch.setenv("ROS_DOMAIN_ID", str(domain))
    return domain
