"""Dishwasher tasks (seed 000): the four benchmark tasks and the nine released later.

Scenes (``dishwasher_scene``): the dishwasher stands on a 0.25 m plinth 0.6 m to the
robot's left beside a counter (top 0.86 m) in front of the robot, as in BiGym's
counter-and-dishwasher preset; the tasks that use only the dishwasher (close, open,
open_trays, close_trays) drop the counter and stand the dishwasher 0.8 m to the left,
BiGym's spawn for them, so the robot can walk along the open door. The ``_long``
tasks add the wall cabinet (cups, plates) or use the counter's drawer (fork).

Doors, trays and drawers report a normalised position, 0 closed and 1 open; each
task's ``metrics`` adds them (``<joint>_position``) to its clauses.

Design choices where the seed gives only a one-line goal (the later tasks):

- door and tray goals use the benchmark's tolerances (door within 4.5 degrees, bottom
  tray within 0.025 m, middle tray within 0.0225 m: 0.05 of the travel), open or closed;
- the ``_long`` tasks count the dishwasher and the cabinet or drawer as closed within
  0.1 of their travel (BiGym's tolerance for them, 9 degrees on a door);
- every task that moves objects fails fast when one touches the floor, as the
  benchmark's load tasks do; the door and tray tasks have no fail-fast;
- unloaded objects count when they touch their destination (counter top, drainer,
  cutlery tray, wall-cabinet shelf or the drawer's organiser) and are released.
"""

from __future__ import annotations

import mujoco
import numpy as np

from bench import predicates as pred
from bench.tasks import dishwasher_scene as ds
from bench.tasks.base import FLIP_X, Scene, Task, quat_mul, yaw_quat
from bench.tasks.props import (
    CUP_HEIGHT,
    CUP_MASS,
    CUP_RADIUS,
    RACK_BASE_HALF,
    RACK_PLATE_HEIGHT,
    add_cup,
    add_plate,
    add_rack,
)
from bench.tasks.props import rack_slot_offsets as rack_offsets

CLOSED_TOLERANCE = 0.05  # normalised: 4.5 degrees, 0.025 m and 0.0225 m
LONG_TOLERANCE = 0.10  # normalised, the _long tasks' closed dishwasher / cabinet / drawer
MUG_RADIUS, MUG_HEIGHT = 0.045, 0.10
RIGHT = np.array([0.0, -1.0, 0.0])
PLATE_FACING_RIGHT = np.array([np.cos(np.pi / 4), np.sin(np.pi / 4), 0.0, 0.0])  # +z -> -y
EDGE_TOLERANCE_DEG = 20.0

COUNTER_DISHWASHER_Y, ALONE_DISHWASHER_Y = 0.6, 0.8  # m, dishwasher centre
CUPS_X, CUPS_Y = 0.70, (-0.075, 0.075)  # m, load_cups spots on the counter
CUPS_JITTER = np.array([0.05, 0.02])
MUG_XY = np.array([0.65, 0.0])  # m, load_cutlery mug on the counter
DRAINER_XY = np.array([0.60, 0.0])  # m, drainer on the counter
ITEM_JITTER = 0.05  # m, mug / drainer / cutlery tray in x and y
CUTLERY_TRAY_XY = np.array([0.65, 0.0])
DRAINER_ODD_SLOTS = (0, 2, 4)  # the 1st, 3rd and 5th of 6
MIDDLE_SPOTS = np.array([(x, y) for x in (-0.12, 0.0) for y in (-0.17, -0.06, 0.05)])
BOTTOM_START_SLOTS = (0, 2, 4, 6)
WALL_RACK_XY, WALL_RACK_JITTER = np.array([0.84, -0.25]), np.array([0.01, 0.05])


def cup_spot_z(base_top: float) -> float:
    """Centre height of a cup standing (either way up) on a surface."""
    return base_top + CUP_HEIGHT / 2 + 0.001


class _Dishwasher(Task):
    """Shared scene: the dishwasher (door, two trays, basket), optionally the counter
    and the wall cabinet, and the task's props; resets set the articulated parts."""

    dishwasher_y = COUNTER_DISHWASHER_Y
    counter = True
    wall_cabinet = False
    start: tuple[float, float, float] = (1.0, 0.0, 0.0)  # door, bottom, middle tray

    def build(self, spec) -> None:
        ds.add_dishwasher(spec, self.dishwasher_y)
        if self.counter:
            ds.add_counter(spec)
        if self.wall_cabinet:
            ds.add_wall_cabinet(spec)
        self.build_props(spec)

    def build_props(self, spec) -> None:
        """Add the task's free bodies."""

    def reset(self, scene: Scene, rng: np.random.Generator) -> None:
        for joint, value in zip(ds.DISHWASHER_JOINTS, self.start, strict=True):
            ds.set_normalised(scene, joint, value)
        mujoco.mj_kinematics(scene.model, scene.data)  # tray poses for placing props
        self.place(scene, rng)

    def place(self, scene: Scene, rng: np.random.Generator) -> None:
        """Place the task's props for a new episode."""

    def joints(self) -> tuple[str, ...]:
        """The articulated parts of this scene."""
        out = ds.DISHWASHER_JOINTS + (("drawer",) if self.counter else ())
        return out + (ds.WALL_DOORS if self.wall_cabinet else ())

    def floor_objects(self) -> tuple[str, ...]:
        """The props whose touching the floor ends the episode (fail-fast)."""
        return ()

    def fail(self, scene: Scene) -> str | None:
        for body in self.floor_objects():
            if scene.touches(scene.geoms(body), scene.floor):
                return f"{body} touched the floor"
        return None

    def metrics(self, scene: Scene) -> dict[str, float]:
        out = super().metrics(scene)
        out.update({f"{j}_position": ds.normalised(scene, j) for j in self.joints()})
        return out

    def released(self, scene: Scene, body: str) -> dict[str, bool]:
        """The ``<body>_released`` clause."""
        return {f"{body}_released": not scene.held(body)}


def _closed(scene: Scene, joints, tolerance: float) -> bool:
    return all(ds.normalised(scene, j) <= tolerance for j in joints)


def _opened(scene: Scene, joints, tolerance: float) -> bool:
    return all(ds.normalised(scene, j) >= 1.0 - tolerance for j in joints)


# ----- door and trays ----------------------------------------------------------------------

class _DoorAndTrays(_Dishwasher):
    dishwasher_y = ALONE_DISHWASHER_Y
    counter = False
    goal: tuple[tuple[str, bool], ...] = ()  # (joint, open) pairs

    def clauses(self, scene: Scene) -> dict[str, bool]:
        out = {}
        for joint, want_open in self.goal:
            if want_open:
                out[f"{joint}_open"] = _opened(scene, [joint], CLOSED_TOLERANCE)
            else:
                out[f"{joint}_closed"] = _closed(scene, [joint], CLOSED_TOLERANCE)
        return out


class DishwasherClose(_DoorAndTrays):
    """Push both trays in and close the door: the door within 4.5 degrees of closed,
    the bottom tray within 0.025 m and the middle tray within 0.0225 m. No reset
    randomisation: the door is open and both trays out on every seed. No fail-fast."""

    name = "dishwasher_close"
    start = (1.0, 1.0, 1.0)
    goal = (("dishwasher_door", False), ("bottom_tray", False), ("middle_tray", False))


class DishwasherOpen(_DoorAndTrays):
    """Open the door and pull out both trays: the door within 4.5 degrees of fully open
    (90 degrees, on its stop), each tray within 0.05 of its travel of fully out. Everything
    starts closed on every seed. No fail-fast."""

    name = "dishwasher_open"
    start = (0.0, 0.0, 0.0)
    goal = (("dishwasher_door", True), ("bottom_tray", True), ("middle_tray", True))


class DishwasherOpenTrays(_DoorAndTrays):
    """Pull out both trays (each within 0.05 of its travel of fully out); the door starts
    open and the trays in on every seed. No fail-fast."""

    name = "dishwasher_open_trays"
    start = (1.0, 0.0, 0.0)
    goal = (("bottom_tray", True), ("middle_tray", True))


class DishwasherCloseTrays(_DoorAndTrays):
    """Push both trays back (bottom within 0.025 m, middle within 0.0225 m); the door
    starts open and the trays out on every seed, and the door may stay open. No
    fail-fast."""

    name = "dishwasher_close_trays"
    start = (1.0, 1.0, 1.0)
    goal = (("bottom_tray", False), ("middle_tray", False))


# ----- cups --------------------------------------------------------------------------------

class _Cups(_Dishwasher):
    cups: tuple[str, ...] = ("cup_a", "cup_b")
    start = (1.0, 0.0, 1.0)

    def floor_objects(self) -> tuple[str, ...]:
        return self.cups

    def build_props(self, spec) -> None:
        for cup, rgba in zip(self.cups, ([0.85, 0.3, 0.25, 1], [0.25, 0.55, 0.85, 1]),
                             strict=False):
            add_cup(spec, cup, CUP_RADIUS, CUP_HEIGHT, CUP_MASS, rgba)


class DishwasherLoadCups(_Cups):
    """Put the two cups from the counter into the upper (middle) tray: each cup touches
    the middle tray and is released, in any orientation. Fail-fast: a cup touches the
    floor. Reset: the door open and the middle tray out; the cups stand upside down on
    the counter 0.15 m apart (y -0.075 and 0.075), each +-0.05 m in x around 0.70 m ahead
    (0.65-0.75 m from the settled pelvis, which settles within 0.01 m of the origin) and
    +-0.02 m in y, with yaw 180 +- 30 degrees."""

    name = "dishwasher_load_cups"

    def place(self, scene: Scene, rng: np.random.Generator) -> None:
        for cup, y in zip(self.cups, CUPS_Y, strict=True):
            xy = np.array([CUPS_X, y]) + rng.uniform(-CUPS_JITTER, CUPS_JITTER)
            yaw = np.pi + rng.uniform(-np.pi / 6, np.pi / 6)
            scene.set_free_pose(cup, [*xy, cup_spot_z(ds.COUNTER_TOP)],
                                quat_mul(yaw_quat(yaw), FLIP_X))

    def clauses(self, scene: Scene) -> dict[str, bool]:
        out: dict[str, bool] = {}
        tray = scene.geoms("middle_tray")
        for cup in self.cups:
            out[f"{cup}_touches_middle_tray"] = scene.touches(scene.geoms(cup), tray)
            out.update(self.released(scene, cup))
        return out


def middle_tray_spots(scene: Scene) -> np.ndarray:
    """World x-y of the 6 cup spots on the middle tray (2 rows of 3)."""
    base = scene.pos("middle_tray")
    return np.array([base[:2] + xy for xy in MIDDLE_SPOTS])


class DishwasherUnloadCups(_Cups):
    """Move the two cups from the upper (middle) tray to the counter: each cup touches
    the counter top and is released. Fail-fast: a cup touches the floor. Reset: the door
    open and the middle tray out; the cups stand upside down in 2 of 6 spots of the tray
    (2 rows of 3), with yaw 90 +- 5 degrees."""

    name = "dishwasher_unload_cups"
    YAW, YAW_JITTER = np.pi / 2, np.radians(5.0)

    def place(self, scene: Scene, rng: np.random.Generator) -> None:
        spots = middle_tray_spots(scene)
        z = cup_spot_z(scene.pos("middle_tray")[2] + 0.005)
        for cup, spot in zip(self.cups, rng.choice(len(spots), len(self.cups), replace=False),
                             strict=True):
            yaw = self.YAW + rng.uniform(-self.YAW_JITTER, self.YAW_JITTER)
            scene.set_free_pose(cup, [*spots[spot], z], quat_mul(yaw_quat(yaw), FLIP_X))

    def clauses(self, scene: Scene) -> dict[str, bool]:
        out: dict[str, bool] = {}
        for cup in self.cups:
            out[f"{cup}_touches_counter"] = scene.touches(scene.geoms(cup),
                                                          scene.geom("counter_top"))
            out.update(self.released(scene, cup))
        return out


class DishwasherUnloadCupsLong(DishwasherUnloadCups):
    """Put a cup from the middle tray in the closed wall cabinet, then close the
    dishwasher and the cabinet: the cup touches the cabinet's bottom shelf and is
    released, the door and both trays are within 0.1 of closed, and both cabinet doors
    within 0.1 (9 degrees) of closed. Fail-fast: the cup touches the floor. Reset: as
    dishwasher_unload_cups with one cup; the cabinet doors start closed."""

    name = "dishwasher_unload_cups_long"
    cups = ("cup",)
    wall_cabinet = True

    def clauses(self, scene: Scene) -> dict[str, bool]:
        return {"cup_on_wall_shelf": scene.touches(scene.geoms("cup"), scene.geom("wall_shelf")),
                **self.released(scene, "cup"),
                "dishwasher_closed": _closed(scene, ds.DISHWASHER_JOINTS, LONG_TOLERANCE),
                "wall_cabinet_closed": _closed(scene, ds.WALL_DOORS, LONG_TOLERANCE)}


# ----- cutlery -----------------------------------------------------------------------------

class _Cutlery(_Dishwasher):
    items: tuple[str, ...] = ("knife", "fork")
    start = (1.0, 1.0, 0.0)

    def floor_objects(self) -> tuple[str, ...]:
        return self.items

    def build_props(self, spec) -> None:
        for item in self.items:
            ds.add_cutlery(spec, item, fork=item == "fork")


def lean_quat(azimuth: float, lean: float) -> np.ndarray:
    """Orientation of an item whose local +z leans ``lean`` from vertical toward the
    world direction ``azimuth``."""
    axis = np.array([-np.sin(azimuth), np.cos(azimuth), 0.0])  # tilt +z toward azimuth
    return np.array([np.cos(lean / 2), *(np.sin(lean / 2) * axis)])


class DishwasherLoadCutlery(_Cutlery):
    """Move the knife and fork from the mug on the counter into the cutlery basket: each
    touches the basket and is released. Fail-fast: an item touches the floor. Reset: the
    door open and the bottom tray out; the mug 0.65 m ahead on the counter, +-0.05 m in x
    and y, yaw +-90 degrees; the knife and fork stand in it handle down, leaning 20
    degrees toward directions 90 +- 5 degrees apart (the knife toward the mug's yaw)."""

    name = "dishwasher_load_cutlery"
    LEAN = np.radians(20.0)

    def build_props(self, spec) -> None:
        add_cup(spec, "mug", MUG_RADIUS, MUG_HEIGHT, 0.3, [0.2, 0.45, 0.8, 1], handle=True)
        super().build_props(spec)

    def place(self, scene: Scene, rng: np.random.Generator) -> None:
        xy = MUG_XY + rng.uniform(-ITEM_JITTER, ITEM_JITTER, 2)
        yaw = rng.uniform(-np.pi / 2, np.pi / 2)
        mug_bottom = ds.COUNTER_TOP + 0.001 + 0.008  # inner floor of the mug
        scene.set_free_pose("mug", [*xy, ds.COUNTER_TOP + MUG_HEIGHT / 2 + 0.001], yaw_quat(yaw))
        for k, item in enumerate(self.items):
            azimuth = yaw + k * np.pi / 2 + rng.uniform(-np.radians(5), np.radians(5))
            quat = lean_quat(azimuth, self.LEAN)
            axis = pred.axis_in_world(quat, [0.0, 0.0, 1.0])
            direction = np.array([np.cos(azimuth), np.sin(azimuth), 0.0])
            side = np.array([-direction[1], direction[0], 0.0]) * (0.012 if k else -0.012)
            lower_end = np.array([*xy, mug_bottom + 0.008]) - 0.02 * direction + side
            scene.set_free_pose(item, lower_end + axis * 0.102, quat)

    def clauses(self, scene: Scene) -> dict[str, bool]:
        out: dict[str, bool] = {}
        basket = scene.geoms("basket")
        for item in self.items:
            out[f"{item}_in_basket"] = scene.touches(scene.geoms(item), basket)
            out.update(self.released(scene, item))
        return out


class _UnloadCutlery(_Cutlery):
    TILT = np.radians(30.0)

    def place(self, scene: Scene, rng: np.random.Generator) -> None:
        cells = ds.basket_cells(scene)
        for item, cell in zip(self.items, rng.choice(len(cells), len(self.items),
                                                     replace=False), strict=True):
            quat = lean_quat(rng.uniform(-np.pi, np.pi), rng.uniform(0.0, 1.0) * self.TILT)
            axis = pred.axis_in_world(quat, [0.0, 0.0, 1.0])
            lower_end = cells[cell] + np.array([0.0, 0.0, 0.008])
            scene.set_free_pose(item, lower_end + axis * 0.102, quat)


class DishwasherUnloadCutlery(_UnloadCutlery):
    """Move the knife and fork from the basket to the cutlery tray on the counter: each
    touches the tray and is released. Fail-fast: an item touches the floor. Reset: the
    door open and the bottom tray out; the knife and fork stand handle down in 2 of the
    basket's 6 cells, leaning up to 30 degrees in a random direction; the tray lies 0.65
    m ahead on the counter, +-0.05 m in x and y, its long side across the robot."""

    name = "dishwasher_unload_cutlery"

    def build_props(self, spec) -> None:
        ds.add_cutlery_tray(spec, "cutlery_tray")
        super().build_props(spec)

    def place(self, scene: Scene, rng: np.random.Generator) -> None:
        xy = CUTLERY_TRAY_XY + rng.uniform(-ITEM_JITTER, ITEM_JITTER, 2)
        scene.set_free_pose("cutlery_tray", [*xy, ds.COUNTER_TOP + 0.001], yaw_quat(-np.pi / 2))
        super().place(scene, rng)

    def clauses(self, scene: Scene) -> dict[str, bool]:
        out: dict[str, bool] = {}
        tray = scene.geoms("cutlery_tray")
        for item in self.items:
            out[f"{item}_in_tray"] = scene.touches(scene.geoms(item), tray)
            out.update(self.released(scene, item))
        return out


class DishwasherUnloadCutleryLong(_UnloadCutlery):
    """Put the fork from the basket in the organiser tray inside the closed counter
    drawer, then close the dishwasher and the drawer: the fork touches the drawer's
    organiser and is released, the door and both trays are within 0.1 of closed and the
    drawer within 0.1 (0.038 m) of closed. Fail-fast: the fork touches the floor. Reset:
    as dishwasher_unload_cutlery with the fork alone; the drawer starts closed."""

    name = "dishwasher_unload_cutlery_long"
    items = ("fork",)

    def clauses(self, scene: Scene) -> dict[str, bool]:
        organiser = {g for g in scene.geoms("drawer")
                     if scene.model.geom(g).name.startswith("drawer_tray")}
        return {"fork_in_drawer_tray": scene.touches(scene.geoms("fork"), organiser),
                **self.released(scene, "fork"),
                "dishwasher_closed": _closed(scene, ds.DISHWASHER_JOINTS, LONG_TOLERANCE),
                "drawer_closed": _closed(scene, ["drawer"], LONG_TOLERANCE)}


# ----- plates ------------------------------------------------------------------------------

class _Plates(_Dishwasher):
    plates: tuple[str, ...] = ("plate_a", "plate_b")
    start = (1.0, 1.0, 0.0)

    def floor_objects(self) -> tuple[str, ...]:
        return self.plates

    def build_props(self, spec) -> None:
        add_rack(spec, "drainer")
        for plate in self.plates:
            add_plate(spec, plate)

    def place_drainer(self, scene: Scene, rng: np.random.Generator) -> np.ndarray:
        """Put the drainer on the counter, +-0.05 m in x and y; returns its x-y."""
        xy = DRAINER_XY + rng.uniform(-ITEM_JITTER, ITEM_JITTER, 2)
        scene.set_free_pose("drainer", [*xy, ds.COUNTER_TOP + RACK_BASE_HALF])
        return xy


class DishwasherLoadPlates(_Plates):
    """Move the two plates from the drainer into the lower (bottom) tray: each plate
    stands on edge with its face within 20 degrees of the robot's left or right, touches
    the bottom tray, and is released. Fail-fast: a plate touches the floor. Reset: the
    door open and the bottom tray out; the drainer 0.60 m ahead on the counter, +-0.05 m
    in x and y; the plates in 2 of its 3 odd-numbered slots (1st, 3rd, 5th of 6), facing
    the robot's right."""

    name = "dishwasher_load_plates"

    def place(self, scene: Scene, rng: np.random.Generator) -> None:
        xy = self.place_drainer(scene, rng)
        slots = rng.choice(DRAINER_ODD_SLOTS, size=len(self.plates), replace=False)
        for plate, slot in zip(self.plates, slots, strict=True):
            scene.set_free_pose(plate, [xy[0], xy[1] + rack_offsets()[slot], ds.COUNTER_TOP
                                        + RACK_BASE_HALF + RACK_PLATE_HEIGHT + 0.002],
                                PLATE_FACING_RIGHT)

    def clauses(self, scene: Scene) -> dict[str, bool]:
        out: dict[str, bool] = {}
        tray = scene.geoms("bottom_tray")
        for plate in self.plates:
            quat = scene.quat(plate)
            out[f"{plate}_on_edge"] = (pred.facing(quat, RIGHT, EDGE_TOLERANCE_DEG)
                                       or pred.facing(quat, -RIGHT, EDGE_TOLERANCE_DEG))
            out[f"{plate}_touches_bottom_tray"] = scene.touches(scene.geoms(plate), tray)
            out.update(self.released(scene, plate))
        return out


class DishwasherUnloadPlates(_Plates):
    """Move the two plates from the lower (bottom) tray to the drainer on the counter:
    each plate touches the drainer and is released. Fail-fast: a plate touches the
    floor. Reset: the door open and the bottom tray out; the plates stand in 2 of the
    tray's slots 1, 3, 5 and 7 (of 8), facing the robot's right; the drainer 0.60 m ahead
    on the counter, +-0.05 m in x and y."""

    name = "dishwasher_unload_plates"

    def place(self, scene: Scene, rng: np.random.Generator) -> None:
        self.place_drainer(scene, rng)
        centres = ds.bottom_slot_centres(scene)
        slots = rng.choice(BOTTOM_START_SLOTS, size=len(self.plates), replace=False)
        for plate, slot in zip(self.plates, slots, strict=True):
            scene.set_free_pose(plate, centres[slot] + np.array([0, 0, 0.002]),
                                PLATE_FACING_RIGHT)

    def clauses(self, scene: Scene) -> dict[str, bool]:
        out: dict[str, bool] = {}
        drainer = scene.geoms("drainer")
        for plate in self.plates:
            out[f"{plate}_touches_drainer"] = scene.touches(scene.geoms(plate), drainer)
            out.update(self.released(scene, plate))
        return out


class DishwasherUnloadPlatesLong(DishwasherUnloadPlates):
    """Put a plate from the bottom tray in the drainer inside the closed wall cabinet,
    then close the dishwasher and the cabinet: the plate touches the drainer and is
    released, the door and both trays are within 0.1 of closed, and both cabinet doors
    within 0.1 (9 degrees) of closed. Fail-fast: the plate touches the floor. Reset: as
    dishwasher_unload_plates with one plate; the drainer stands on the cabinet's bottom
    shelf, +-0.01 m in x (depth) and +-0.05 m in y; the cabinet doors start closed."""

    name = "dishwasher_unload_plates_long"
    plates = ("plate",)
    wall_cabinet = True

    def place_drainer(self, scene: Scene, rng: np.random.Generator) -> np.ndarray:
        xy = WALL_RACK_XY + rng.uniform(-WALL_RACK_JITTER, WALL_RACK_JITTER)
        scene.set_free_pose("drainer", [*xy, ds.WALL_SHELF + RACK_BASE_HALF])
        return xy

    def clauses(self, scene: Scene) -> dict[str, bool]:
        return {**super().clauses(scene),
                "dishwasher_closed": _closed(scene, ds.DISHWASHER_JOINTS, LONG_TOLERANCE),
                "wall_cabinet_closed": _closed(scene, ds.WALL_DOORS, LONG_TOLERANCE)}


TASK_CLASSES = (DishwasherClose, DishwasherLoadCups, DishwasherLoadCutlery, DishwasherLoadPlates,
                DishwasherOpen, DishwasherOpenTrays, DishwasherCloseTrays, DishwasherUnloadCups,
                DishwasherUnloadCupsLong, DishwasherUnloadCutlery, DishwasherUnloadCutleryLong,
                DishwasherUnloadPlates, DishwasherUnloadPlatesLong)
