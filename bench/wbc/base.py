"""What a lower-body controller sees and returns, and the backend interface."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from bench.config import ControllerConfig


@dataclass
class RobotState:
    """Robot state at a control step, in Unitree motor order where it is per joint."""

    joint_pos: np.ndarray  # (29,) rad
    joint_vel: np.ndarray  # (29,) rad/s
    base_pos: np.ndarray  # (3,) m, pelvis position in the world
    base_quat: np.ndarray  # (4,) pelvis orientation, w x y z
    base_lin_vel: np.ndarray  # (3,) m/s, pelvis linear velocity, world frame
    base_ang_vel: np.ndarray  # (3,) rad/s, pelvis angular velocity, body frame
    time: float = 0.0  # s, sim time

    @property
    def projected_gravity(self) -> np.ndarray:
        """Unit gravity direction expressed in the pelvis frame."""
        w, x, y, z = self.base_quat
        # third row of R^T applied to (0, 0, -1) = -(R[2, :])
        return -np.array([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)])

    @property
    def yaw(self) -> float:
        """Pelvis heading, rad."""
        w, x, y, z = self.base_quat
        return float(np.arctan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z)))


@dataclass
class BaseCommand:
    """The base part of the whole-body action, in raw units."""

    vx: float = 0.0  # m/s, body frame
    vy: float = 0.0  # m/s, body frame
    wz: float = 0.0  # rad/s
    height: float = 0.74  # m, absolute pelvis height
    torso_pitch: float = 0.0  # rad, + = lean forward
    torso_roll: float = 0.0  # rad, about the heading axis (decoupled_v1's torso goal)
    torso_yaw: float = 0.0  # rad, torso heading relative to the feet, + = left

    @property
    def velocity(self) -> np.ndarray:
        """(vx, vy, wz)."""
        return np.array([self.vx, self.vy, self.wz])


@dataclass
class LowerBodyTargets:
    """A controller's answer: leg and waist position targets with PD gains, or, for the
    floating base, a pelvis pose to follow."""

    position: np.ndarray  # (15,) rad, legs then waist (motor order 0-14)
    kp: np.ndarray  # (15,) N m/rad
    kd: np.ndarray  # (15,) N m s/rad
    base_pose: np.ndarray | None = None  # (x, y, z, yaw) for the floating base
    info: dict[str, float] = field(default_factory=dict)


class GoalTimeout:
    """Keeps the latest base command alive for ``timeout_s`` (sim or robot time).

    A base goal that stops being refreshed must not keep the robot walking: after the
    timeout the velocity commands drop to zero, height and torso pitch are kept. In
    lockstep every control step carries a fresh action, so it never fires there; the
    hardware bridge's RobotMirror applies it to the latest policy action (robot time).
    """

    def __init__(self, timeout_s: float):
        self.timeout_s = timeout_s
        self.command = BaseCommand()
        self.received_at: float | None = None

    def update(self, command: BaseCommand | None, now: float) -> BaseCommand:
        """Record a new command (or None when none arrived) and return the one in force."""
        if command is not None:
            self.command, self.received_at = command, now
        if self.received_at is None or now - self.received_at > self.timeout_s:
            return BaseCommand(height=self.command.height, torso_pitch=self.command.torso_pitch,
                               torso_roll=self.command.torso_roll,
                               torso_yaw=self.command.torso_yaw)
        return self.command


class LowerBodyController(Protocol):
    """A backend that owns the legs and waist (or the pelvis, for the floating base)."""

    name: str

    def limitations(self, config: ControllerConfig) -> list[str]:
        """How the backend departs from following every base command of the official
        ranges in ``config`` (empty when it follows them all)."""
        ...

    def reset(self, state: RobotState) -> None:
        """Start a new episode from ``state``."""

    def command(self, state: RobotState, cmd: BaseCommand,
                arm_targets: np.ndarray) -> LowerBodyTargets:
        """Targets for one control step. ``arm_targets`` are the 14 arm joint targets."""
        ...
