"""Built-in policies for exercising the harness; load them as ``module:factory``.

* ``bench.policies.builtin:hold``: stand still, arms at the keyframe, grippers open
  (the "zero" policy: it holds the reset pose);
* ``bench.policies.builtin:random``: uniform random actions within the limits, seeded
  per episode, held for 10 control steps each;
* ``bench.policies.builtin:wave``: a deterministic scripted sweep of the arms and the
  base commands, used by the parity tests.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bench import layout
from bench.robot import constants as c
from bench.tasks import get_spec

STAND_HEIGHT = 0.74  # m


def _raw_hold(pitch: bool) -> np.ndarray:
    return np.concatenate([[0.0, 0.0, STAND_HEIGHT, 0.0], [0.0] * pitch,
                           c.KEYFRAME_JOINTS[15:], [0.0, 0.0]])


class Hold:
    """Stand still with the arms at the keyframe and the grippers open."""

    def __init__(self, task: str):
        spec = get_spec(task)
        slots = layout.wholebody_action_layout(spec.pitch_command)
        self.action = layout.normalize(_raw_hold(spec.pitch_command), slots).astype(np.float32)

    def __call__(self, observation: dict[str, Any]) -> np.ndarray:
        return self.action


class Random:
    """Uniform random normalized actions, a new one every ``hold`` control steps; the
    generator restarts from ``seed`` at every reset, so episodes repeat exactly."""

    def __init__(self, task: str, seed: int = 0, hold: int = 10):
        self.dim = get_spec(task).action_dim
        self.seed, self.hold = seed, hold
        self.reset()

    def reset(self) -> None:
        """Restart the sequence."""
        self.rng = np.random.default_rng(self.seed)
        self.step = 0
        self.action = np.zeros(self.dim, np.float32)

    def __call__(self, observation: dict[str, Any]) -> np.ndarray:
        if self.step % self.hold == 0:
            self.action = self.rng.uniform(-1.0, 1.0, self.dim).astype(np.float32)
        self.step += 1
        return self.action


class Wave:
    """A scripted, deterministic motion: the arms sweep around the keyframe, the base
    walks slowly forward and turns, the grippers open and close."""

    def __init__(self, task: str):
        self.pitch = get_spec(task).pitch_command
        self.slots = layout.wholebody_action_layout(self.pitch)
        self.reset()

    def reset(self) -> None:
        """Restart the script."""
        self.step = 0

    def __call__(self, observation: dict[str, Any]) -> np.ndarray:
        t = self.step * 0.02
        self.step += 1
        raw = _raw_hold(self.pitch)
        raw[0], raw[3] = 0.2 * np.sin(0.5 * t), 0.3 * np.sin(0.3 * t)
        arms = slice(5, 19) if self.pitch else slice(4, 18)
        raw[arms] += 0.3 * np.sin(t + np.arange(14) * 0.4)
        raw[-2:] = 0.5 + 0.5 * np.sin(2 * t)
        return layout.normalize(raw, self.slots).astype(np.float32)


def hold(task: str) -> Hold:
    """The zero policy: hold the reset pose."""
    return Hold(task)


def random(task: str) -> Random:
    """Random actions within the limits (seed 0)."""
    return Random(task)


def wave(task: str) -> Wave:
    """The scripted parity motion."""
    return Wave(task)
