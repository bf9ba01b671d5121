"""Fall detection: tilt over 53 degrees or pelvis under 0.30 m, latched for the episode."""

from __future__ import annotations

import numpy as np
import pytest

from bench.env import make
from bench.falls import FallDetector, is_fallen, pelvis_tilt_deg


def _tilted(deg: float, axis: str = "x") -> np.ndarray:
    half = np.radians(deg) / 2
    vec = {"x": [1, 0, 0], "y": [0, 1, 0]}[axis]
    return np.array([np.cos(half), *(np.sin(half) * np.array(vec))])


@pytest.mark.parametrize("axis", ["x", "y"])
def test_tilt_threshold_is_53_degrees(axis):
    assert pelvis_tilt_deg(_tilted(52.9, axis)) == pytest.approx(52.9)
    assert not is_fallen(np.array([0, 0, 0.7]), _tilted(52.5, axis))
    assert is_fallen(np.array([0, 0, 0.7]), _tilted(53.5, axis))


def test_height_threshold_is_0_30_m():
    upright = np.array([1.0, 0, 0, 0])
    assert not is_fallen(np.array([0, 0, 0.31]), upright)
    assert is_fallen(np.array([0, 0, 0.29]), upright)


def test_detector_latches():
    detector = FallDetector()
    upright, low = np.array([1.0, 0, 0, 0]), np.array([0, 0, 0.2])
    assert not detector.update(np.array([0, 0, 0.7]), upright, step=1)
    assert detector.update(low, upright, step=2)
    assert detector.update(np.array([0, 0, 0.7]), upright, step=3)  # stays fallen
    assert detector.fell_at == 2
    detector.reset()
    assert not detector.fell and detector.fell_at is None


def test_a_push_knocks_the_robot_over_and_the_fall_is_latched():
    env = make("move_plate", camera_keys=())
    try:
        env.reset(seed=0)
        action = np.zeros(env.action_dim)
        for _ in range(25):
            env.step(action)
        assert not env.episode_fell()
        pelvis = env.world.model.body("pelvis").id
        env.world.data.xfrc_applied[pelvis] = [0.0, 600.0, 0.0, 0.0, 0.0, 0.0]  # N, sideways
        for _ in range(15):  # 0.3 s
            env.step(action)
        env.world.data.xfrc_applied[pelvis] = 0.0
        terminated = False
        for _ in range(100):
            _, _, terminated, _, info = env.step(action)
        assert env.episode_fell()
        assert env.monitor.falls.fell_at is not None and env.monitor.falls.fell_at > 25
        assert info["fell"] and env.episode_termination() == "fell"
        assert not terminated  # a fall does not end the episode
    finally:
        env.close()
