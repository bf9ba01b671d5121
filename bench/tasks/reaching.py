"""Reaching (seed 000): touch a coloured ball of radius 0.05 m with the pinch centre.

Each target sits 0.45 m ahead and 0.8 m up and moves +-0.05 m in x, +-0.10 m in y and
+-0.10 m in z on reset; the robot spawns at the origin. Success: the pinch centre
between the gripper pads is within the reach tolerance (0.05 m) of the target centre.
No fail-fast.
"""

from __future__ import annotations

import numpy as np

from bench import predicates as pred
from bench.robot import constants as c
from bench.tasks.base import Scene, Task
from bench.tasks.props import add_target

BASE = np.array([0.45, 0.0, 0.8])  # m, target base position
JITTER = np.array([0.05, 0.10, 0.10])  # m, uniform half-ranges in x, y, z
DUAL_OFFSET = 0.2  # m, left/right targets of reach_target_dual
TOLERANCE = 0.05  # m, the official reach tolerance


def _jittered(rng: np.random.Generator, base: np.ndarray) -> np.ndarray:
    return base + rng.uniform(-JITTER, JITTER)


class _Reach(Task):
    """Shared scene for the reach tasks: one or two floating targets."""

    targets: tuple[str, ...] = ("target",)

    def __init__(self, tolerance: float | None = None):
        self.tolerance = TOLERANCE if tolerance is None else tolerance

    def build(self, spec) -> None:
        colours = {"target": [0.9, 0.2, 0.2, 0.8], "target_left": [0.2, 0.4, 0.9, 0.8],
                   "target_right": [0.9, 0.6, 0.1, 0.8]}
        for name in self.targets:
            add_target(spec, name, colours[name])

    def _in(self, scene: Scene, side: str, target: str) -> bool:
        return pred.inside_ball(scene.site(c.PINCH_SITES[side]), scene.pos(target), self.tolerance)


class ReachTargetSingle(_Reach):
    """One target in the centre; only the left hand counts."""

    name = "reach_target_single"

    def reset(self, scene: Scene, rng: np.random.Generator) -> None:
        scene.set_free_pose("target", _jittered(rng, BASE))

    def clauses(self, scene: Scene) -> dict[str, bool]:
        return {"left_pinch_in_target": self._in(scene, "left", "target")}


class ReachTargetMultiModal(ReachTargetSingle):
    """One target in the centre; either hand counts."""

    name = "reach_target_multi_modal"

    def clauses(self, scene: Scene) -> dict[str, bool]:
        return {"a_pinch_in_target": self._in(scene, "left", "target")
                or self._in(scene, "right", "target")}


class ReachTargetDual(_Reach):
    """Targets 0.2 m left and right of centre, jittered independently; the left hand
    must reach the left one and the right hand the right one at the same time."""

    name = "reach_target_dual"
    targets = ("target_left", "target_right")

    def reset(self, scene: Scene, rng: np.random.Generator) -> None:
        offset = np.array([0.0, DUAL_OFFSET, 0.0])
        scene.set_free_pose("target_left", _jittered(rng, BASE + offset))
        scene.set_free_pose("target_right", _jittered(rng, BASE - offset))

    def clauses(self, scene: Scene) -> dict[str, bool]:
        return {"left_pinch_in_left_target": self._in(scene, "left", "target_left"),
                "right_pinch_in_right_target": self._in(scene, "right", "target_right")}


TASK_CLASSES = (ReachTargetSingle, ReachTargetMultiModal, ReachTargetDual)
