"""The gymnasium environment: ``make(task, config=None, **overrides)``.

One ``step`` is one 50 Hz control step (10 env steps of the seed's budget unit):

  action (normalized) -> raw whole-body command -> lower-body controller
  -> 20 x 1 ms physics substeps with PD torques -> falls and task status -> observation

The same objects serve the ROS graph, where the calls happen in different nodes.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace
from typing import Any

import gymnasium as gym
import numpy as np

from bench import config as cfg
from bench import layout
from bench.falls import FallDetector
from bench.robot import constants as c
from bench.sim.world import CONTROL_DT, G1World
from bench.tasks import TaskSpec, get_spec
from bench.wbc import BaseCommand, ResolvedBackend, RobotState, resolve_backend
from bench.wbc.floating import integrate_base_pose

DEFAULT_HEIGHT = 0.74  # m, base-height command during warmup and when none is given
EXTERNAL_CAMERA = "tracking"  # mjlab's camera that follows the robot
EXTERNAL_SIZE = 256  # px, render_mode="rgb_array"
PELVIS_LIMIT = 10.0  # m from the origin: beyond it the task fails


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
        self.world = G1World(camera_size=config.camera_shape[0], floating_base=self.floating_base,
                             render_size=EXTERNAL_SIZE if self.render_mode else None)
        self.action_layout = layout.wholebody_action_layout(ctrl.pitch_command, ctrl)
        self.action_dim = len(self.action_layout)
        self._low, self._high = layout.action_bounds(self.action_layout)
        self._arm_slice = slice(5, 19) if ctrl.pitch_command else slice(4, 18)
        self._low_dim_size = layout.low_dim_size(ctrl.pitch_command)
        self.action_space = gym.spaces.Box(-1.0, 1.0, (self.action_dim,), np.float32)
        self.observation_space = self._observation_space()
        self._low_dim_scale = _low_dim_bounds(ctrl.pitch_command)
        self.falls = FallDetector()
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
        self.falls.reset()
        self._succeeded = False
        self._held_steps = 0
        self._physics_error: str | None = None
        self._terminated_reason: str | None = None
        self._truncated = False
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
        start = self.world.robot_state()
        self.backend.controller.reset(start)
        self.base_pose = np.array([*start.base_pos, start.yaw])
        for _ in range(self.config.controller.reset_warmup_steps):
            self._advance(self.base_command)
        state = self.world.robot_state()
        self.settled_pelvis = np.array([*state.base_pos, state.yaw])
        self.base_pose = self.settled_pelvis.copy()  # the agent's base odometry starts here
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
        state = self._advance(self.base_command)
        self.control_step += 1
        self._update_status(state)
        terminated = self._succeeded or self._physics_error is not None or \
            self._terminated_reason is not None
        self._truncated = not terminated and self.env_steps >= self.config.episode_length
        reward = 1.0 if self._succeeded else 0.0
        return self._observe(), reward, terminated, self._truncated, self._info()

    def _update_status(self, state: RobotState) -> None:
        if not (np.all(np.isfinite(self.world.data.qpos)) and
                np.all(np.isfinite(self.world.data.qvel))):
            self._physics_error = "non-finite simulator state"
            return
        self.falls.update(state.base_pos, state.base_quat, self.control_step)
        if np.linalg.norm(state.base_pos[:2]) > PELVIS_LIMIT:
            self._terminated_reason = f"pelvis more than {PELVIS_LIMIT} m from the origin"

    @property
    def env_steps(self) -> int:
        """Elapsed budget in env steps (10 per control step)."""
        return self.control_step * self.config.demo_down_sample_rate

    # ----- episode hooks ----------------------------------------------------------------

    def episode_succeeded(self) -> bool:
        """The task reported success (its predicate held for the success hold)."""
        return self._succeeded

    def episode_fell(self) -> bool:
        """The robot fell at some point in the episode (latched)."""
        return self.falls.fell

    def episode_termination(self) -> str:
        """fell, success, physics_error, timeout or terminated ('' while running)."""
        if self.falls.fell:
            return "fell"
        if self._succeeded:
            return "success"
        if self._physics_error is not None:
            return "physics_error"
        if self._terminated_reason is not None:
            return "terminated"
        if self._truncated:
            return "timeout"
        return ""

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
            hold = max(1, round(self.config.success_hold_seconds / CONTROL_DT))
            observation["event_progress"] = np.array([min(1.0, self._held_steps / hold)],
                                                     np.float32)
        return observation

    def _info(self) -> dict[str, Any]:
        return {
            "control_step": self.control_step,
            "env_steps": self.env_steps,
            "fell": self.falls.fell,
            "success": self._succeeded,
            "termination": self.episode_termination(),
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
