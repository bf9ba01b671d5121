"""The task monitor: success hold, fail-fast, falls, physics errors, termination labels.

It works on a world state (qpos, qvel, time) and a model of its own, so the graph's
task-monitor node runs it unchanged on what the simulator node publishes.

Per control step, in order:

1. a non-finite state or a MuJoCo warning ends the episode as ``physics_error``;
2. a fall (tilt > 53 degrees or pelvis < 0.30 m) is latched; it never ends the episode;
3. the pelvis more than 10 m from the origin, or the task's fail-fast condition, ends
   it as ``terminated``;
4. the task predicate must hold for ``hold_steps`` consecutive control steps (50 = 1 s);
   on the last of them the task reports success (reward 1.0) and the episode ends.

A fallen episode is labelled ``fell`` whatever else happened, and never succeeds.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import mujoco
import numpy as np

from bench.falls import FallDetector
from bench.robot import constants as c
from bench.tasks.base import Scene, Task

PELVIS_LIMIT = 10.0  # m from the origin
HOLD_STEPS = 50  # control steps (1.0 s at 50 Hz)


class Termination(enum.Enum):
    """How an episode ended; NONE while it runs."""

    NONE = ""
    FELL = "fell"
    SUCCESS = "success"
    PHYSICS_ERROR = "physics_error"
    TIMEOUT = "timeout"
    TERMINATED = "terminated"


@dataclass
class Status:
    """The monitor's verdict after a control step."""

    control_step: int = 0
    success: bool = False  # task reported success (predicate held for the full hold)
    fell: bool = False  # latched
    held_steps: int = 0  # consecutive steps the predicate has held
    done: bool = False
    termination: Termination = Termination.NONE
    reason: str = ""
    metrics: dict[str, float] = field(default_factory=dict)

    @property
    def is_success(self) -> bool:
        """An episode success: the task succeeded and the robot never fell."""
        return self.success and not self.fell


def judge_task(task: Task, scene: Scene, status: Status,
               hold_steps: int) -> tuple[Termination, str] | None:
    """Fail-fast and the success hold on the loaded scene (``status.held_steps`` and
    ``status.success`` are updated): the termination and its reason when the episode
    ends, else None."""
    reason = task.fail(scene)
    if reason is not None:
        return Termination.TERMINATED, f"fail-fast: {reason}"
    status.held_steps = status.held_steps + 1 if task.success(scene) else 0
    if status.held_steps >= hold_steps:
        status.success = True
        return Termination.SUCCESS, "success condition held"
    return None


class TaskMonitor:
    """Evaluates one task on world states, with its own MjData."""

    def __init__(self, task: Task, model: mujoco.MjModel, hold_steps: int = HOLD_STEPS):
        self.task = task
        self.model = model
        self.data = mujoco.MjData(model)
        self.scene = Scene(model, self.data)
        self.hold_steps = hold_steps
        self.falls = FallDetector()
        free = model.joint(c.FREE_JOINT)
        self._base = int(free.qposadr[0])
        self.reset()

    def reset(self) -> None:
        """Start a new episode."""
        self.falls.reset()
        self.status = Status()

    def load(self, qpos: np.ndarray, qvel: np.ndarray, time: float) -> None:
        """Set the monitor's copy of the scene to a world state and run mj_forward."""
        self.data.qpos[:] = qpos
        self.data.qvel[:] = qvel
        self.data.time = time
        mujoco.mj_forward(self.model, self.data)

    def update(self, qpos: np.ndarray, qvel: np.ndarray, time: float, warnings: int = 0,
               budget_exhausted: bool = False) -> Status:
        """Evaluate the state after one control step and return the updated status."""
        status = self.status
        if status.done:
            return status
        status.control_step += 1
        if not (np.all(np.isfinite(qpos)) and np.all(np.isfinite(qvel))):
            return self._end(Termination.PHYSICS_ERROR, "non-finite simulator state")
        if warnings:
            return self._end(Termination.PHYSICS_ERROR,
                             f"{warnings} MuJoCo warning(s) during the step")
        self.load(qpos, qvel, time)
        base = qpos[self._base:self._base + 7]
        status.fell = self.falls.update(base[:3], base[3:], status.control_step)
        if np.linalg.norm(base[:2]) > PELVIS_LIMIT:
            return self._end(Termination.TERMINATED,
                             f"pelvis more than {PELVIS_LIMIT:g} m from the origin")
        status.metrics = self.task.metrics(self.scene)
        ended = judge_task(self.task, self.scene, status, self.hold_steps)
        if ended is not None:
            return self._end(*ended)
        if budget_exhausted:
            return self._end(Termination.TIMEOUT, "episode budget used up")
        return status

    def end(self, termination: Termination, reason: str) -> Status:
        """End the episode from outside (a silent policy, a dead node)."""
        return self._end(termination, reason)

    def _end(self, termination: Termination, reason: str) -> Status:
        status = self.status
        status.done = True
        status.termination = Termination.FELL if status.fell else termination
        status.reason = reason if not status.fell else (
            f"fell at control step {self.falls.fell_at}; then {reason}")
        return status
