"""Constructed states for the kitchen-counter task tests: a success state per task and
the edits that break one clause at a time (used by test_tasks_kitchen.py)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import task_states as ts

from bench.tasks import kitchen as kt
from bench.tasks import kitchen_scene as ks
from bench.tasks.base import FLIP_X, Scene, quat_mul, yaw_quat

SINK = 0.0005  # m, how far a resting object is pressed into its support


def tilt_y(deg: float) -> np.ndarray:
    """Quaternion of a rotation about the world y axis."""
    half = np.radians(deg) / 2
    return np.array([np.cos(half), 0.0, np.sin(half), 0.0])


def set_parts(scene: Scene, parts: tuple[str, ...], fraction: float) -> None:
    """Put drawers and doors at one normalized opening."""
    for part in parts:
        ks.set_opening(scene, part, fraction)


def sandwich_on(scene: Scene, support: str, support_top: float, quat=(1.0, 0.0, 0.0, 0.0),
                lift: float = 0.0) -> None:
    """The sandwich resting flat on a support whose top face is at ``support_top`` above
    the support body's origin, centred over it."""
    base = scene.pos(support)
    scene.set_free_pose("sandwich", [base[0], base[1], base[2] + support_top
                                     + ks.SANDWICH_HALF[2] - SINK + lift], quat)


def tilted_sandwich(scene: Scene, support: str, support_top: float, deg: float,
                    upside_down: bool = False) -> None:
    """The sandwich tilted ``deg`` about y with its lowest edge resting on a support."""
    hx, _, hz = ks.SANDWICH_HALF
    t = np.radians(deg)
    rise = hx * np.sin(t) + hz * np.cos(t) - hz
    quat = tilt_y(deg) if not upside_down else quat_mul(tilt_y(deg), FLIP_X)
    sandwich_on(scene, support, support_top, quat, lift=rise)


GROCERY_SUCCESS = {  # task: grocery -> (kitchen-local x, y, support top), 0.3 m apart
    "store_groceries_lower": {"can_a": (0.30, 0.45, ks.PLINTH), "can_b": (0.30, 0.75, ks.PLINTH),
                              "cereal": (0.30, -0.45, ks.PLINTH), "jar": (0.30, -0.75, ks.PLINTH)},
    "store_groceries_upper": {"can_a": (0.45, 0.45, ks.OPEN_SHELF[2]),
                              "can_b": (0.45, 0.75, ks.OPEN_SHELF[2]),
                              "cereal": (0.25, -0.15, ks.WALL_BOTTOM),
                              "jar": (0.25, 0.15, ks.WALL_BOTTOM)},
}


def success_state(task: str, scene: Scene, instance: kt._Kitchen) -> None:
    """Put the task's objects (and parts) into a state that meets its success condition."""
    k = instance.kitchen
    if isinstance(instance, kt._Articulation):
        set_parts(scene, instance.parts, 1.0 if instance.goal_open else 0.0)
    elif task == "pick_box":
        scene.set_free_pose("box", k.world(0.30, -0.30, k.top + ks.BOX_HALF[2] - SINK))
    elif task == "store_box":
        scene.set_free_pose("box", k.world(0.30, -0.60, k.shelf_top() + ks.BOX_HALF[2] - SINK))
    elif task == "put_cups":
        for cup, (x, y) in zip(kt.CUPS, kt.SHELF_CUP_SPOTS, strict=True):
            scene.set_free_pose(cup, k.world(x, y, ks.WALL_BOTTOM + kt.CUP_HEIGHT / 2 - SINK))
    elif task == "take_cups":
        for cup, y in zip(kt.CUPS, (-0.15, 0.15), strict=True):
            scene.set_free_pose(cup, k.world(0.2, y, k.top + kt.CUP_HEIGHT / 2 - SINK))
    elif task == "saucepan_to_hob":
        scene.set_free_pose("saucepan", k.world(*ks.HOB_CENTER, k.top + 0.006 - SINK))
    elif task == "store_kitchenware":
        scene.set_free_pose("saucepan", k.world(0.30, 0.60, k.shelf_top() - SINK))
        scene.set_free_pose("pan", k.world(0.32, 0.60, ks.PLINTH - SINK))
    elif task == "sandwich_remove":
        sandwich_on(scene, "board", ks.BOARD_HALF[2])
    elif task == "sandwich_toast":
        sandwich_on(scene, "pan", 0.008)
    elif task == "sandwich_flip":
        sandwich_on(scene, "pan", 0.008, FLIP_X)
    elif task in GROCERY_SUCCESS:
        for name, (x, y, support) in GROCERY_SUCCESS[task].items():
            scene.set_free_pose(name, k.world(x, y, support + ks.grocery_half_height(name) - SINK))
    else:
        raise KeyError(task)
    ts.forward(scene)


Edit = Callable[[Scene], None]


def lift(body: str, dz: float = 0.01) -> Edit:
    """Raise a free body by ``dz`` (breaks its contact with what it rests on)."""
    def edit(scene: Scene) -> None:
        scene.set_free_pose(body, scene.pos(body) + np.array([0.0, 0.0, dz]), scene.quat(body))
    return edit


def held_at(body: str, offset=(0.0, 0.0, 0.0)) -> Edit:
    """Put the left gripper pad on a body's origin plus ``offset`` (world)."""
    def edit(scene: Scene) -> None:
        ts.touch_with_left_pad(scene, scene.pos(body) + np.array(offset))
    return edit


def part_at(part: str, fraction: float) -> Edit:
    """Set one drawer or door to a normalized opening."""
    def edit(scene: Scene) -> None:
        ks.set_opening(scene, part, fraction)
    return edit


def box_on_edge(deg: float = 40.0) -> Edit:
    """The box tilted ``deg`` about y, one bottom edge resting on the counter where it
    stands."""
    def edit(scene: Scene) -> None:
        top = kt.PickBox.COUNTER_TOP
        hx, _, hz = ks.BOX_HALF
        t = np.radians(deg)
        centre = scene.pos("box")
        centre[2] = top + hx * np.sin(t) + hz * np.cos(t) - SINK
        scene.set_free_pose("box", centre, tilt_y(deg))
    return edit


def box_past_front_edge(scene: Scene) -> None:
    """The box's centre 1 cm in front of the counter's front edge, still on its top."""
    k = kt.PickBox().kitchen
    scene.set_free_pose("box", k.world(-0.01, -0.30, k.top + ks.BOX_HALF[2] - SINK),
                        yaw_quat(0.0))
