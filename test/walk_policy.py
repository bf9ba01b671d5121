"""A policy for the mock-robot graph tests (test_hardware_graph.py): it holds the
stance for a number of control steps, then walks straight ahead."""

import numpy as np

from bench import layout
from bench.policies.builtin import Hold
from bench.tasks import get_spec

WALK_SPEED = 0.5  # m/s, the base command once walking


class StandThenWalk:
    """Hold for ``stand_steps`` control steps after each reset, then walk at WALK_SPEED."""

    def __init__(self, task: str, stand_steps: int):
        slots = layout.wholebody_action_layout(get_spec(task).pitch_command)
        self.hold = Hold(task).action
        raw = layout.denormalize(self.hold, slots)
        raw[0] = WALK_SPEED  # vx slot
        self.walk = layout.normalize(raw, slots).astype(np.float32)
        self.stand_steps = stand_steps
        self.steps = 0

    def reset(self) -> None:
        """Start counting again (the policy node calls this at control step 0)."""
        self.steps = 0

    def __call__(self, observation):
        self.steps += 1
        return self.walk if self.steps > self.stand_steps else self.hold


def stand_34s_then_walk(task: str) -> StandThenWalk:
    """34 s of stance (1.5 s on the mock robot's gantry, held then lowered, 1 s to
    settle, 30 s standing, and a margin), then walk."""
    return StandThenWalk(task, stand_steps=1700)

