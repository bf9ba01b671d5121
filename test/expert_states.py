"""The state the expert-reach tests start from: a task's scene just after a reset, with
the experts' own kinematics model (used by test_experts_kitchen.py and
test_experts_dishwasher.py)."""

from __future__ import annotations

import numpy as np

from bench.env import make
from bench.policies.experts.kinematics import Kinematics


def kinematics_at_reset(task: str, seed: int = 620000) -> tuple[Kinematics, np.ndarray]:
    """The experts' kinematics for ``task`` and the scene's qpos after the reset of
    ``seed``."""
    env = make(task, camera_keys=())
    try:
        env.reset(seed=seed)
        qpos = env.world.data.qpos.copy()
    finally:
        env.close()
    return Kinematics(task), qpos
