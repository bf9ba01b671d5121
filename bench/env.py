"""The gymnasium environment: ``make(task, config=None, **overrides)``.

One ``step`` is one 50 Hz control step (10 env steps of the seed's budget unit):

  action (normalized) -> raw whole-body command -> lower-body controller
  -> 20 x 1 ms physics substeps with PD torques -> falls and task status -> observation

The same objects serve the ROS graph, where the calls happen in different nodes.
"""

from __future__ import annotations

import copy
from collections import deque
from dataclasses import replace
from typing import Any

import gymnasium as gym
import mujoco
import numpy as np

from bench import config as cfg
from bench import layout
from bench.monitor import Status, TaskMonitor, Termination
from bench.robot import assembly
from bench.robot import constants as c
from bench.sim.world import CONTROL_DT, G1World
from bench.tasks import TaskSpec, get_spec, make_task
from bench.tasks.base import Scene
from bench.wbc import BaseCommand, ResolvedBackend, RobotState, resolve_backend
from bench.wbc.floating import integrate_base_pose

DEFAULT_HEIGHT = 0.74  # m, base-height command during warmup and when none is given
EXTERNAL_CAMERA = "tracking"  # mjlab's camera that follows the robot
EXTERNAL_SIZE = 256  # px, render_mode="rgb_array"
PELVIS_LIMIT = 10.0  # m, pelvis distance bound used to normalize low-dim positions


def official_config(task: str) -> cfg.EnvConfig:
    """The task's official configuration: EnvConfig defaults plus its TaskSpec."""
    spec = get_spec(task)
    base = cfg.EnvConfig()
    return replace(base, controller=replace(base.controller, pitch_command=spec.pitch_command),
                   reach_tolerance=spec.reach_tolerance,
                   initialization_profile=spec.initialization_profile,
                   episode_length=spec.episode_length)


def make(task: str, config: cfg.EnvConfig | None = None, **overrides: Any) -> BenchEnv:
    """Build the env for ``task``: its official configuration, or ``config``, with
    keyword overrides; ``controller`` overrides merge into the task's controller, and
    ``controller=None`` builds the floating-base research env."""
    official = official_config(task)
    resolved = cfg.apply_overrides(config or official, overrides)
    resolved.validate()
    return BenchEnv(get_spec(task), resolved, official)


class BenchEnv(gym.Env):
    """A G1 manipulation task in MuJoCo under a lower-body controller."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 50}  # noqa: RUF012 (gymnasium API)

    def __init__(self, spec: TaskSpec, config: cfg.EnvConfig, official: cfg.EnvConfig):
        self.spec_ = spec
        self.config = config
        self.official_config = official
        self.render_mode = config.render_mode
        ctrl = config.controller
        self.backend: ResolvedBackend = resolve_backend(ctrl)
        self.floating_base = self.backend.name == "floating_base"
        self.task = make_task(spec.name, config.reach_tolerance)
        scene_spec = assembly.robot_spec()
        if self.task is not None:
            self.task.build(scene_spec)
        self.world = G1World(scene_spec, camera_size=config.camera_shape[0],
                             floating_base=self.floating_base,
                             render_size=EXTERNAL_SIZE if self.render_mode else None)
        self.scene = Scene(self.world.model, self.world.data)
        hold = max(1, round(config.success_hold_seconds / CONTROL_DT))
        # The monitor evaluates its own copy of the model from the world state, exactly as
        # the graph's task-monitor node does.
        self.monitor = TaskMonitor(self.task, copy.deepcopy(self.world.model), hold)
        self.action_layout = layout.wholebody_action_layout(ctrl.pitch_command, ctrl)
        self.action_dim = len(self.action_layout)
        self._low, self._high = layout.action_bounds(self.action_layout)
        self._arm_slice = slice(5, 19) if ctrl.pitch_command else slice(4, 18)
        self._low_dim_size = layout.low_dim_size(ctrl.pitch_command)
        self.action_space = gym.spaces.Box(-1.0, 1.0, (self.action_dim,), np.float32)
        self.observation_space = self._observation_space()
        self._low_dim_scale = _low_dim_bounds(ctrl.pitch_command)
        self._frames: deque[dict[str, np.ndarray]] = deque(maxlen=config.frame_stack)
        self.control_step = 0
        self.settled_pelvis = np.zeros(4)
        self.base_pose = np.zeros(4)
        self._reset_state()

    # ----- configuration and layouts -------------------------------------------------

    @property
    def config_overrides(self) -> list[str]:
        """Fields that depart from the task's official configuration."""
        return cfg.diff(self.official_config, self.config)

    def low_dim_component_slices(self) -> dict[str, tuple[int, int]]:
        """The seed's named slices of the low-dim observation."""
        return layout.low_dim_component_slices(self.config.controller.pitch_command)

    def wholebody_action_layout(self) -> list[dict[str, Any]]:
        """The action slots with their raw ranges."""
        return [vars(slot) for slot in self.action_layout]

    def _observation_space(self) -> gym.spaces.Dict:
        n, (h, w) = self.config.frame_stack, self.config.camera_shape
        low_dim: tuple[int, ...] = (self._low_dim_size,)
        rgb: tuple[int, ...] = (len(self.config.camera_keys), 3, h, w)
        if n > 1:
            low_dim, rgb = (n, *low_dim), (n, *rgb)
        spaces: dict[str, gym.Space] = {
            "low_dim": gym.spaces.Box(-np.inf, np.inf, low_dim, np.float32),
            "rgb_obs": gym.spaces.Box(0, 255, rgb, np.uint8),
        }
        if self.config.event_progress_enabled:
            spaces["event_progress"] = gym.spaces.Box(0.0, 1.0, (1,), np.float32)
        return gym.spaces.Dict(spaces)

    # ----- episode ----------------------------------------------------------------------

    def _reset_state(self) -> None:
        self.control_step = 0
        self.monitor.reset()
        self._warnings = 0
        self.arm_targets = c.KEYFRAME_JOINTS[15:].copy()
        self.grippers = np.zeros(2)
        self.base_command = BaseCommand(height=DEFAULT_HEIGHT)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict]:
        """Start an episode: keyframe stance, the task's seeded reset, then the warmup
        under the lower-body controller with the arms at the keyframe."""
        super().reset(seed=seed)
        self.rng = np.random.default_rng(seed)
        self._reset_state()
        self.world.reset_to_keyframe()
        if self.task is not None:
            self.task.reset(self.scene, self.rng)
            mujoco.mj_forward(self.world.model, self.world.data)
        start = self.world.robot_state()
        self.backend.controller.reset(start)
        self.base_pose = np.array([*start.base_pos, start.yaw])
        for _ in range(self.config.controller.reset_warmup_steps):
            self._advance(self.base_command)
        state = self.world.robot_state()
        self.settled_pelvis = np.array([*state.base_pos, state.yaw])
        self.base_pose = self.settled_pelvis.copy()  # the agent's base odometry starts here
        self._warnings = _warning_count(self.world.data)
        self._frames.clear()
        observation = self._observe()
        return observation, self._info()

    def _advance(self, command: BaseCommand) -> RobotState:
        """One control step: controller answer, then physics. Keeps the base pose as
        tracked by the base controller up to date."""
        state = self.world.robot_state()
        lower = self.backend.controller.command(state, command, self.arm_targets)
        self.world.step(np.concatenate([lower.position, self.arm_targets]),
                        np.concatenate([lower.kp, c.ARM_KP, c.ARM_KP]),
                        np.concatenate([lower.kd, c.ARM_KD, c.ARM_KD]),
                        self.grippers, lower.base_pose, lower.base_velocity)
        if lower.base_pose is not None:
            self.base_pose = lower.base_pose
        else:
            self.base_pose, _ = integrate_base_pose(self.base_pose, command, CONTROL_DT)
        return self.world.robot_state()

    def _parse_action(self, action: Any) -> np.ndarray:
        array = np.asarray(action, dtype=np.float64)
        if array.shape != (self.action_dim,):
            raise ValueError(
                f"action has shape {array.shape}; {self.spec_.name} takes {self.action_dim} "
                f"normalized floats (see env.wholebody_action_layout())")
        bad = np.flatnonzero(~np.isfinite(array))
        if bad.size:
            names = [self.action_layout[i].name for i in bad]
            raise ValueError(f"action has non-finite values in slots {bad.tolist()} ({names}); "
                             "send finite numbers in [-1, 1]")
        return array

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict]:
        """Apply one normalized whole-body action for one control step."""
        normalized = self._parse_action(action)
        raw = layout.denormalize(normalized, self.action_layout)
        if self.config.action_representation == "delta":
            arm_low = self._low[self._arm_slice]
            arm_high = self._high[self._arm_slice]
            delta = np.clip(normalized[self._arm_slice], -1, 1) * self.config.upper_delta_scale_rad
            raw[self._arm_slice] = np.clip(self.arm_targets + delta, arm_low, arm_high)
        pitch = float(raw[4]) if self.config.controller.pitch_command else 0.0
        self.base_command = BaseCommand(vx=float(raw[0]), vy=float(raw[1]), height=float(raw[2]),
                                        wz=float(raw[3]), torso_pitch=pitch)
        self.arm_targets = raw[self._arm_slice].copy()
        self.grippers = raw[-2:].copy()
        self._advance(self.base_command)
        self.control_step += 1
        status = self._monitor_step()
        truncated = status.termination is Termination.TIMEOUT
        terminated = status.done and not truncated
        reward = 1.0 if status.success and status.termination is Termination.SUCCESS else 0.0
        return self._observe(), reward, terminated, truncated, self._info()

    def _monitor_step(self) -> Status:
        data = self.world.data
        warnings = _warning_count(data)
        new_warnings, self._warnings = warnings - self._warnings, warnings
        return self.monitor.update(data.qpos, data.qvel, data.time, new_warnings,
                                   budget_exhausted=self.env_steps >= self.config.episode_length)

    @property
    def status(self) -> Status:
        """The task monitor's current verdict."""
        return self.monitor.status

    @property
    def env_steps(self) -> int:
        """Elapsed budget in env steps (10 per control step)."""
        return self.control_step * self.config.demo_down_sample_rate

    # ----- episode hooks ----------------------------------------------------------------

    def episode_succeeded(self) -> bool:
        """The task reported success (its predicate held for the success hold)."""
        return self.status.success

    def episode_fell(self) -> bool:
        """The robot fell at some point in the episode (latched)."""
        return self.status.fell

    def episode_termination(self) -> str:
        """fell, success, physics_error, timeout or terminated; 'fell' as soon as a fall
        happens; '' while the episode runs without one."""
        if self.status.fell:
            return Termination.FELL.value
        return self.status.termination.value

    # ----- observation ------------------------------------------------------------------

    def _low_dim(self) -> np.ndarray:
        w = self.world
        q, v = w.data.qpos, w.data.qvel
        arms = [c.joint_index(j) for j in c.ARMS]
        fingers_q = [w.model.joint(n).qposadr[0] for n in _FINGER_JOINTS]
        fingers_v = [w.model.joint(n).dofadr[0] for n in _FINGER_JOINTS]
        state = w.robot_state()
        yaw_rate = float(_world_yaw_rate(state))
        positions = [q[w.qpos_index[arms]], q[fingers_q], state.base_pos, [state.yaw]]
        velocities = [v[w.qvel_index[arms]], v[fingers_v], state.base_lin_vel, [yaw_rate]]
        if self.config.controller.pitch_command:
            waist = [c.joint_index(j) for j in c.WAIST_JOINTS]
            positions.insert(0, q[w.qpos_index[waist]])
            velocities.insert(0, v[w.qvel_index[waist]])
        values = np.concatenate(positions + velocities + [w.gripper_state(), self.base_pose])
        if self.config.normalize_low_dim_obs:
            low, high = self._low_dim_scale
            values = 2.0 * (values - low) / (high - low) - 1.0
        return values.astype(np.float32)

    def _observe(self) -> dict[str, np.ndarray]:
        frame = {"low_dim": self._low_dim(),
                 "rgb_obs": self.world.render(self.config.camera_keys)}
        if self.config.frame_stack == 1:
            observation = frame
        else:
            if not self._frames:
                self._frames.extend([frame] * self.config.frame_stack)
            else:
                self._frames.append(frame)
            observation = {key: np.stack([f[key] for f in self._frames]) for key in frame}
        if self.config.event_progress_enabled:
            progress = min(1.0, self.status.held_steps / self.monitor.hold_steps)
            observation["event_progress"] = np.array([progress], np.float32)
        return observation

    def _info(self) -> dict[str, Any]:
        return {
            "control_step": self.control_step,
            "env_steps": self.env_steps,
            "fell": self.status.fell,
            "success": self.status.success,
            "held_steps": self.status.held_steps,
            "termination": self.episode_termination(),
            "reason": self.status.reason,
            "metrics": dict(self.status.metrics),
            "backend": self.backend.name,
            "backend_substitution": self.backend.substitution,
            "scene": self.spec_.scene_status,
        }

    def render(self) -> np.ndarray | None:
        """The external view (HWC uint8) when render_mode is "rgb_array"."""
        if self.render_mode != "rgb_array":
            return None
        return self.world.render((EXTERNAL_CAMERA,), size=EXTERNAL_SIZE)[0].transpose(1, 2, 0)

    def close(self) -> None:
        """Release the renderers."""
        self.world.close()


def _warning_count(data: mujoco.MjData) -> int:
    """Total MuJoCo warnings raised so far in this data."""
    return int(sum(data.warning[i].number for i in range(len(data.warning))))


def is_success(env: BenchEnv) -> bool:
    """An episode success: the task reported success and the robot never fell."""
    return env.episode_succeeded() and not env.episode_fell()


_FINGER_JOINTS = ("left_gripper_joint", "left_gripper_joint_b", "right_gripper_joint",
                  "right_gripper_joint_b")


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
