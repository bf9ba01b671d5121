"""A policy for the mock-robot graph tests (test_hardware_graph.py): it holds a stance
for a number of control steps, walks straight ahead, and stands again."""

import numpy as np

from bench import layout
from bench.policies.builtin import Hold
from bench.tasks import get_spec

WALK_SPEED = 0.5  # m/s, the base command once walking
CROUCH_HEIGHT = 0.60  # m, pelvis-height command of the stance
CROUCH_PITCH = 0.3  # rad, torso-pitch command of the stance


class StandWalkStand:
    """Hold a crouched stance for ``stand_steps`` control steps after each reset, walk at
    WALK_SPEED for ``walk_steps``, then hold the stance again."""

    def __init__(self, task: str, stand_steps: int, walk_steps: int):
        slots = layout.wholebody_action_layout(get_spec(task).pitch_command)
        raw = layout.denormalize(Hold(task).action, slots)
        raw[2] = CROUCH_HEIGHT  # height slot
        raw[4] = CROUCH_PITCH  # torso-pitch slot (the task has the pitch command)
        self.stand = layout.normalize(raw, slots).astype(np.float32)
        raw[0] = WALK_SPEED  # vx slot
        self.walk = layout.normalize(raw, slots).astype(np.float32)
        self.stand_steps, self.walk_steps = stand_steps, walk_steps
        self.steps = 0

    def reset(self) -> None:
        """Start counting again (the policy node calls this at control step 0)."""
        self.steps = 0

    def __call__(self, observation):
        self.steps += 1
        walking = self.stand_steps < self.steps <= self.stand_steps + self.walk_steps
        return self.walk if walking else self.stand


def stand_34s_walk_7s(task: str) -> StandWalkStand:
    """34 s of crouched stance (1.5 s on the mock robot's gantry, held then lowered, 1 s
    to settle, 30 s standing, and a margin), 7 s of walking, then the stance again."""
    assert get_spec(task).pitch_command, f"{task} has no torso-pitch slot"
    return StandWalkStand(task, stand_steps=1700, walk_steps=350)
