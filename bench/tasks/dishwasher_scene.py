"""Furniture and props of the dishwasher scenes, built from MuJoCo primitives.

Frame: the robot stands at the origin facing +x, +y is its left. Dimensions are
metres, masses kilograms, angles radians.

- The dishwasher (0.60 wide, 0.60 deep, 0.82 tall) stands on a 0.25 m plinth with its
  door's outer face at x = 0.40. The door is hinged along its bottom edge at 0.41 m;
  open, it lies flat toward the robot between 0.41 and 0.50 m, 0.62 m long. The bottom
  tray (with the cutlery basket and 8 plate slots) slides out 0.50 m, the middle tray
  0.45 m. A weak spring (2 N m/rad) and hinge friction (1 N m) against the door's 4 kg
  hold it shut below about 15 degrees and let it fall open onto its stop beyond, like
  a real dishwasher door; trays and drawers stay where they are put.
- The counter (top at 0.86 m, BiGym's height) stands in front of the robot, x 0.40-1.00,
  y -0.60-0.30, beside the dishwasher; it has one drawer (0.38 m travel) under its top
  on the robot's right, with a cutlery organiser inside.
- The wall cabinet (two glass doors, 0.60 wide, 0.30 deep) hangs over the counter with
  its bottom shelf at 1.15 m, as in the seed's lowered wall cabinet for the G1.

Every articulated part reports a normalised position, 0 closed and 1 open
(``normalised``): door angle over 90 degrees, tray or drawer travel over its full
travel.
"""

from __future__ import annotations

import mujoco
import numpy as np

from bench.tasks.base import Scene
from bench.tasks.props import BOX, CAPSULE, FRICTION, STEEL, WHITE, WOOD, free_body

PLINTH = 0.25  # m, top of the plinth the dishwasher stands on
DW_FRONT = 0.40  # m, x of the closed door's outer face
DW_WIDTH, DW_DEPTH, DW_HEIGHT = 0.60, 0.60, 0.82
DOOR_THICKNESS, DOOR_LENGTH = 0.09, 0.62
HINGE_Z = PLINTH + 0.16  # m, door hinge (bottom edge) height
DOOR_OPEN = np.pi / 2  # rad
TUB_FRONT = DW_FRONT + DOOR_THICKNESS  # m, x of the tub opening
TRAY_DEPTH, TRAY_HALF_WIDTH = 0.42, 0.27
TRAY_CLOSED_X = TUB_FRONT + 0.06 + TRAY_DEPTH / 2  # m, tray centre when pushed in
BOTTOM_TRAY_Z, MIDDLE_TRAY_Z = 0.53, 0.80  # m, tray base centres
BOTTOM_TRAVEL, MIDDLE_TRAVEL = 0.50, 0.45  # m
TRAY_WALL = 0.08  # m, bottom tray wall height (middle: 0.05)

# Plate slots of the bottom tray, in the tray frame: 8 slots along y, plates stand on
# edge facing +-y with the rim on two cradle bars along y, 0.06 m either side of the row.
PLATE_ROW_X, PLATE_ROW_Y, PLATE_PITCH, PLATE_SLOTS = 0.05, 0.06, 0.04, 8
CRADLE_X, CRADLE_Z, CRADLE_R = 0.06, 0.016, 0.008
# Cutlery basket on the bottom tray's front corner nearest the robot (tray frame).
BASKET_CENTRE = np.array([-0.14, -0.18])
BASKET_HALF = np.array([0.06, 0.08, 0.06])  # m, outer half sizes (x, y, height)
BASKET_FLOOR = 0.006  # m, the top of the basket's floor above its origin
BASKET_WALL = 0.003  # m, half the thickness of the basket's walls and dividers
BASKET_CELLS = np.array([(x, y) for x in (-0.03, 0.03) for y in (-0.053, 0.0, 0.053)])

COUNTER_TOP = 0.86  # m
COUNTER_X, COUNTER_Y = (0.40, 1.00), (-0.60, 0.30)
DRAWER_Y = (-0.55, -0.05)  # m, drawer cavity across the counter
DRAWER_BOTTOM, DRAWER_HEIGHT, DRAWER_DEPTH, DRAWER_TRAVEL = 0.69, 0.11, 0.44, 0.38

WALL_X = (0.70, 1.00)  # m, wall cabinet depth span
WALL_Y = (-0.55, 0.05)
WALL_SHELF, WALL_HEIGHT = 1.15, 0.42  # m, bottom shelf top and interior height
GLASS = [0.7, 0.85, 0.9, 0.3]
GREY = [0.35, 0.36, 0.38, 1]
PLASTIC = [0.25, 0.3, 0.35, 1]

DISHWASHER_JOINTS = ("dishwasher_door", "bottom_tray", "middle_tray")
WALL_DOORS = ("wall_door_left", "wall_door_right")


def _box(body: mujoco.MjsBody, name: str | None, lo, hi, rgba, **kw) -> None:
    """A box geom spanning the corners ``lo`` and ``hi`` in the body frame."""
    lo, hi = np.minimum(lo, hi), np.maximum(lo, hi)
    geom = body.add_geom(type=BOX, size=list((hi - lo) / 2), pos=list((hi + lo) / 2),
                         rgba=rgba, friction=FRICTION, **kw)
    if name:
        geom.name = name


def _slider(body: mujoco.MjsBody, name: str, travel: float) -> None:
    """A slide joint that opens toward the robot (-x), 0 closed to ``travel`` open."""
    body.add_joint(name=name, type=mujoco.mjtJoint.mjJNT_SLIDE, axis=[-1, 0, 0],
                   range=[0, travel], limited=mujoco.mjtLimited.mjLIMITED_TRUE,
                   damping=20.0, frictionloss=2.0, armature=0.5)


def add_dishwasher(spec: mujoco.MjSpec, y: float) -> None:
    """The dishwasher on its plinth, centred at ``y``: tub, door (joint
    ``dishwasher_door``), bottom tray (``bottom_tray``, with the cutlery basket, body
    ``basket``) and middle tray (``middle_tray``)."""
    w, back = DW_WIDTH / 2, DW_FRONT + DW_DEPTH
    top = PLINTH + DW_HEIGHT
    tub = spec.worldbody.add_body(name="dishwasher", pos=[0, y, 0])
    _box(tub, "dishwasher_plinth", [DW_FRONT, -w, 0], [back, w, PLINTH], GREY)
    _box(tub, None, [DW_FRONT, -w, PLINTH], [TUB_FRONT, w, HINGE_Z - 0.005], GREY)  # kick
    _box(tub, None, [TUB_FRONT, -w, PLINTH], [back, w, 0.50], STEEL)  # tub floor
    _box(tub, None, [TUB_FRONT, -w, top - 0.04], [back, w, top], STEEL)  # top
    _box(tub, None, [back - 0.02, -w, PLINTH], [back, w, top], STEEL)  # back
    for side in (-1, 1):
        _box(tub, None, [TUB_FRONT, side * w - 0.02 * side, PLINTH],
             [back, side * w, top], STEEL)
    door = tub.add_body(name="door", pos=[DW_FRONT, 0, HINGE_Z])
    door.add_joint(name="dishwasher_door", type=mujoco.mjtJoint.mjJNT_HINGE, axis=[0, -1, 0],
                   range=[0, DOOR_OPEN], limited=mujoco.mjtLimited.mjLIMITED_TRUE,
                   damping=2.0, frictionloss=1.0, stiffness=2.0, springref=0.0, armature=0.1)
    _box(door, "door_panel", [0, -w + 0.01, 0.0], [DOOR_THICKNESS, w - 0.01, DOOR_LENGTH],
         WHITE, mass=4.0)
    door.add_geom(name="door_handle", type=CAPSULE, size=[0.012, 0.2, 0],
                  pos=[-0.03, 0, DOOR_LENGTH - 0.06], euler=[np.pi / 2, 0, 0], rgba=STEEL,
                  mass=0.2)
    _add_tray(tub, "bottom_tray", BOTTOM_TRAY_Z, BOTTOM_TRAVEL, TRAY_WALL, plates=True)
    _add_tray(tub, "middle_tray", MIDDLE_TRAY_Z, MIDDLE_TRAVEL, 0.05, plates=False)


def _add_tray(tub: mujoco.MjsBody, name: str, z: float, travel: float, wall: float,
              plates: bool) -> None:
    tray = tub.add_body(name=name, pos=[TRAY_CLOSED_X, 0, z])
    _slider(tray, name, travel)
    d, w, t = TRAY_DEPTH / 2, TRAY_HALF_WIDTH, 0.005
    _box(tray, f"{name}_base", [-d, -w, -t], [d, w, t], STEEL, mass=1.5)
    for sx in (-1, 1):
        _box(tray, None, [sx * d - t, -w, t], [sx * d + t, w, t + wall], STEEL, mass=0.1)
        _box(tray, None, [-d, sx * w - t, t], [d, sx * w + t, t + wall], STEEL, mass=0.1)
    tray.add_geom(name=f"{name}_handle", type=CAPSULE, size=[0.01, 0.15, 0],
                  pos=[-d - 0.03, 0, t + wall], euler=[np.pi / 2, 0, 0], rgba=PLASTIC, mass=0.1)
    for sx in (-1, 1):  # handle posts
        _box(tray, None, [-d - 0.035, sx * 0.15 - 0.005, t], [-d, sx * 0.15 + 0.005,
             t + wall], PLASTIC, mass=0.02)
    if plates:
        for sx in (-1, 1):
            tray.add_geom(name=f"{name}_cradle{'ab'[sx > 0]}", type=CAPSULE,
                          size=[CRADLE_R, PLATE_SLOTS * PLATE_PITCH / 2, 0],
                          pos=[PLATE_ROW_X + sx * CRADLE_X, PLATE_ROW_Y, t + CRADLE_Z],
                          euler=[np.pi / 2, 0, 0], rgba=STEEL, mass=0.05)
        for k in range(PLATE_SLOTS + 1):
            py = PLATE_ROW_Y + (k - PLATE_SLOTS / 2) * PLATE_PITCH
            for sx in (-1, 1):
                tray.add_geom(type=CAPSULE, size=[0.003, 0.05, 0], rgba=STEEL, mass=0.005,
                              pos=[PLATE_ROW_X + sx * 0.04, py, t + 0.05], friction=FRICTION)
        _add_basket(tray, t)


def _add_basket(tray: mujoco.MjsBody, base_top: float) -> None:
    """The cutlery basket: an open box with 6 cells (2 x 3), fixed to the bottom tray."""
    basket = tray.add_body(name="basket", pos=[*BASKET_CENTRE, base_top])
    hx, hy, h = BASKET_HALF
    t = BASKET_WALL
    _box(basket, "basket_bottom", [-hx, -hy, 0], [hx, hy, BASKET_FLOOR], PLASTIC, mass=0.1)
    for s in (-1, 1):
        _box(basket, None, [s * hx - t, -hy, 0], [s * hx + t, hy, h], PLASTIC, mass=0.03)
        _box(basket, None, [-hx, s * hy - t, 0], [hx, s * hy + t, h], PLASTIC, mass=0.03)
    _box(basket, None, [-t, -hy, 0], [t, hy, h * 0.8], PLASTIC, mass=0.02)
    for y in (-0.027, 0.027):
        _box(basket, None, [-hx, y - t, 0], [hx, y + t, h * 0.8], PLASTIC, mass=0.02)


def add_counter(spec: mujoco.MjSpec) -> None:
    """The counter in front of the robot (top geom ``counter_top`` at 0.86 m) with its
    drawer (body ``drawer``, joint ``drawer``; organiser geoms ``drawer_tray*``)."""
    body = spec.worldbody.add_body(name="counter")
    (x0, x1), (y0, y1) = COUNTER_X, COUNTER_Y
    (d0, d1), top = DRAWER_Y, DRAWER_BOTTOM + DRAWER_HEIGHT + 0.02
    _box(body, "counter_top", [x0 - 0.02, y0, COUNTER_TOP - 0.04], [x1, y1, COUNTER_TOP], WOOD)
    _box(body, None, [x0, y0, 0], [x1, y1, DRAWER_BOTTOM - 0.01], WOOD)
    _box(body, None, [x0, y0, DRAWER_BOTTOM - 0.01], [x1, d0, COUNTER_TOP - 0.04], WOOD)
    _box(body, None, [x0, d1, DRAWER_BOTTOM - 0.01], [x1, y1, COUNTER_TOP - 0.04], WOOD)
    _box(body, None, [x1 - 0.02, d0, DRAWER_BOTTOM - 0.01], [x1, d1, top], WOOD)
    drawer = body.add_body(name="drawer", pos=[x0, (d0 + d1) / 2, DRAWER_BOTTOM])
    _slider(drawer, "drawer", DRAWER_TRAVEL)
    hw, t, depth = (d1 - d0) / 2 - 0.01, 0.006, DRAWER_DEPTH
    _box(drawer, "drawer_front", [-0.02, -hw - 0.005, 0], [0.0, hw + 0.005, DRAWER_HEIGHT + 0.015],
         WOOD, mass=0.5)
    drawer.add_geom(name="drawer_handle", type=CAPSULE, size=[0.01, 0.08, 0],
                    pos=[-0.045, 0, DRAWER_HEIGHT - 0.03], euler=[np.pi / 2, 0, 0],
                    rgba=STEEL, mass=0.05)
    for sy in (-1, 1):
        _box(drawer, None, [-0.035, sy * 0.08 - 0.005, DRAWER_HEIGHT - 0.035],
             [-0.02, sy * 0.08 + 0.005, DRAWER_HEIGHT - 0.025], STEEL, mass=0.01)
    _box(drawer, "drawer_tray_bottom", [0, -hw, 0], [depth, hw, t], WHITE, mass=0.5)
    _box(drawer, None, [depth - t, -hw, t], [depth, hw, DRAWER_HEIGHT], WOOD, mass=0.2)
    for sy in (-1, 1):
        _box(drawer, None, [0, sy * hw - t, t], [depth, sy * hw + t, DRAWER_HEIGHT], WOOD,
             mass=0.2)
    for k, y in enumerate((-0.08, 0.0, 0.08)):  # organiser dividers
        _box(drawer, f"drawer_tray_divider{k}", [0.03, y - 0.003, t], [depth - 0.03, y + 0.003,
             0.05], WHITE, mass=0.03)


def add_wall_cabinet(spec: mujoco.MjSpec) -> None:
    """The wall cabinet over the counter: bottom shelf geom ``wall_shelf`` (top at
    1.15 m) and two glass doors (joints ``wall_door_left`` / ``wall_door_right``)
    that open toward the robot."""
    (x0, x1), (y0, y1) = WALL_X, WALL_Y
    z0, z1, t = WALL_SHELF - 0.02, WALL_SHELF + WALL_HEIGHT, 0.015
    body = spec.worldbody.add_body(name="wall_cabinet")
    _box(body, "wall_shelf", [x0, y0, z0], [x1, y1, WALL_SHELF], WOOD)
    _box(body, None, [x0, y0, z1], [x1, y1, z1 + t], WOOD)
    _box(body, None, [x1 - t, y0, z0], [x1, y1, z1], WOOD)
    for y in (y0, y1 - t):
        _box(body, None, [x0, y, z0], [x1, y + t, z1], WOOD)
    width = (y1 - y0) / 2 - 0.003
    for name, edge, axis, span in (("wall_door_left", y1, -1, (-width, 0.0)),
                                   ("wall_door_right", y0, 1, (0.0, width))):
        door = body.add_body(name=name, pos=[x0, edge, z0])
        door.add_joint(name=name, type=mujoco.mjtJoint.mjJNT_HINGE, axis=[0, 0, axis],
                       range=[0, DOOR_OPEN], limited=mujoco.mjtLimited.mjLIMITED_TRUE,
                       damping=1.0, frictionloss=0.5, armature=0.05)
        _box(door, f"{name}_glass", [-0.02, span[0], 0.0], [0.0, span[1], z1 + t - z0],
             GLASS, mass=1.0)
        knob_y = span[0] + 0.04 if axis < 0 else span[1] - 0.04
        door.add_geom(name=f"{name}_handle", type=CAPSULE, size=[0.008, 0.05, 0],
                      pos=[-0.04, knob_y, 0.10], rgba=STEEL, mass=0.05)
        _box(door, None, [-0.04, knob_y - 0.005, 0.04], [-0.02, knob_y + 0.005, 0.06], STEEL,
             mass=0.01)


def add_cutlery(spec: mujoco.MjSpec, name: str, fork: bool) -> None:
    """A knife or fork (free body, 60 g) along its local z: the handle at -z, the blade
    or tines at +z; origin at the middle, 0.21 m long."""
    body = free_body(spec, name)
    body.add_geom(name=f"{name}_handle", type=CAPSULE, size=[0.007, 0.045, 0],
                  pos=[0, 0, -0.05], rgba=STEEL, mass=0.04, friction=FRICTION)
    if fork:
        body.add_geom(name=f"{name}_neck", type=BOX, size=[0.006, 0.002, 0.02],
                      pos=[0, 0, 0.015], rgba=STEEL, mass=0.005, friction=FRICTION)
        for k in range(4):
            body.add_geom(name=f"{name}_tine{k}", type=BOX, size=[0.0015, 0.0015, 0.025],
                          pos=[(k - 1.5) * 0.006, 0, 0.06], rgba=STEEL, mass=0.004,
                          friction=FRICTION)
    else:
        body.add_geom(name=f"{name}_blade", type=BOX, size=[0.009, 0.0015, 0.05],
                      pos=[0, 0, 0.05], rgba=STEEL, mass=0.02, friction=FRICTION)


def add_cutlery_tray(spec: mujoco.MjSpec, name: str) -> None:
    """A shallow cutlery tray (free body, 0.4 kg): 0.30 x 0.22 m, 0.04 m rims, origin at
    the bottom's centre, long side along local x."""
    body = free_body(spec, name)
    hx, hy, h, t = 0.15, 0.11, 0.04, 0.004
    _box(body, f"{name}_bottom", [-hx, -hy, 0], [hx, hy, t], WHITE, mass=0.25)
    for s in (-1, 1):
        _box(body, None, [s * hx - t, -hy, 0], [s * hx + t, hy, h], WHITE, mass=0.04)
        _box(body, None, [-hx, s * hy - t, 0], [hx, s * hy + t, h], WHITE, mass=0.03)


def joint_value(scene: Scene, joint: str) -> float:
    """The raw position (rad or m) of a hinge or slide joint."""
    return float(scene.data.qpos[scene.model.joint(joint).qposadr[0]])


def normalised(scene: Scene, joint: str) -> float:
    """A door, tray or drawer position from 0 (closed) to 1 (open): the joint position
    over the upper end of its range."""
    return joint_value(scene, joint) / float(scene.model.joint(joint).range[1])


def set_normalised(scene: Scene, joint: str, value: float) -> None:
    """Put a door, tray or drawer at a normalised position (and stop it)."""
    j = scene.model.joint(joint)
    scene.data.qpos[j.qposadr[0]] = value * float(j.range[1])
    scene.data.qvel[j.dofadr[0]] = 0.0


def bottom_slot_centres(scene: Scene) -> np.ndarray:
    """World positions where a plate standing in each bottom-tray slot has its centre."""
    base = scene.pos("bottom_tray")
    height = 0.005 + CRADLE_Z + float(np.sqrt((0.11 + CRADLE_R) ** 2 - CRADLE_X ** 2))
    ys = PLATE_ROW_Y + (np.arange(PLATE_SLOTS) - (PLATE_SLOTS - 1) / 2) * PLATE_PITCH
    return np.array([base + np.array([PLATE_ROW_X, y, height]) for y in ys])


def basket_cells(scene: Scene) -> np.ndarray:
    """World positions of the 6 basket cell centres, on the basket's floor."""
    base = scene.pos("basket")
    return np.array([base + np.array([x, y, BASKET_FLOOR]) for x, y in BASKET_CELLS])
