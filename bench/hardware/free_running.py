"""The task monitor in real time (no lockstep), for the hardware path.

Nothing simulates the scene on hardware, so the monitor evaluates what is measured:

* falls from the pelvis IMU's orientation (tilt over 53 degrees), and also from the
  pelvis height when mocap tracks the pelvis (below 0.30 m); latched as in simulation;
* the task's predicate, fail-fast check and metrics from object poses published on
  ``/bench/mocap/<body>/pose`` (geometry_msgs/PoseStamped in the world frame, one topic
  per tracked body, the convention of ROS mocap drivers such as vrpn/mocap4ros2, easy to
  remap from a perception stack), with the robot's joints from its joint states.

The tracked bodies are the pelvis and every free-floating prop of the task's scene.
While any of them has no pose newer than ``pose_timeout``, the monitor does not guess:
the predicate is reported unavailable (``predicate_available`` metric 0, the reason
names the missing topics) and the success hold does not advance.
"""

from __future__ import annotations

import mujoco
import numpy as np

from bench.falls import FallDetector
from bench.monitor import Status, Termination, judge_task
from bench.robot import constants as c
from bench.tasks.base import Scene, Task

POSE_TOPIC = "/bench/mocap/{body}/pose"
POSE_TIMEOUT = 0.5  # s; an older pose counts as missing
AVAILABLE = "predicate_available"  # metric: 1 when every tracked pose is fresh


def tracked_bodies(model: mujoco.MjModel) -> list[str]:
    """Bodies whose poses the predicate needs: those on a free joint (the pelvis first)."""
    names = [model.body(model.jnt_bodyid[j]).name for j in range(model.njnt)
             if model.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE]
    return sorted(names, key=lambda name: name != c.PELVIS_BODY)


class FreeRunningMonitor:
    """Falls, predicate, hold and fail-fast on measured states."""

    def __init__(self, task: Task | None, model: mujoco.MjModel, hold_steps: int,
                 pose_timeout: float = POSE_TIMEOUT):
        self.task = task
        self.model = model
        self.data = mujoco.MjData(model)
        self.scene = Scene(model, self.data)
        self.hold_steps = hold_steps
        self.pose_timeout = pose_timeout
        self.tracked = tracked_bodies(model) if task is not None else [c.PELVIS_BODY]
        self._free = {model.body(model.jnt_bodyid[j]).name: int(model.jnt_qposadr[j])
                      for j in range(model.njnt) if model.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE}
        self._joints = np.array([model.joint(j).qposadr[0] for j in c.JOINTS])
        self._fingers = np.array([[model.joint(f"{side}_gripper_joint").qposadr[0],
                                   model.joint(f"{side}_gripper_joint_b").qposadr[0]]
                                  for side in c.GRIPPER_SIDES])
        self.falls = FallDetector()
        self.poses: dict[str, tuple[np.ndarray, np.ndarray, float]] = {}
        self.status = Status()

    def reset(self) -> None:
        """Start afresh (the latched fall and the hold)."""
        self.falls.reset()
        self.status = Status()

    def set_pose(self, body: str, position: np.ndarray, quat_wxyz: np.ndarray,
                 now: float) -> None:
        """A tracked body's measured world pose (m; w x y z) at time ``now`` (s)."""
        self.poses[body] = (np.asarray(position, float), np.asarray(quat_wxyz, float), now)

    def _fresh(self, body: str, now: float) -> bool:
        pose = self.poses.get(body)
        return pose is not None and now - pose[2] <= self.pose_timeout

    def update(self, imu_quat: np.ndarray, joint_q: np.ndarray, grippers: np.ndarray,
               now: float) -> Status:
        """Evaluate one control period from the IMU orientation (w x y z), the 29 joint
        angles (rad) and the gripper closures (0..1) at time ``now`` (s)."""
        status = self.status
        if status.done:
            return status
        status.control_step += 1
        pelvis = self.poses[c.PELVIS_BODY][0] if self._fresh(c.PELVIS_BODY, now) else None
        height = pelvis if pelvis is not None else np.array([0.0, 0.0, np.inf])  # tilt only
        status.fell = self.falls.update(height, np.asarray(imu_quat, float), status.control_step)
        if self.task is None:
            return status
        missing = [b for b in self.tracked if not self._fresh(b, now)]
        if missing:
            status.held_steps, status.metrics = 0, {AVAILABLE: 0.0}
            topics = ", ".join(POSE_TOPIC.format(body=b) for b in missing)
            status.reason = f"predicate unavailable: no recent pose on {topics}"
            return status
        self._load(joint_q, grippers)
        status.reason = ""
        status.metrics = {**self.task.metrics(self.scene), AVAILABLE: 1.0}
        ended = judge_task(self.task, self.scene, status, self.hold_steps)
        return status if ended is None else self._end(*ended)

    def _load(self, joint_q: np.ndarray, grippers: np.ndarray) -> None:
        q = self.data.qpos
        q[self._joints] = joint_q
        q[self._fingers] = np.clip(np.asarray(grippers, float), 0, 1)[:, None] * c.GRIPPER_TRAVEL
        for body in self.tracked:
            position, quat, _ = self.poses[body]
            start = self._free[body]
            q[start:start + 3], q[start + 3:start + 7] = position, quat / np.linalg.norm(quat)
        self.data.qvel[:] = 0.0  # not measured
        mujoco.mj_forward(self.model, self.data)

    def _end(self, termination: Termination, reason: str) -> Status:
        status = self.status
        status.done = True
        status.termination = Termination.FELL if status.fell else termination
        status.reason = reason
        return status
