"""The gymnasium environment: ``make(task, config=None, **overrides)``.

One ``step`` is one 50 Hz control step (10 env steps of the seed's budget unit):

  action (normalized) -> raw whole-body command -> lower-body controller
  -> 20 x 1 ms physics substeps with PD torques -> falls and task status -> observation

The same objects serve the ROS graph, where the calls happen in different nodes.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import gymnasium as gym
import numpy as np

from bench import config as cfg
from bench import layout
from bench.monitor import Status, TaskMonitor, Termination
from bench.sim.session import EXTERNAL_SIZE, SimSession
from bench.sim.world import CONTROL_DT
from bench.tasks import TaskSpec, get_spec
from bench.wbc import ResolvedBackend, resolve_backend

EXTERNAL_CAMERA = "tracking"  # mjlab's camera that follows the robot


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
        self.backend: ResolvedBackend = resolve_backend(config.controller)
        self.floating_base = self.backend.name == "floating_base"
        self.session = SimSession(spec.name, config, self.floating_base)
        self.task = self.session.task
        self.world = self.session.world
        self.scene = self.session.scene
        hold = max(1, round(config.success_hold_seconds / CONTROL_DT))
        # The monitor evaluates its own copy of the model from the world state, exactly as
        # the graph's task-monitor node does.
        self.monitor = TaskMonitor(self.task, copy.deepcopy(self.world.model), hold)
        self.action_layout = self.session.action_layout
        self.action_dim = self.session.action_dim
        self.action_space = gym.spaces.Box(-1.0, 1.0, (self.action_dim,), np.float32)
        self.observation_space = self._observation_space()
        self.control_step = 0

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
        low_dim: tuple[int, ...] = (layout.low_dim_size(self.config.controller.pitch_command),)
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

    # ----- session state, for callers that inspect it -----------------------------------

    @property
    def arm_targets(self) -> np.ndarray:
        """The arm joint targets in force (rad, left then right)."""
        return self.session.arm_targets

    @property
    def settled_pelvis(self) -> np.ndarray:
        """Pelvis x, y, z, yaw after the reset warmup."""
        return self.session.settled_pelvis

    @property
    def _low_dim_scale(self) -> tuple[np.ndarray, np.ndarray]:
        return self.session.low_dim_scale

    # ----- episode ----------------------------------------------------------------------

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict]:
        """Start an episode: keyframe stance, the task's seeded reset, then the warmup
        under the lower-body controller with the arms at the keyframe."""
        super().reset(seed=seed)
        self.control_step = 0
        self.monitor.reset()
        session = self.session
        self.backend.controller.reset(session.start(seed))
        for _ in range(self.config.controller.reset_warmup_steps):
            session.physics(self.backend.controller.command(
                session.robot_state(), session.base_command, session.arm_targets))
        session.settle()
        return session.observe(self._progress()), self._info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict]:
        """Apply one normalized whole-body action for one control step."""
        session = self.session
        session.apply_action(action)
        session.physics(self.backend.controller.command(
            session.robot_state(), session.base_command, session.arm_targets))
        self.control_step += 1
        data = self.world.data
        status = self.monitor.update(data.qpos, data.qvel, data.time, session.new_warnings(),
                                     budget_exhausted=self.env_steps >= self.config.episode_length)
        truncated = status.termination is Termination.TIMEOUT
        terminated = status.done and not truncated
        reward = 1.0 if status.success and status.termination is Termination.SUCCESS else 0.0
        return session.observe(self._progress()), reward, terminated, truncated, self._info()

    def _progress(self) -> float:
        return min(1.0, self.status.held_steps / self.monitor.hold_steps)

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
        }

    def render(self) -> np.ndarray | None:
        """The external view (HWC uint8) when render_mode is "rgb_array"."""
        if self.render_mode != "rgb_array":
            return None
        return self.world.render((EXTERNAL_CAMERA,), size=EXTERNAL_SIZE)[0].transpose(1, 2, 0)

    def close(self) -> None:
        """Release the renderers."""
        self.session.close()


def is_success(env: BenchEnv) -> bool:
    """An episode success: the task reported success and the robot never fell."""
    return env.episode_succeeded() and not env.episode_fell()
