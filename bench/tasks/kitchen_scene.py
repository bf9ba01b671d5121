"""The kitchen-counter scene (seed 000, "Kitchen counter"), built from primitives.

Frames: the robot spawns at the origin facing +x. The kitchen is one static body,
``kitchen``, whose origin is the middle of the counter's front edge on the floor at
world (KITCHEN_X, y_offset); its local x points into the counter, local y to the
robot's left. A task shifts the kitchen along y (``y_offset``) so that the unit it
works on stands in front of the robot.

Along local y, under the counter top: the right cabinet (y -0.9 to -0.3, a door hinged
at its outer edge, one shelf), three drawers (y -0.3 to 0.3: top, middle, bottom) and
the left cabinet (y 0.3 to 0.9, same as the right one). The hob lies on the counter
over the left cabinet. Above the drawers hangs the wall cabinet with two glass doors,
lowered 0.32 m and pulled 0.2 m forward from the BiGym position (which would be flush
against the wall at the back of the counter): its bottom shelf is at 1.15 m, the door
handles at about 1.2 m, and the free edges of the fully open doors are 0.64 m ahead of
the origin. An open shelf hangs on the wall over the left cabinet.

Articulated parts report a normalized position, 0 closed and 1 open (``opening``):
the drawers slide 0.38 m toward the robot, the four doors turn 90 degrees toward it.
Counter depth 0.60 m, length 1.80 m, top at 0.86 m (pick_box lowers it to 0.71 m).
"""

from __future__ import annotations

import mujoco
import numpy as np

from bench.tasks.base import Scene
from bench.tasks.props import (
    BOX,
    CAPSULE,
    CYLINDER,
    FRICTION,
    MESH,
    STEEL,
    WHITE,
    WOOD,
    free_body,
)

KITCHEN_X = 0.84  # m, counter front ahead of the origin
COUNTER_DEPTH, COUNTER_HALF_LENGTH = 0.60, 0.90  # m
COUNTER_TOP = 0.86  # m
SLAB = 0.04  # m, counter-top thickness
PLINTH = 0.12  # m, top of the cabinet and drawer floors
DRAWER_TRAVEL = 0.38  # m
DOOR_TRAVEL = np.pi / 2  # rad
DRAWERS = ("drawer_top", "drawer_middle", "drawer_bottom")
LOWER_DOORS = ("cabinet_left_door", "cabinet_right_door")
WALL_DOORS = ("wall_door_left", "wall_door_right")
ARTICULATIONS = (*DRAWERS, *LOWER_DOORS, *WALL_DOORS)
# Fractions of the carcass interior height (PLINTH to top - SLAB) that each drawer front
# spans, top drawer first.
DRAWER_SPANS = ((0.78, 0.99), (0.45, 0.76), (0.01, 0.43))
SHELF_FRACTION = 0.46  # lower-cabinet shelf height, as a fraction of the interior
CABINET_Y = {"left": (0.31, 0.89), "right": (-0.89, -0.31)}  # local y of the interiors
HOB_CENTER, HOB_HALF = (0.28, 0.60), 0.25  # local x, y; half side
WALL_FRONT, WALL_BACK = 0.10, 0.40  # local x of the wall cabinet
WALL_HALF_WIDTH = 0.30  # m
WALL_BOTTOM, WALL_MIDDLE, WALL_TOP = 1.15, 1.45, 1.75  # m, upper faces of its boards
OPEN_SHELF = ((0.30, 0.60), (0.35, 0.85), 1.20)  # local x range, y range, top height
PANEL = 0.02  # m, board thickness
Span = tuple[float, float] | list[float]  # (low, high) in metres
GLASS = [0.7, 0.85, 0.95, 0.3]
DARK = [0.12, 0.12, 0.13, 1]
GREY = [0.8, 0.8, 0.78, 1]
RED = [0.8, 0.15, 0.1, 1]


def joint_name(part: str) -> str:
    """The joint of an articulated part: ``<part>_slide`` or ``<part>_hinge``."""
    return f"{part}_slide" if part.startswith("drawer") else f"{part}_hinge"


def opening(scene: Scene, part: str) -> float:
    """Normalized position of a drawer or door: 0 closed, 1 fully open."""
    joint = scene.model.joint(joint_name(part))
    travel = float(joint.range[1])
    return float(np.clip(scene.data.qpos[joint.qposadr[0]] / travel, 0.0, 1.0))


def set_opening(scene: Scene, part: str, fraction: float) -> None:
    """Set a drawer or door to a normalized position (and stop it)."""
    joint = scene.model.joint(joint_name(part))
    scene.data.qpos[joint.qposadr[0]] = fraction * float(joint.range[1])
    scene.data.qvel[joint.dofadr[0]] = 0.0


class Kitchen:
    """Geometry of one kitchen instance: its y offset and counter height, with the
    conversions from kitchen-local to world coordinates that resets use."""

    def __init__(self, y_offset: float = 0.0, counter_top: float = COUNTER_TOP):
        self.y_offset = y_offset
        self.top = counter_top

    def world(self, x: float, y: float, z: float) -> np.ndarray:
        """A kitchen-local point (x into the counter, y left) in world coordinates."""
        return np.array([KITCHEN_X + x, self.y_offset + y, z])

    def interior(self) -> tuple[float, float]:
        """Bottom and top heights of the carcass interior (under the counter top)."""
        return PLINTH, self.top - SLAB

    def shelf_top(self) -> float:
        """Upper face of the lower cabinets' shelves."""
        low, high = self.interior()
        return low + SHELF_FRACTION * (high - low) + PANEL / 2

    def over_counter(self, point: np.ndarray) -> bool:
        """The point lies above the counter top's footprint."""
        x, y = point[0] - KITCHEN_X, point[1] - self.y_offset
        return bool(0.0 <= x <= COUNTER_DEPTH and abs(y) <= COUNTER_HALF_LENGTH)

    def build(self, spec: mujoco.MjSpec) -> None:
        """Add the kitchen: counter carcass, drawers, cabinets, hob, wall cabinet, shelf."""
        body = spec.worldbody.add_body(name="kitchen", pos=[KITCHEN_X, self.y_offset, 0.0])
        self._carcass(body)
        low, high = self.interior()
        for name, (a, b) in zip(DRAWERS, DRAWER_SPANS, strict=True):
            _add_drawer(body, name, low + a * (high - low), low + b * (high - low))
        for side, door in zip(("left", "right"), LOWER_DOORS, strict=True):
            y0, y1 = CABINET_Y[side]
            hinge_y = y1 if side == "left" else y0
            _add_door(body, door, hinge=(-PANEL / 2, hinge_y), width=y1 - y0,
                      z=(low, high), sign=1 if side == "left" else -1, rgba=WHITE)
        for door, sign in zip(WALL_DOORS, (1, -1), strict=True):
            _add_door(body, door, hinge=(WALL_FRONT - PANEL / 2, sign * WALL_HALF_WIDTH),
                      width=WALL_HALF_WIDTH - 0.003, z=(WALL_BOTTOM - PANEL, WALL_TOP),
                      sign=sign, rgba=GLASS, handle_z=WALL_BOTTOM + 0.07)
        self._wall_cabinet(body)
        self._hob(body)
        (x0, x1), (y0, y1), z = OPEN_SHELF
        _box(body, "open_shelf", (x0, x1), (y0, y1), (z - PANEL, z), WOOD)

    def _carcass(self, body: mujoco.MjsBody) -> None:
        top, low, high = self.top, *self.interior()
        length = COUNTER_HALF_LENGTH
        _box(body, "counter_top", (0.0, COUNTER_DEPTH), (-length, length), (top - SLAB, top),
             GREY)
        _box(body, "counter_plinth", (0.05, COUNTER_DEPTH), (-length, length),
             (0.0, low - PANEL), DARK)
        _box(body, "counter_back", (COUNTER_DEPTH - PANEL, COUNTER_DEPTH), (-length, length),
             (low, high), WHITE)
        for y in (-length, -0.30, 0.30, length):
            _box(body, None, (0.0, COUNTER_DEPTH - PANEL), (y - PANEL / 2, y + PANEL / 2),
                 (low, high), WHITE)
        shelf = low + SHELF_FRACTION * (high - low)
        for side, (y0, y1) in CABINET_Y.items():
            _box(body, f"cabinet_{side}_bottom", (0.0, COUNTER_DEPTH - PANEL), (y0, y1),
                 (low - PANEL, low), WHITE)
            _box(body, f"cabinet_{side}_shelf", (0.0, COUNTER_DEPTH - PANEL), (y0, y1),
                 (shelf - PANEL / 2, shelf + PANEL / 2), WHITE)
        # The wall behind the counter, up to the ceiling of the scene.
        _box(body, "kitchen_wall", (COUNTER_DEPTH, COUNTER_DEPTH + 0.05), (-length, length),
             (top, 2.2), [0.93, 0.91, 0.86, 1])

    def _wall_cabinet(self, body: mujoco.MjsBody) -> None:
        half, x = WALL_HALF_WIDTH, (WALL_FRONT, WALL_BACK)
        for name, z in (("wall_shelf_bottom", WALL_BOTTOM), ("wall_shelf_middle", WALL_MIDDLE),
                        ("wall_cabinet_roof", WALL_TOP)):
            _box(body, name, x, (-half, half), (z - PANEL, z), WHITE)
        for sign in (-1, 1):
            _box(body, None, x, sorted((sign * half, sign * (half - PANEL))),
                 (WALL_BOTTOM - PANEL, WALL_TOP), WHITE)
        _box(body, None, (WALL_BACK - PANEL, WALL_BACK), (-half, half),
             (WALL_BOTTOM, WALL_TOP), WHITE)
        for sign in (-1, 1):  # brackets: the cabinet hangs 0.2 m in front of the wall
            _box(body, None, (WALL_BACK, COUNTER_DEPTH), (sign * 0.25 - 0.02, sign * 0.25 + 0.02),
                 (WALL_TOP - 0.06, WALL_TOP), STEEL)

    def _hob(self, body: mujoco.MjsBody) -> None:
        (cx, cy), half = HOB_CENTER, HOB_HALF
        _box(body, "hob", (cx - half, cx + half), (cy - half, cy + half),
             (self.top, self.top + 0.006), DARK)
        for dx in (-0.12, 0.12):
            for dy in (-0.12, 0.12):
                body.add_geom(type=CYLINDER, size=[0.08, 0.0005, 0], contype=0, conaffinity=0,
                              pos=[cx + dx, cy + dy, self.top + 0.0062], rgba=[0.5, 0.1, 0.1, 1])


def _box(body: mujoco.MjsBody, name: str | None, x: Span, y: Span, z: Span, rgba: list[float],
         mass: float | None = None) -> mujoco.MjsGeom:
    """A box geom spanning the given ranges in the body frame."""
    geom = body.add_geom(type=BOX, size=[(x[1] - x[0]) / 2, (y[1] - y[0]) / 2, (z[1] - z[0]) / 2],
                         pos=[(x[0] + x[1]) / 2, (y[0] + y[1]) / 2, (z[0] + z[1]) / 2],
                         rgba=rgba, friction=FRICTION)
    if name:
        geom.name = name
    if mass is not None:
        geom.mass = mass
    return geom


def _add_drawer(parent: mujoco.MjsBody, name: str, z0: float, z1: float) -> None:
    """A drawer: front panel with a bar handle, floor, sides and back, sliding toward
    the robot along local -x by DRAWER_TRAVEL."""
    body = parent.add_body(name=name)
    body.add_joint(name=joint_name(name), type=mujoco.mjtJoint.mjJNT_SLIDE, axis=[-1, 0, 0],
                   range=[0.0, DRAWER_TRAVEL], damping=20.0, armature=0.5, frictionloss=1.0)
    half_y, depth = 0.285, 0.50
    _box(body, f"{name}_front", (-PANEL, 0.0), (-half_y, half_y), (z0 + 0.003, z1 - 0.003),
         WOOD, mass=1.0)
    _box(body, f"{name}_floor", (0.0, depth), (-0.26, 0.26), (z0 + 0.01, z0 + 0.01 + PANEL / 2),
         WHITE, mass=0.6)
    for sign in (-1, 1):
        _box(body, None, (0.0, depth), sorted((sign * 0.26, sign * 0.25)),
             (z0 + 0.01, z1 - 0.03), WHITE, mass=0.3)
    _box(body, None, (depth - PANEL / 2, depth), (-0.25, 0.25), (z0 + 0.01, z1 - 0.03), WHITE,
         mass=0.3)
    z_handle = z1 - 0.05
    body.add_geom(name=f"{name}_handle", type=CAPSULE, size=[0.011, 0.10, 0],
                  pos=[-0.055, 0, z_handle], euler=[np.pi / 2, 0, 0], rgba=STEEL, mass=0.1,
                  friction=FRICTION)
    for sign in (-1, 1):
        _box(body, None, (-0.055, -PANEL), (sign * 0.09 - 0.007, sign * 0.09 + 0.007),
             (z_handle - 0.007, z_handle + 0.007), STEEL, mass=0.02)


def _add_door(parent: mujoco.MjsBody, name: str, hinge: tuple[float, float], width: float,
              z: tuple[float, float], sign: int, rgba: list[float],
              handle_z: float | None = None) -> None:
    """A door hinged on a vertical axis at ``hinge`` (local x, y), extending ``width``
    toward -sign * y when closed and opening 90 degrees toward the robot; a vertical
    bar handle near its free edge."""
    body = parent.add_body(name=name, pos=[hinge[0], hinge[1], 0.0])
    body.add_joint(name=joint_name(name), type=mujoco.mjtJoint.mjJNT_HINGE,
                   axis=[0, 0, -sign], range=[0.0, DOOR_TRAVEL], damping=2.0, armature=0.05,
                   frictionloss=0.3)
    y_free = -sign * width
    _box(body, f"{name}_panel", (-PANEL / 2, PANEL / 2), sorted((0.0, y_free)),
         (z[0] + 0.003, z[1] - 0.003), rgba, mass=1.5)
    y_handle = y_free + sign * 0.04
    zc = handle_z if handle_z is not None else z[1] - 0.12
    body.add_geom(name=f"{name}_handle", type=CAPSULE, size=[0.011, 0.05, 0],
                  pos=[-0.045, y_handle, zc], rgba=STEEL, mass=0.05, friction=FRICTION)
    for dz in (-0.04, 0.04):
        _box(body, None, (-0.045, -PANEL / 2), (y_handle - 0.007, y_handle + 0.007),
             (zc + dz - 0.007, zc + dz + 0.007), STEEL, mass=0.01)


# ----- free props of the kitchen tasks -------------------------------------------------

BOX_HALF = (0.12, 0.12, 0.10)  # m, the 3 kg box
SAUCEPAN_RADIUS, SAUCEPAN_HEIGHT, SAUCEPAN_HANDLE = 0.09, 0.10, 0.10  # m
PAN_RADIUS, PAN_HEIGHT, PAN_HANDLE = 0.12, 0.04, 0.18  # m
SANDWICH_HALF = (0.05, 0.05, 0.015)  # m
SPATULA_BLADE = (0.11, 0.045, 0.004)  # m, the blade's length, half width and thickness
BEVEL_ANGLE = np.radians(10)  # the blade's edge is bevelled from below at this angle,
BLADE_BEVEL = SPATULA_BLADE[2] / np.tan(BEVEL_ANGLE)  # m, over this length (22.7 mm)
BLADE_FRICTION = [0.4, 0.01, 0.001]  # sliding, torsional, rolling: steel on bread and pan
BOARD_HALF = (0.12, 0.17, 0.008)  # m
GROCERIES = {  # name: (kind, half sizes or radius/half height, mass, rgba)
    "can_a": ("can", (0.033, 0.06), 0.35, [0.85, 0.2, 0.15, 1]),
    "can_b": ("can", (0.033, 0.06), 0.35, [0.2, 0.55, 0.25, 1]),
    "cereal": ("box", (0.035, 0.07, 0.11), 0.4, [0.95, 0.75, 0.15, 1]),
    "jar": ("can", (0.04, 0.055), 0.45, [0.55, 0.3, 0.6, 1]),
}


def grocery_half_height(name: str) -> float:
    """Half height of a grocery standing upright (its origin is its centre)."""
    kind, dims, _, _ = GROCERIES[name]
    return dims[1] if kind == "can" else dims[2]


def add_box(spec: mujoco.MjSpec, name: str = "box", mass: float = 3.0) -> None:
    """A cardboard box (free body, 3 kg), origin at its centre."""
    body = free_body(spec, name)
    body.add_geom(name=f"{name}_shell", type=BOX, size=list(BOX_HALF), mass=mass,
                  rgba=[0.7, 0.55, 0.35, 1], friction=FRICTION)


def _add_pot(body: mujoco.MjsBody, name: str, radius: float, height: float, handle: float,
             handle_axis: tuple[float, float], mass: float, rgba: list[float],
             segments: int = 14) -> None:
    """A pot or pan with its origin at the centre of its bottom face: a floor, a wall of
    slabs, and a handle leaving the rim along ``handle_axis`` (local x, y)."""
    wall = 0.004
    body.add_geom(name=f"{name}_floor", type=CYLINDER, size=[radius, wall, 0], pos=[0, 0, wall],
                  rgba=rgba, mass=mass * 0.5, friction=FRICTION)
    chord = 2 * radius * np.tan(np.pi / segments) + 0.002
    for k in range(segments):
        angle = 2 * np.pi * k / segments
        body.add_geom(name=f"{name}_wall{k}", type=BOX, size=[wall, chord / 2, height / 2],
                      pos=[radius * np.cos(angle), radius * np.sin(angle), height / 2],
                      euler=[0, 0, angle], rgba=rgba, mass=mass * 0.3 / segments,
                      friction=FRICTION)
    ax, ay = handle_axis
    centre = radius + handle / 2
    body.add_geom(name=f"{name}_handle", type=CAPSULE, size=[0.012, handle / 2, 0],
                  pos=[ax * centre, ay * centre, height * 0.8],
                  euler=[np.pi / 2, 0, 0] if ay else [0, np.pi / 2, 0], rgba=DARK,
                  mass=mass * 0.2, friction=FRICTION)


def add_saucepan(spec: mujoco.MjSpec, name: str = "saucepan") -> None:
    """A steel saucepan (free body, 0.8 kg), origin at the centre of its bottom face;
    its handle leaves the rim along local +y."""
    _add_pot(free_body(spec, name), name, SAUCEPAN_RADIUS, SAUCEPAN_HEIGHT, SAUCEPAN_HANDLE,
             (0.0, 1.0), 0.8, STEEL)


def add_frying_pan(spec: mujoco.MjSpec, name: str = "pan") -> None:
    """A frying pan (free body, 0.7 kg), origin at the centre of its bottom face; its
    handle leaves the rim along local -x."""
    _add_pot(free_body(spec, name), name, PAN_RADIUS, PAN_HEIGHT, PAN_HANDLE, (-1.0, 0.0), 0.7,
             [0.38, 0.38, 0.42, 1])


def add_spatula(spec: mujoco.MjSpec, name: str = "spatula") -> None:
    """A spatula (free body, 0.1 kg) lying flat: a handle along local -x and a thin,
    wide blade at the +x end; origin at the handle's blade end, on the bottom face.

    The blade (4 mm steel, friction 0.4 against anything: its geoms' ``priority`` makes
    their friction the contact's, where MuJoCo would take the larger of the two) ends in
    an edge bevelled from below over its last BLADE_BEVEL: the edge lies on the top
    face, and held BEVEL_ANGLE or more nose down the edge is what touches a floor. With
    a square 4 mm front face a sandwich's bottom edge met the face, whose normal then
    points down, and the blade climbed over the sandwich instead of sliding under it."""
    body = free_body(spec, name)
    body.add_geom(name=f"{name}_handle", type=CAPSULE, size=[0.011, 0.09, 0],
                  pos=[-0.10, 0, 0.011], euler=[0, np.pi / 2, 0], rgba=DARK, mass=0.06,
                  friction=FRICTION)
    length, half_width, thick = SPATULA_BLADE
    flat = length - BLADE_BEVEL
    body.add_geom(name=f"{name}_blade", type=BOX, size=[flat / 2, half_width, thick / 2],
                  pos=[flat / 2, 0, thick / 2], rgba=STEEL, mass=0.036,
                  friction=BLADE_FRICTION, priority=1)
    edge = spec.add_mesh(name=f"{name}_edge")
    edge.uservert = [v for y in (-half_width, half_width)
                     for v in (flat, y, 0.0, flat, y, thick, length, y, thick)]
    body.add_geom(name=f"{name}_bevel", type=MESH, meshname=f"{name}_edge",
                  rgba=STEEL, mass=0.004, friction=BLADE_FRICTION, priority=1)


def add_sandwich(spec: mujoco.MjSpec, name: str = "sandwich") -> None:
    """A sandwich (free body, 0.1 kg): a flat block, origin at its centre, whose local
    +z face is toasted darker so that a flip shows."""
    body = free_body(spec, name)
    hx, hy, hz = SANDWICH_HALF
    body.add_geom(name=f"{name}_bread", type=BOX, size=[hx, hy, hz], mass=0.1,
                  rgba=[0.93, 0.82, 0.6, 1], friction=FRICTION)
    body.add_geom(type=BOX, size=[hx - 0.004, hy - 0.004, 0.0005], pos=[0, 0, hz],
                  contype=0, conaffinity=0, rgba=[0.6, 0.38, 0.15, 1])


def add_board(spec: mujoco.MjSpec, name: str = "board") -> None:
    """A chopping board (free body, 0.6 kg), origin at its centre."""
    body = free_body(spec, name)
    body.add_geom(name=f"{name}_slab", type=BOX, size=list(BOARD_HALF), mass=0.6,
                  rgba=[0.75, 0.6, 0.4, 1], friction=FRICTION)


def add_grocery(spec: mujoco.MjSpec, name: str) -> None:
    """One of the GROCERIES (free body), origin at its centre, upright along local z."""
    kind, dims, mass, rgba = GROCERIES[name]
    body = free_body(spec, name)
    if kind == "can":
        body.add_geom(name=f"{name}_body", type=CYLINDER, size=[dims[0], dims[1], 0], mass=mass,
                      rgba=rgba, friction=FRICTION)
    else:
        body.add_geom(name=f"{name}_body", type=BOX, size=list(dims), mass=mass, rgba=rgba,
                      friction=FRICTION)


def set_robot_pose(scene: Scene, x: float, y: float, yaw: float) -> None:
    """Move the robot's floating base to (x, y) with heading ``yaw`` (keeping its height
    and stance), at rest; the spawn of an initialization profile."""
    joint = scene.model.joint("floating_base_joint")
    adr, dof = joint.qposadr[0], joint.dofadr[0]
    scene.data.qpos[adr:adr + 2] = [x, y]
    scene.data.qpos[adr + 3:adr + 7] = [np.cos(yaw / 2), 0.0, 0.0, np.sin(yaw / 2)]
    scene.data.qvel[dof:dof + 6] = 0.0

