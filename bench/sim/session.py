"""The simulator side of an episode: scene, seeded reset, actions, physics, observations.

The in-process env and the graph's simulator node both drive a SimSession with the
same calls in the same order, so both wirings produce the same trajectory:

  start(seed) -> [physics(lower) x warmup] -> settle() -> observe()
  then per control step: apply_action(a) -> physics(lower) -> observe()

where ``lower`` is the lower-body controller's answer to ``robot_state()`` and
``base_command`` with ``arm_targets``.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import mujoco
import numpy as np

from bench import config as cfg
from bench import layout
from bench.robot import assembly
from bench.robot import constants as c
from bench.sim.world import CONTROL_DT, G1World
from bench.tasks import make_task
from bench.tasks.base import Scene
from bench.wbc.base import BaseCommand, LowerBodyTargets, RobotState
from bench.wbc.floating import integrate_base_pose

DEFAULT_HEIGHT = 0.74  # m, base-height command during warmup and when none is given
EXTERNAL_SIZE = 256  # px, render_mode="rgb_array"
PELVIS_LIMIT = 10.0  # m, pelvis distance bound used to normalize low-dim positions
_FINGER_JOINTS = ("left_gripper_joint", "left_gripper_joint_b", "right_gripper_joint",
                  "right_gripper_joint_b")


def scene_spec(task: str, reach_tolerance: float | None) -> tuple[mujoco.MjSpec, Any]:
    """The robot plus the task's props, and the task object."""
    instance = make_task(task, reach_tolerance)
    spec = assembly.robot_spec()
    instance.build(spec)
    return spec, instance


def monitor_model(task: str, config: cfg.EnvConfig) -> tuple[mujoco.MjModel, Any]:
    """The compiled scene a task monitor evaluates (identical to the simulator's), and
    the task object; the graph's task-monitor node builds its own with this."""
    spec, instance = scene_spec(task, config.reach_tolerance)
    world = G1World(spec, floating_base=config.controller.backend == "floating_base")
    return world.model, instance


class SimSession:
    """One task's scene in MuJoCo, stepped one control step at a time."""

    def __init__(self, task: str, config: cfg.EnvConfig, floating_base: bool):
        self.task_name = task
        self.config = config
        ctrl = config.controller
        spec, self.task = scene_spec(task, config.reach_tolerance)
        self.task.initialization_profile = config.initialization_profile
        self.world = G1World(spec, camera_size=config.camera_shape[0],
                             floating_base=floating_base,
                             render_size=EXTERNAL_SIZE if config.render_mode else None)
        self.scene = Scene(self.world.model, self.world.data)
        self.action_layout = layout.wholebody_action_layout(ctrl.pitch_command, ctrl)
        self.action_dim = len(self.action_layout)
        self._low, self._high = layout.action_bounds(self.action_layout)
        self._arm_slice = slice(5, 19) if ctrl.pitch_command else slice(4, 18)
        self.low_dim_scale = _low_dim_bounds(ctrl.pitch_command)
        self._frames: deque[dict[str, np.ndarray]] = deque(maxlen=config.frame_stack)
        m = self.world.model
        self._arms = [c.joint_index(j) for j in c.ARMS]
        self._waist = [c.joint_index(j) for j in c.WAIST_JOINTS]
        self._fingers_q = [m.joint(n).qposadr[0] for n in _FINGER_JOINTS]
        self._fingers_v = [m.joint(n).dofadr[0] for n in _FINGER_JOINTS]
        self.settled_pelvis = np.zeros(4)
        self.base_pose = np.zeros(4)
        self._clear()

    def _clear(self) -> None:
        self.arm_targets = c.KEYFRAME_JOINTS[15:].copy()
        self.grippers = np.zeros(2)
        self._warming = False  # between start() and settle(): the reset warmup
        self.base_command = BaseCommand(height=DEFAULT_HEIGHT)
        self._warnings = 0

    # ----- episode ------------------------------------------------------------------------

    def start(self, seed: int | None) -> RobotState:
        """Keyframe stance and the task's seeded reset; returns the robot state."""
        self._clear()
        self._warming = True
        self.rng = np.random.default_rng(seed)
        self.world.reset_to_keyframe()
        self.task.reset(self.scene, self.rng)
        mujoco.mj_forward(self.world.model, self.world.data)
        state = self.world.robot_state()
        self.base_pose = np.array([*state.base_pos, state.yaw])
        return state

    def settle(self) -> None:
        """After the warmup: record the settled pelvis, start the base odometry there."""
        self._warming = False
        state = self.world.robot_state()
        self.settled_pelvis = np.array([*state.base_pos, state.yaw])
        self.base_pose = self.settled_pelvis.copy()
        self._warnings = warning_count(self.world.data)
        self._frames.clear()

    def parse_action(self, action: Any) -> np.ndarray:
        """Validate a normalized action; raise ValueError naming the problem and fix."""
        array = np.asarray(action, dtype=np.float64)
        if array.shape != (self.action_dim,):
            raise ValueError(
                f"action has shape {array.shape}; {self.task_name} takes {self.action_dim} "
                f"normalized floats (see env.wholebody_action_layout())")
        bad = np.flatnonzero(~np.isfinite(array))
        if bad.size:
            names = [self.action_layout[i].name for i in bad]
            raise ValueError(f"action has non-finite values in slots {bad.tolist()} ({names}); "
                             "send finite numbers in [-1, 1]")
        return array

    def apply_action(self, action: Any) -> None:
        """Set the base command, arm targets and grippers from a normalized action."""
        normalized = self.parse_action(action)
        raw = layout.denormalize(normalized, self.action_layout)
        if self.config.action_representation == "delta":
            delta = np.clip(normalized[self._arm_slice], -1, 1) * self.config.upper_delta_scale_rad
            raw[self._arm_slice] = np.clip(self.arm_targets + delta, self._low[self._arm_slice],
                                           self._high[self._arm_slice])
        pitch = float(raw[4]) if self.config.controller.pitch_command else 0.0
        self.base_command = BaseCommand(vx=float(raw[0]), vy=float(raw[1]), height=float(raw[2]),
                                        wz=float(raw[3]), torso_pitch=pitch)
        self.arm_targets = raw[self._arm_slice].copy()
        self.grippers = raw[-2:].copy()

    def robot_state(self) -> RobotState:
        """What the lower-body controller sees."""
        return self.world.robot_state()

    def physics(self, lower: LowerBodyTargets) -> None:
        """One control step of physics with the controller's answer and the arm targets;
        keeps the base pose as tracked by the base controller."""
        self.world.step(np.concatenate([lower.position, self.arm_targets]),
                        np.concatenate([lower.kp, c.ARM_KP, c.ARM_KP]),
                        np.concatenate([lower.kd, c.ARM_KD, c.ARM_KD]),
                        self.grippers, lower.base_pose)
        if self._warming:
            self.task.hold_through_warmup(self.scene)
        if lower.base_pose is not None:
            self.base_pose = np.asarray(lower.base_pose, float)
        else:
            self.base_pose = integrate_base_pose(self.base_pose, self.base_command, CONTROL_DT)

    def new_warnings(self) -> int:
        """MuJoCo warnings raised since the last call (or since settle())."""
        total = warning_count(self.world.data)
        new, self._warnings = total - self._warnings, total
        return new

    # ----- observation ---------------------------------------------------------------------

    def low_dim(self) -> np.ndarray:
        """The official low-dim vector (see bench.layout)."""
        w = self.world
        q, v = w.data.qpos, w.data.qvel
        state = w.robot_state()
        yaw_rate = _world_yaw_rate(state)
        positions = [q[w.qpos_index[self._arms]], q[self._fingers_q], state.base_pos, [state.yaw]]
        velocities = [v[w.qvel_index[self._arms]], v[self._fingers_v], state.base_lin_vel,
                      [yaw_rate]]
        if self.config.controller.pitch_command:
            positions.insert(0, q[w.qpos_index[self._waist]])
            velocities.insert(0, v[w.qvel_index[self._waist]])
        values = np.concatenate(positions + velocities + [w.gripper_state(), self.base_pose])
        if self.config.normalize_low_dim_obs:
            low, high = self.low_dim_scale
            values = 2.0 * (values - low) / (high - low) - 1.0
        return values.astype(np.float32)

    def observe(self, progress: float | None = None) -> dict[str, np.ndarray]:
        """The observation dict, with frame stacking and event progress as configured."""
        frame = {"low_dim": self.low_dim(), "rgb_obs": self.world.render(self.config.camera_keys)}
        if self.config.frame_stack == 1:
            observation = frame
        else:
            if not self._frames:
                self._frames.extend([frame] * self.config.frame_stack)
            else:
                self._frames.append(frame)
            observation = {key: np.stack([f[key] for f in self._frames]) for key in frame}
        if self.config.event_progress_enabled:
            observation["event_progress"] = np.array([progress or 0.0], np.float32)
        return observation

    def close(self) -> None:
        """Release the renderers."""
        self.world.close()


def warning_count(data: mujoco.MjData) -> int:
    """Total MuJoCo warnings raised so far in this data."""
    return int(sum(data.warning[i].number for i in range(len(data.warning))))


def _world_yaw_rate(state: RobotState) -> float:
    """World-frame yaw rate from the body-frame angular velocity."""
    w, x, y, z = state.base_quat
    # third row of the body-to-world rotation, dotted with the body angular velocity
    row = np.array([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)])
    return float(row @ state.base_ang_vel)


def _low_dim_bounds(pitch_command: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per-entry (low, high) used by normalize_low_dim_obs, in low-dim order."""
    arms = c.JOINT_LIMITS[[c.joint_index(j) for j in c.ARMS]]
    finger = [(0.0, c.GRIPPER_TRAVEL)] * 4
    pelvis = [(-PELVIS_LIMIT, PELVIS_LIMIT), (-PELVIS_LIMIT, PELVIS_LIMIT), (0.0, 1.2),
              (-np.pi, np.pi)]
    positions = [*map(tuple, arms), *finger, *pelvis]
    joint_vel = (-c.JOINT_VELOCITY_LIMIT, c.JOINT_VELOCITY_LIMIT)
    velocities = [joint_vel] * 14 + [(-0.5, 0.5)] * 4 + [(-2.0, 2.0)] * 3 + [(-np.pi, np.pi)]
    if pitch_command:
        waist = c.JOINT_LIMITS[[c.joint_index(j) for j in c.WAIST_JOINTS]]
        positions = [*map(tuple, waist), *positions]
        velocities = [joint_vel] * 3 + velocities
    bounds = np.array(positions + velocities + [(0.0, 1.0)] * 2 + pelvis)
    return bounds[:, 0], bounds[:, 1]
