"""Constructed states for the dishwasher task tests: a success state per task, and the
helpers that break one clause at a time (used by test_tasks_dishwasher.py)."""

from __future__ import annotations

import mujoco
import numpy as np

from bench.robot import constants as c
from bench.tasks import dishwasher as dw
from bench.tasks import dishwasher_scene as ds
from bench.tasks.base import Scene, quat_mul, yaw_quat
from bench.tasks.props import RACK_PLATE_HEIGHT, rack_slot_offsets

SINK = 0.0005  # m, how far a resting object is pressed into its support
HANDLE_END = 0.095  # m, cutlery origin to the centre of the handle's end sphere
HANDLE_R = 0.007  # m
FLAT_ALONG_Y = np.array([np.cos(-np.pi / 4), np.sin(-np.pi / 4), 0.0, 0.0])  # +z -> +y
FLAT_ALONG_X = quat_mul(yaw_quat(-np.pi / 2), FLAT_ALONG_Y)  # +z -> +x, local y up


def forward(scene: Scene) -> None:
    """Recompute positions and contacts after editing qpos."""
    mujoco.mj_forward(scene.model, scene.data)


def set_parts(scene: Scene, **values: float) -> None:
    """Set articulated parts to normalised positions and recompute the kinematics."""
    for joint, value in values.items():
        ds.set_normalised(scene, joint, value)
    forward(scene)


def close_everything(scene: Scene, task: dw._Dishwasher) -> None:
    """Every door, tray and drawer of the task's scene closed."""
    set_parts(scene, **{joint: 0.0 for joint in task.joints()})


def cup_upright_on(scene: Scene, cup: str, xy, surface_top: float, lift: float = 0.0) -> None:
    """A cup standing upright on a surface (pressed SINK into it), optionally lifted."""
    scene.set_free_pose(cup, [*xy, surface_top + dw.CUP_HEIGHT / 2 - SINK + lift])


def middle_tray_top(scene: Scene) -> float:
    """Height of the middle tray's base top."""
    return float(scene.pos("middle_tray")[2]) + 0.005


def stand_in_basket(scene: Scene, item: str, cell: int, lift: float = 0.0) -> None:
    """An item standing handle down on the floor of a basket cell."""
    floor = ds.basket_cells(scene)[cell]
    end = floor + np.array([0.0, 0.0, HANDLE_R - SINK + lift])
    scene.set_free_pose(item, end + np.array([0.0, 0.0, HANDLE_END]))


def lie_in_cutlery_tray(scene: Scene, item: str, dx: float, lift: float = 0.0) -> None:
    """An item lying flat along the cutlery tray's long side (world y), ``dx`` across."""
    tray = scene.pos("cutlery_tray")
    scene.set_free_pose(item, tray + np.array([dx, 0.0, 0.004 + HANDLE_R - SINK + lift]),
                        FLAT_ALONG_Y)


def fork_in_drawer(scene: Scene, lift: float = 0.0) -> None:
    """The fork lying flat along x in the drawer's organiser, between two dividers."""
    drawer = scene.pos("drawer")
    scene.set_free_pose("fork", drawer + np.array([0.22, 0.04, 0.006 + HANDLE_R - SINK + lift]),
                        FLAT_ALONG_X)


def seat_in_bottom_tray(scene: Scene, plate: str, slot: int, lift: float = 0.0,
                        yaw_deg: float = 0.0) -> None:
    """A plate standing in a bottom-tray slot facing the robot's right."""
    centre = ds.bottom_slot_centres(scene)[slot] + np.array([0.0, 0.0, lift - SINK])
    scene.set_free_pose(plate, centre, quat_mul(yaw_quat(np.radians(yaw_deg)),
                                                dw.PLATE_FACING_RIGHT))


def seat_in_drainer(scene: Scene, plate: str, slot: int, lift: float = 0.0) -> None:
    """A plate standing in a drainer slot facing the robot's right."""
    rack = scene.pos("drainer")
    centre = rack + np.array([0.0, rack_slot_offsets()[slot], RACK_PLATE_HEIGHT - SINK + lift])
    scene.set_free_pose(plate, centre, dw.PLATE_FACING_RIGHT)


def touch_with_left_pad(scene: Scene, point: np.ndarray) -> None:
    """Move the whole robot (its free base) so the left pad's centre sits at ``point``."""
    pad = scene.data.geom_xpos[scene.model.geom(c.GRIPPER_PADS["left"][0]).id]
    adr = scene.model.joint(c.FREE_JOINT).qposadr[0]
    scene.data.qpos[adr:adr + 3] += point - pad
    forward(scene)


def success_state(task: dw._Dishwasher, scene: Scene) -> None:
    """Put the scene of ``task`` into a state that meets its success condition."""
    name = task.name
    if isinstance(task, dw._DoorAndTrays):
        set_parts(scene, **{joint: 1.0 if want_open else 0.0 for joint, want_open in task.goal})
    elif name == "dishwasher_load_cups":
        spots = dw.middle_tray_spots(scene)
        for cup, spot in zip(task.cups, (0, 4), strict=True):
            cup_upright_on(scene, cup, spots[spot], middle_tray_top(scene))
    elif name == "dishwasher_unload_cups":
        for cup, y in zip(task.cups, (-0.1, 0.1), strict=True):
            cup_upright_on(scene, cup, (0.7, y), ds.COUNTER_TOP)
    elif name == "dishwasher_unload_cups_long":
        close_everything(scene, task)
        cup_upright_on(scene, "cup", (0.85, -0.25), ds.WALL_SHELF)
    elif name == "dishwasher_load_cutlery":
        stand_in_basket(scene, "knife", 0)
        stand_in_basket(scene, "fork", 5)
    elif name == "dishwasher_unload_cutlery":
        lie_in_cutlery_tray(scene, "knife", -0.05)
        lie_in_cutlery_tray(scene, "fork", 0.05)
    elif name == "dishwasher_unload_cutlery_long":
        close_everything(scene, task)
        fork_in_drawer(scene)
    elif name == "dishwasher_load_plates":
        seat_in_bottom_tray(scene, "plate_a", 2)
        seat_in_bottom_tray(scene, "plate_b", 5)
    elif name == "dishwasher_unload_plates":
        seat_in_drainer(scene, "plate_a", 1)
        seat_in_drainer(scene, "plate_b", 4)
    elif name == "dishwasher_unload_plates_long":
        close_everything(scene, task)
        seat_in_drainer(scene, "plate", 2)
    else:
        raise KeyError(name)
    forward(scene)
