"""The graph's view of a real robot: a SimSession whose state comes from the robot.

On hardware nothing is simulated, but the policy still needs its observation and the
lower-body controller its RobotState in exactly the layouts the simulator gives, and
actions must be parsed the same way (normalized slots, delta arm actions, limits).
RobotMirror keeps a SimSession of the task for that and, instead of stepping physics,
writes the measured state into it each control step:

* joints and their velocities from LowState_, the pelvis orientation and angular
  velocity (body frame) from its IMU, the gripper closures from the Dex1-1 states;
* the pelvis position from mocap when a pose is given, otherwise it stays at the
  stance height above the origin. Its linear velocity is not measured (zero): the
  lower-body controllers here read only angular velocity and gravity direction.

Camera images are not part of it: the bridge has no cameras, so hardware runs use
``camera_keys: []`` (docs/hardware.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bench import config as cfg
from bench.hardware.lowcmd import BodyState
from bench.robot import constants as c
from bench.sim.session import SimSession
from bench.sim.world import CONTROL_DT
from bench.wbc.base import BaseCommand, GoalTimeout, RobotState
from bench.wbc.floating import integrate_base_pose

_FINGERS = ("left_gripper_joint", "left_gripper_joint_b", "right_gripper_joint",
            "right_gripper_joint_b")


class RobotMirror:
    """A SimSession driven by measurements instead of physics."""

    def __init__(self, task: str, config: cfg.EnvConfig):
        if config.camera_keys:
            raise ValueError(
                f"the hardware bridge has no cameras but the config asks for "
                f"{list(config.camera_keys)}; pass overrides '{{\"camera_keys\": []}}' and "
                "feed images to your own policy node")
        self.session = SimSession(task, config, floating_base=False)
        world = self.session.world
        self.session.start(None)
        self.session.settle()
        self._fingers = [world.model.joint(n).qposadr[0] for n in _FINGERS]
        self._finger_v = [world.model.joint(n).dofadr[0] for n in _FINGERS]
        self.pelvis = np.array([0.0, 0.0, c.KEYFRAME_PELVIS_HEIGHT])
        self.goal = GoalTimeout(config.controller.goal_timeout_s)

    def load(self, body: BodyState, grippers: np.ndarray, time: float,
             pelvis: np.ndarray | None = None) -> None:
        """Write a measured state (and the mocap pelvis position, if any) in."""
        w = self.session.world
        q, v = w.data.qpos, w.data.qvel
        q[w.qpos_index], v[w.qvel_index] = body.q, body.dq
        if pelvis is not None:
            self.pelvis = np.asarray(pelvis, float)
        q[w.base_qpos:w.base_qpos + 3] = self.pelvis
        q[w.base_qpos + 3:w.base_qpos + 7] = body.quat / np.linalg.norm(body.quat)
        v[w.base_qvel:w.base_qvel + 3] = 0.0
        v[w.base_qvel + 3:w.base_qvel + 6] = body.gyro
        closures = np.repeat(np.clip(grippers, 0.0, 1.0), 2) * c.GRIPPER_TRAVEL
        q[self._fingers], v[self._finger_v] = closures, 0.0
        w.data.time = time

    def apply_action(self, action: Any, now: float | None) -> None:
        """Parse a normalized action as the simulator does (ValueError when malformed);
        its base command is the goal from robot time ``now`` (None: no robot state yet)."""
        self.session.apply_action(action)
        if now is not None:
            self.goal.update(self.session.base_command, now)

    def base_command(self, now: float) -> BaseCommand:
        """The base command in force at robot time ``now``: the latest action's, until
        it is older than ``controller.goal_timeout_s``; then standing at its height and
        torso pitch (the GR00T-WBC goal timeout, in robot time)."""
        return self.goal.update(None, now)

    def advance(self, command: BaseCommand) -> None:
        """One control step under ``command`` passed: integrate the base odometry."""
        s = self.session
        s.base_pose = integrate_base_pose(s.base_pose, command, CONTROL_DT)

    def observation(self) -> dict[str, np.ndarray]:
        """The policy's observation of the loaded state."""
        return self.session.observe(0.0)

    def robot_state(self) -> RobotState:
        """The lower-body controller's view of the loaded state."""
        return self.session.robot_state()
