"""Falls (seed 001): pelvis tilt over 53 degrees from upright, or pelvis below 0.30 m.

Checked after every control step and latched for the rest of the episode. A fall
does not end the episode; it labels it ``fell``, which never counts as a success.
"""

from __future__ import annotations

import numpy as np

FALL_TILT_DEG = 53.0  # degrees from upright
FALL_HEIGHT = 0.30  # m, pelvis height


def pelvis_tilt_deg(quat_wxyz: np.ndarray) -> float:
    """Angle in degrees between the pelvis z axis and the world's up direction."""
    _, x, y, _ = quat_wxyz
    up_z = 1.0 - 2.0 * (x * x + y * y)  # z component of the body z axis in the world
    return float(np.degrees(np.arccos(np.clip(up_z, -1.0, 1.0))))


def is_fallen(pelvis_pos: np.ndarray, pelvis_quat: np.ndarray) -> bool:
    """True when the pelvis tilts past FALL_TILT_DEG or drops below FALL_HEIGHT."""
    return pelvis_tilt_deg(pelvis_quat) > FALL_TILT_DEG or float(pelvis_pos[2]) < FALL_HEIGHT


class FallDetector:
    """Latched fall flag, with the control step of the first fall."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Clear the latch for a new episode."""
        self.fell = False
        self.fell_at: int | None = None

    def update(self, pelvis_pos: np.ndarray, pelvis_quat: np.ndarray, step: int) -> bool:
        """Check one control step; returns the latched flag."""
        if not self.fell and is_fallen(pelvis_pos, pelvis_quat):
            self.fell, self.fell_at = True, step
        return self.fell
