"""The official configuration (seed 001) as typed dataclasses.

The defaults of EnvConfig and ControllerConfig are the official values. A task's
TaskSpec adds its few differences (pitch command, reach tolerance, initialization
profile, budget); `official_config(task)` applies them. Overrides are explicit, so
the fields that depart from the official configuration fall out of a comparison
(`config_overrides`), and `OFFICIAL_OVERRIDES` says which of them keep an env
official.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field, fields, replace
from typing import Any

BACKENDS = ("groot_wbc_g1", "holosoma_g1", "floating_base")
BASE_ACTION_MODES = ("lowerbody_cmd",)
INIT_STANCES = ("keyframe",)
INITIALIZATION_PROFILES = ("upstream", "g1_id_v1")
ACTION_REPRESENTATIONS = ("absolute", "delta")
RENDER_MODES = (None, "rgb_array")

# Fields that only change what the policy is handed: overriding them keeps an env official.
OFFICIAL_OVERRIDES = frozenset({
    "frame_stack", "normalize_low_dim_obs", "action_representation",
    "upper_delta_scale_rad", "event_progress_enabled", "render_mode",
})


@dataclass(frozen=True)
class ControllerConfig:
    """Lower-body controller settings (nested in EnvConfig as ``controller``)."""

    backend: str = "groot_wbc_g1"  # GR00T-WBC Balance/Walk ONNX pair
    base_action_mode: str = "lowerbody_cmd"  # base slots are velocity and height commands
    passive_base_tilt: bool = True  # pelvis roll and pitch are unactuated
    init_stance: str = "keyframe"
    pitch_command: bool = True  # torso-pitch slot in the action (21-dim)
    reset_warmup_steps: int = 200  # control steps under the WBC before the agent engages
    cmd_clip: float = 1.0  # m/s, bound of the vx and vy commands
    wz_clip: float = 1.0  # rad/s, bound of the yaw-rate command
    height_range: tuple[float, float] = (0.4, 1.0)  # m, absolute pelvis-height command
    torso_pitch_range: tuple[float, float] = (-0.2, 0.8)  # rad, + = lean forward
    goal_timeout_s: float = 1.0  # s of sim time a base goal stays active without news
    # Where the user's GR00T-WBC ONNX pair lives (else $BENCH_GROOT_WBC_DIR). A location,
    # not a setting: it is left out of config comparisons; records hash the files instead.
    groot_model_dir: str | None = None


@dataclass(frozen=True)
class EnvConfig:
    """Every item of the official configuration table, official values as defaults."""

    robot_model: str = "g1_dex1"
    controller: ControllerConfig = field(default_factory=ControllerConfig)
    demo_down_sample_rate: int = 10  # env steps per 50 Hz control step
    camera_keys: tuple[str, ...] = ("head", "right_wrist", "left_wrist")
    camera_shape: tuple[int, int] = (84, 84)  # px (height, width)
    success_hold_seconds: float = 1.0  # predicate must hold this long (50 control steps)
    reach_tolerance: float | None = None  # m, reach tasks only
    initialization_profile: str = "upstream"
    episode_length: int = 2000  # env steps; make(task) sets the task's budget
    # Official overrides: they change only what the policy is handed.
    frame_stack: int = 1
    normalize_low_dim_obs: bool = False
    action_representation: str = "absolute"  # "delta": arm slots are per-step changes
    upper_delta_scale_rad: float = 0.05  # rad per control step at a delta action of 1
    event_progress_enabled: bool = False
    render_mode: str | None = None

    def validate(self) -> None:
        """Raise ValueError naming the field when a value is out of its domain."""
        checks: list[tuple[str, Any, tuple[Any, ...]]] = [
            ("controller.backend", self.controller.backend, BACKENDS),
            ("controller.base_action_mode", self.controller.base_action_mode,
             BASE_ACTION_MODES),
            ("controller.init_stance", self.controller.init_stance, INIT_STANCES),
            ("initialization_profile", self.initialization_profile, INITIALIZATION_PROFILES),
            ("action_representation", self.action_representation, ACTION_REPRESENTATIONS),
            ("render_mode", self.render_mode, RENDER_MODES),
            ("robot_model", self.robot_model, ("g1_dex1",)),
        ]
        for name, value, allowed in checks:
            if value not in allowed:
                raise ValueError(f"{name}={value!r} is not one of {list(allowed)}")
        positive = {"frame_stack": self.frame_stack, "episode_length": self.episode_length,
                    "demo_down_sample_rate": self.demo_down_sample_rate,
                    "controller.cmd_clip": self.controller.cmd_clip,
                    "controller.wz_clip": self.controller.wz_clip,
                    "upper_delta_scale_rad": self.upper_delta_scale_rad}
        for name, value in positive.items():
            if not value > 0:
                raise ValueError(f"{name} must be positive, got {value!r}")
        if len(self.camera_shape) != 2 or self.camera_shape[0] != self.camera_shape[1]:
            raise ValueError(f"camera_shape must be square (h, w), got {self.camera_shape}")


def to_dict(config: EnvConfig) -> dict[str, Any]:
    """The config as a JSON-ready dict (tuples become lists)."""
    return json.loads(json.dumps(dataclasses.asdict(config)))


def config_hash(config: EnvConfig) -> str:
    """sha256 of the config's canonical JSON, for records."""
    canonical = json.dumps(to_dict(config), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _flatten(config: EnvConfig) -> dict[str, Any]:
    flat = {f.name: getattr(config, f.name) for f in fields(config) if f.name != "controller"}
    flat.update({f"controller.{f.name}": getattr(config.controller, f.name)
                 for f in fields(config.controller)})
    return flat


# Fields that say where files are, not how the benchmark runs.
LOCATION_FIELDS = frozenset({"controller.groot_model_dir"})


def diff(official: EnvConfig, config: EnvConfig) -> list[str]:
    """Dotted names of the fields where ``config`` departs from ``official``, sorted
    (file locations excluded)."""
    a, b = _flatten(official), _flatten(config)
    return sorted(name for name in a if a[name] != b[name] and name not in LOCATION_FIELDS)


def apply_overrides(base: EnvConfig, overrides: dict[str, Any]) -> EnvConfig:
    """``base`` with keyword overrides applied; ``controller`` may be a dict that merges
    into the base's controller, a ControllerConfig, or None (floating-base research env).
    Unknown names raise ValueError listing the known ones."""
    known = {f.name for f in fields(EnvConfig)}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise ValueError(f"unknown config field(s) {unknown}; known: {sorted(known)}")
    updates = dict(overrides)
    if "controller" in updates:
        updates["controller"] = _merge_controller(base.controller, updates["controller"])
    for name in ("camera_keys", "camera_shape"):
        if name in updates:
            updates[name] = tuple(updates[name])
    return replace(base, **updates)


def _merge_controller(base: ControllerConfig, value: Any) -> ControllerConfig:
    if value is None:
        return replace(base, backend="floating_base")
    if isinstance(value, ControllerConfig):
        return value
    if not isinstance(value, dict):
        raise ValueError(f"controller must be a dict, a ControllerConfig or None, not {value!r}")
    known = {f.name for f in fields(ControllerConfig)}
    unknown = sorted(set(value) - known)
    if unknown:
        raise ValueError(f"unknown controller field(s) {unknown}; known: {sorted(known)}")
    value = {k: tuple(v) if isinstance(v, list) else v for k, v in value.items()}
    return replace(base, **value)
