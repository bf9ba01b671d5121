"""Floating base: the research mode of ``make(task, controller=None)``.

No balance to lose: the pelvis follows the base commands (vx, vy in the body frame and
wz integrated at the control rate; height approached at up to HEIGHT_RATE), with roll
and pitch level, held on that pose by a stiff weld (``bench.sim.world``). The legs hold
the keyframe and do not collide, and the torso-pitch command goes straight to the waist
pitch joint.
"""

from __future__ import annotations

import numpy as np

from bench.config import ControllerConfig
from bench.robot import constants as c
from bench.wbc.base import BaseCommand, LowerBodyTargets, RobotState

CONTROL_DT = 0.02  # s
HEIGHT_RATE = 0.5  # m/s, fastest height change


def integrate_base_pose(pose: np.ndarray, cmd: BaseCommand,
                        dt: float = CONTROL_DT) -> np.ndarray:
    """Advance (x, y, z, yaw) by one step of the base command."""
    x, y, z, yaw = pose
    cos, sin = np.cos(yaw), np.sin(yaw)
    vx_world = cos * cmd.vx - sin * cmd.vy
    vy_world = sin * cmd.vx + cos * cmd.vy
    dz = float(np.clip(cmd.height - z, -HEIGHT_RATE * dt, HEIGHT_RATE * dt))
    return np.array([x + vx_world * dt, y + vy_world * dt, z + dz, yaw + cmd.wz * dt])


class FloatingBaseController:
    """Kinematic pelvis driven by the base commands; legs frozen."""

    name = "floating_base"

    def __init__(self) -> None:
        self.pose = np.zeros(4)  # x, y, z, yaw

    def limitations(self, config: ControllerConfig) -> list[str]:
        """None: the pelvis goes wherever the commands send it (a research mode, listed
        as the ``controller.backend`` override)."""
        return []

    def reset(self, state: RobotState | None) -> None:
        """Track the pelvis pose from ``state``."""
        if state is not None:
            self.pose = np.array([*state.base_pos, state.yaw])

    def command(self, state: RobotState, cmd: BaseCommand,
                arm_targets: np.ndarray) -> LowerBodyTargets:
        """Advance the pelvis pose by one control step."""
        self.pose = integrate_base_pose(self.pose, cmd)
        target = c.KEYFRAME_JOINTS[:15].copy()
        target[c.joint_index("waist_pitch_joint")] = cmd.torso_pitch
        return LowerBodyTargets(position=target, kp=c.LOWER_BODY_KP.copy(),
                                kd=c.LOWER_BODY_KD.copy(), base_pose=self.pose.copy())
