"""The official observation and action layouts (seed 001), in one place.

Action (normalized to [-1, 1]; raw ranges below):

  slot  20-dim          21-dim (pitch command)
  0-3   vx, vy, height, wz
  4     left arm 0      torso_pitch
  ...   left arm 7, right arm 7, left gripper, right gripper (shifted by one)

Low-dim observation, 50 entries without the pitch command:

  proprioception           0-44   positions (0-21): left arm 7, right arm 7, fingers 4
                                  (left a, left b, right a, right b), pelvis x, y, z, yaw;
                                  then their velocities (22-43) in the same order
  proprioception_grippers  44-46  left, right gripper state, 0 = open, 1 = closed
  proprioception_floating_base 46-50  pelvis x, y, z, yaw as tracked by the base controller

With the pitch command the waist joints (yaw, roll, pitch) go in front of each half of
proprioception, positions before positions and velocities before velocities, so the
slices become (0, 50), (50, 52), (52, 56). Leg joints never appear: the lower-body
controller owns them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bench.config import ControllerConfig
from bench.robot import constants as c

ARM_SLOT_NAMES = tuple(j.removesuffix("_joint") for j in c.LEFT_ARM + c.RIGHT_ARM)
FINGER_NAMES = ("left_finger_a", "left_finger_b", "right_finger_a", "right_finger_b")
PELVIS_NAMES = ("pelvis_x", "pelvis_y", "pelvis_z", "pelvis_yaw")
WAIST_NAMES = tuple(j.removesuffix("_joint") for j in c.WAIST_JOINTS)


@dataclass(frozen=True)
class ActionSlot:
    """One slot of the whole-body action: its raw range and meaning."""

    index: int
    name: str
    low: float
    high: float
    unit: str


def wholebody_action_layout(pitch_command: bool,
                            controller: ControllerConfig | None = None) -> list[ActionSlot]:
    """The action slots with raw ranges, as env.wholebody_action_layout() reports them."""
    ctrl = controller or ControllerConfig()
    raw: list[tuple[str, float, float, str]] = [
        ("vx", -ctrl.cmd_clip, ctrl.cmd_clip, "m/s"),
        ("vy", -ctrl.cmd_clip, ctrl.cmd_clip, "m/s"),
        ("height", ctrl.height_range[0], ctrl.height_range[1], "m"),
        ("wz", -ctrl.wz_clip, ctrl.wz_clip, "rad/s"),
    ]
    if pitch_command:
        raw.append(("torso_pitch", ctrl.torso_pitch_range[0], ctrl.torso_pitch_range[1], "rad"))
    arm_limits = c.JOINT_LIMITS[[c.joint_index(j) for j in c.ARMS]]
    raw += [(name, lo, hi, "rad") for name, (lo, hi) in zip(ARM_SLOT_NAMES, arm_limits,
                                                            strict=True)]
    raw += [("left_gripper", 0.0, 1.0, "closure"), ("right_gripper", 0.0, 1.0, "closure")]
    return [ActionSlot(i, name, float(lo), float(hi), unit)
            for i, (name, lo, hi, unit) in enumerate(raw)]


def action_bounds(layout: list[ActionSlot]) -> tuple[np.ndarray, np.ndarray]:
    """Raw (low, high) arrays of a layout."""
    return (np.array([s.low for s in layout]), np.array([s.high for s in layout]))


def denormalize(action: np.ndarray, layout: list[ActionSlot]) -> np.ndarray:
    """Map a normalized action in [-1, 1] onto the raw ranges (clipping first)."""
    low, high = action_bounds(layout)
    return low + (np.clip(action, -1.0, 1.0) + 1.0) * 0.5 * (high - low)


def normalize(raw: np.ndarray, layout: list[ActionSlot]) -> np.ndarray:
    """Inverse of denormalize."""
    low, high = action_bounds(layout)
    return 2.0 * (np.asarray(raw, float) - low) / (high - low) - 1.0


def low_dim_names(pitch_command: bool) -> list[str]:
    """Name of every low-dim entry, in order."""
    positions = list(ARM_SLOT_NAMES) + list(FINGER_NAMES) + list(PELVIS_NAMES)
    if pitch_command:
        positions = list(WAIST_NAMES) + positions
    velocities = [f"{name}_vel" for name in positions]
    base = [f"base_{name}" for name in PELVIS_NAMES]
    return positions + velocities + ["left_gripper", "right_gripper"] + base


def low_dim_component_slices(pitch_command: bool) -> dict[str, tuple[int, int]]:
    """The seed's named slices of the low-dim observation."""
    proprio = 50 if pitch_command else 44
    return {
        "proprioception": (0, proprio),
        "proprioception_grippers": (proprio, proprio + 2),
        "proprioception_floating_base": (proprio + 2, proprio + 6),
    }


def low_dim_size(pitch_command: bool) -> int:
    """50, or 56 with the pitch command."""
    return low_dim_component_slices(pitch_command)["proprioception_floating_base"][1]
