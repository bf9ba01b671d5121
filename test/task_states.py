"""Constructed states for the task tests: a success state per task, and helpers that
break one clause at a time (used by test_tasks.py)."""

from __future__ import annotations

import mujoco
import numpy as np

from bench import predicates as pred
from bench.robot import constants as c
from bench.tasks import tabletop as tt
from bench.tasks.base import Scene, quat_mul, yaw_quat
from bench.tasks.props import TABLE_TOP

FACING_RIGHT = tt.PLATE_FACING_RIGHT
FACING_LEFT = quat_mul(yaw_quat(np.pi), FACING_RIGHT)


def forward(scene: Scene) -> None:
    """Recompute positions and contacts after editing qpos."""
    mujoco.mj_forward(scene.model, scene.data)


def tilt_x(deg: float) -> np.ndarray:
    """Quaternion of a rotation about the world x axis."""
    half = np.radians(deg) / 2
    return np.array([np.cos(half), np.sin(half), 0.0, 0.0])


def seat_plate(scene: Scene, plate: str, slot: int, dz: float = 0.0,
               quat: np.ndarray = FACING_RIGHT, dx: float = 0.0) -> None:
    """Put a plate into a slot of the right rack (offsets in metres)."""
    centre = tt.rack_slots(scene, "rack_right")[slot]
    scene.set_free_pose(plate, centre + np.array([dx, 0.0, dz]), quat)


def tilted_cup_height(deg: float) -> float:
    """Centre height of a cup tilted ``deg`` from upright with its lowest rim point on
    the table (0.5 mm into it)."""
    t = np.radians(deg)
    return TABLE_TOP + tt.CUP_HEIGHT / 2 * np.cos(t) + tt.CUP_RADIUS * np.sin(t) - 0.0005


def place_spoon_in_mug(scene: Scene, from_down_deg: float, lift: float = 0.0) -> None:
    """Spoon bowl-down in the mug, its axis ``from_down_deg`` from straight down."""
    mug, mug_quat = scene.pos("mug"), scene.quat("mug")
    tip = 0.09 + 0.024  # m, spoon origin to the bowl's far end
    quat = quat_mul(mug_quat, quat_mul(tilt_x(from_down_deg), np.array([0.0, 1.0, 0.0, 0.0])))
    bottom = mug[2] - tt.MUG_HEIGHT / 2 + 0.008
    axis = pred.axis_in_world(quat, np.array([0.0, 0.0, 1.0]))
    centre = np.array([mug[0], mug[1], bottom - 0.0005]) - axis * tip  # tip on the bottom
    scene.set_free_pose("spoon", centre + np.array([0.0, 0.0, lift]), quat)


def stack(scene: Scene, shift1=(0.0, 0.0, 0.0), yaw1: float = 0.0, shift2=(0.0, 0.0, 0.0),
          yaw2: float = 0.0, lift: float = 0.0) -> None:
    """Three blocks stacked on the pad, each resting 0.5 mm into the one below. ``shift1``
    moves the middle block (and the top one with it); ``shift2`` moves the top block
    relative to the middle one; ``lift`` raises the whole stack."""
    pad = scene.pos("pad")
    half = tt.BLOCK_HALF
    shifts = [np.zeros(3), np.array(shift1), np.array(shift1) + np.array(shift2)]
    yaws = [0.0, yaw1, yaw2]
    for level, block in enumerate(tt.BLOCKS):
        pos = pad + np.array([0.0, 0.0, 0.003 + half + 2 * half * level
                              - 0.0005 * (level + 1) + lift])
        scene.set_free_pose(block, pos + shifts[level], yaw_quat(yaws[level]))


def touch_with_left_pad(scene: Scene, point: np.ndarray) -> None:
    """Move the whole robot (its free base) so the left pad's centre sits at ``point``."""
    pad = scene.data.geom_xpos[scene.model.geom(c.GRIPPER_PADS["left"][0]).id]
    adr = scene.model.joint(c.FREE_JOINT).qposadr[0]
    scene.data.qpos[adr:adr + 3] += point - pad
    forward(scene)


def success_state(task: str, scene: Scene) -> None:
    """Put the objects of ``task`` into a state that meets its success condition."""
    left, right = scene.site(c.PINCH_SITES["left"]), scene.site(c.PINCH_SITES["right"])
    if task in ("reach_target_single",):
        scene.set_free_pose("target", left)
    elif task == "reach_target_multi_modal":
        scene.set_free_pose("target", right)
    elif task == "reach_target_dual":
        scene.set_free_pose("target_left", left)
        scene.set_free_pose("target_right", right)
    elif task == "move_plate":
        seat_plate(scene, "plate", 2)
    elif task == "move_two_plates":
        seat_plate(scene, "plate_a", 1)
        seat_plate(scene, "plate_b", 4)
    elif task == "flip_cup":
        xy = scene.pos("cup")[:2]
        scene.set_free_pose("cup", [*xy, TABLE_TOP + tt.CUP_HEIGHT / 2 - 0.0005])
    elif task == "flip_cutlery":
        place_spoon_in_mug(scene, 10.0)
    elif task == "stack_blocks":
        stack(scene)
    else:
        raise KeyError(task)
    forward(scene)
