"""The oracle channel: how a policy that may read the full simulator state gets it.

A policy that defines ``observe_world(state: WorldState)`` is an *oracle* (the scripted
experts are). Both wirings hand it the same states at the same moments:

* in process, the episode loop (``bench.eval.episode.run_episode``, the demonstration
  recorder) calls ``feed_world`` after every ``env.step``, before the next action;
* in the graph, the policy node subscribes to ``/bench/world_state`` (published by the
  simulator after every control step) and feeds the state of step k before it answers
  observation k.

So an oracle sees the world state after control steps 1, 2, ...; for the first
action of an episode it has only the observation (the graph publishes no world state
for the reset). qpos and qvel are MuJoCo's float64 arrays of the scene model, so both
wirings give identical trajectories.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class WorldState:
    """The full simulator state after a control step."""

    seed: int
    control_step: int  # control steps taken so far in the episode
    sim_time: float  # s, MuJoCo data.time
    qpos: np.ndarray  # generalized positions of the scene model
    qvel: np.ndarray  # generalized velocities of the scene model


def reads_world(policy: Any) -> bool:
    """Whether the policy is an oracle (has ``observe_world``)."""
    return callable(getattr(policy, "observe_world", None))


def feed_world(policy: Any, state: WorldState) -> None:
    """Hand ``state`` to the policy if it is an oracle; other policies are untouched."""
    if reads_world(policy):
        policy.observe_world(state)


def env_world_state(env: Any, seed: int) -> WorldState:
    """The world state of an in-process env (a ``BenchEnv``) after its last step."""
    data = env.world.data
    return WorldState(seed=seed, control_step=env.control_step, sim_time=float(data.time),
                      qpos=data.qpos.copy(), qvel=data.qvel.copy())
