"""Props built from MuJoCo primitives, written here for bench.

Everything a reset randomizes is a free body, so that its pose lives in qpos and the
task monitor can rebuild the scene from the world state alone. Fixed furniture
(tables) is static. Dimensions are metres, masses kilograms.
"""

from __future__ import annotations

import mujoco
import numpy as np

BOX = mujoco.mjtGeom.mjGEOM_BOX
CYLINDER = mujoco.mjtGeom.mjGEOM_CYLINDER
CAPSULE = mujoco.mjtGeom.mjGEOM_CAPSULE
SPHERE = mujoco.mjtGeom.mjGEOM_SPHERE
ELLIPSOID = mujoco.mjtGeom.mjGEOM_ELLIPSOID
MESH = mujoco.mjtGeom.mjGEOM_MESH

TABLE_TOP = 0.70  # m, height of every table top
PAD_HALF, PAD_HALF_THICKNESS = 0.06, 0.003  # m, the square pad blocks are stacked on
TABLE_LEG_INSET = 0.04  # m, a table leg's middle this far inside the top's corner
TABLE_LEG_HALF = 0.025  # m, half a (square) leg's width
WOOD = [0.55, 0.42, 0.3, 1]
WHITE = [0.92, 0.92, 0.9, 1]
STEEL = [0.7, 0.72, 0.75, 1]
FRICTION = [1.0, 0.01, 0.001]
# Cups of every scene. BiGym-G1 adapts its scenes to the Dex1-1, whose jaw opens 7.6 cm:
# this cup is 7.0 cm across its outer wall, so it can be gripped across.
CUP_RADIUS = 0.031  # m, to the middle of the wall
CUP_HEIGHT = 0.09  # m
CUP_MASS = 0.15  # kg
CUP_WALL = 0.004  # m, half the wall thickness


def free_body(spec: mujoco.MjSpec, name: str, pos=(0.0, 0.0, 0.0)) -> mujoco.MjsBody:
    """A body with a free joint named ``<name>_free``."""
    body = spec.worldbody.add_body(name=name, pos=list(pos))
    body.add_freejoint(name=f"{name}_free")
    return body


def add_table(spec: mujoco.MjSpec, name: str, center: tuple[float, float],
              half_size: tuple[float, float], top: float = TABLE_TOP) -> None:
    """A static table: a top (geom ``<name>_top``) on four legs."""
    body = spec.worldbody.add_body(name=name, pos=[center[0], center[1], 0.0])
    thickness = 0.02
    body.add_geom(name=f"{name}_top", type=BOX, size=[*half_size, thickness],
                  pos=[0, 0, top - thickness], rgba=WOOD, friction=FRICTION)
    leg = [TABLE_LEG_HALF, TABLE_LEG_HALF, (top - 2 * thickness) / 2]
    for sx in (-1, 1):
        for sy in (-1, 1):
            body.add_geom(type=BOX, size=leg, rgba=WOOD,
                          pos=[sx * (half_size[0] - TABLE_LEG_INSET),
                               sy * (half_size[1] - TABLE_LEG_INSET), leg[2]])


def add_rack(spec: mujoco.MjSpec, name: str, slots: int = 6, pitch: float = 0.035) -> None:
    """A draining rack (free body, 1.5 kg): a base, two cradle bars along y that hold a
    plate's rim, and ``slots + 1`` dividers spaced ``pitch`` apart along y."""
    body = free_body(spec, name)
    width = slots * pitch / 2 + 0.015
    body.add_geom(name=f"{name}_base", type=BOX, size=[0.09, width, RACK_BASE_HALF],
                  rgba=STEEL, mass=1.0, friction=FRICTION)
    for sx in (-1, 1):
        body.add_geom(name=f"{name}_cradle{'ab'[sx > 0]}", type=CAPSULE,
                      size=[CRADLE_R, width, 0], pos=[sx * CRADLE_X, 0, CRADLE_Z],
                      euler=[np.pi / 2, 0, 0], rgba=STEEL, mass=0.1)
    for k in range(slots + 1):
        y = (k - slots / 2) * pitch
        body.add_geom(name=f"{name}_divider{k}", type=BOX, size=[0.07, 0.003, 0.035],
                      pos=[0, y, 0.043], rgba=STEEL, mass=0.04)


def rack_slot_offsets(slots: int = 6, pitch: float = 0.035) -> np.ndarray:
    """Slot centres (y offsets) of a rack, in its frame."""
    return (np.arange(slots) - (slots - 1) / 2) * pitch


RACK_BASE_HALF = 0.008  # m, rack origin above the surface it stands on
CRADLE_X, CRADLE_Z, CRADLE_R = 0.06, 0.016, 0.008  # m, cradle bars in the rack frame
PLATE_RADIUS = 0.11  # m
# Plate centre above the rack origin when its rim rests on both cradle bars.
RACK_PLATE_HEIGHT = CRADLE_Z + float(np.sqrt((PLATE_RADIUS + CRADLE_R) ** 2 - CRADLE_X ** 2))


def add_plate(spec: mujoco.MjSpec, name: str, radius: float = PLATE_RADIUS) -> None:
    """A plate (free body, 0.3 kg): a thin disc whose top face normal is its local +z."""
    body = free_body(spec, name)
    body.add_geom(name=f"{name}_disc", type=CYLINDER, size=[radius, 0.006, 0], rgba=WHITE,
                  mass=0.3, friction=FRICTION)


def add_cup(spec: mujoco.MjSpec, name: str, radius: float, height: float, mass: float,
            rgba: list[float], handle: bool = False, segments: int = 12) -> None:
    """An open cup or mug (free body): a bottom disc and a wall of ``segments`` slabs,
    origin at its geometric centre, opening toward local +z; optionally a handle."""
    body = free_body(spec, name)
    half = height / 2
    wall = CUP_WALL
    body.add_geom(name=f"{name}_bottom", type=CYLINDER, size=[radius, wall, 0],
                  pos=[0, 0, -half + wall], rgba=rgba, mass=mass * 0.4, friction=FRICTION)
    chord = 2 * radius * np.tan(np.pi / segments) + 0.002
    for k in range(segments):
        angle = 2 * np.pi * k / segments
        body.add_geom(name=f"{name}_wall{k}", type=BOX, size=[wall, chord / 2, half],
                      pos=[radius * np.cos(angle), radius * np.sin(angle), 0],
                      euler=[0, 0, angle], rgba=rgba, mass=mass * 0.6 / segments,
                      friction=FRICTION)
    if handle:
        body.add_geom(name=f"{name}_handle", type=BOX, size=[0.02, 0.006, half * 0.6],
                      pos=[radius + 0.02, 0, 0], rgba=rgba, mass=0.02)


def add_spoon(spec: mujoco.MjSpec, name: str) -> None:
    """A spoon (free body, 40 g): a handle along local z and a bowl at the +z end, so
    "pointing up" means local +z up. Origin at the handle's middle."""
    body = free_body(spec, name)
    body.add_geom(name=f"{name}_handle", type=CAPSULE, size=[0.005, 0.07, 0], rgba=STEEL,
                  mass=0.03, friction=FRICTION)
    body.add_geom(name=f"{name}_bowl", type=ELLIPSOID, size=[0.017, 0.008, 0.024],
                  pos=[0, 0, 0.09], rgba=STEEL, mass=0.01, friction=FRICTION)


def add_block(spec: mujoco.MjSpec, name: str, rgba: list[float], half: float = 0.025) -> None:
    """A cube (free body, 0.1 kg)."""
    body = free_body(spec, name)
    body.add_geom(name=f"{name}_box", type=BOX, size=[half] * 3, rgba=rgba, mass=0.1,
                  friction=FRICTION)


def add_pad(spec: mujoco.MjSpec, name: str) -> None:
    """A thin green pad (free body, 0.2 kg) to stack on."""
    body = free_body(spec, name)
    body.add_geom(name=f"{name}_mat", type=BOX, size=[PAD_HALF, PAD_HALF, PAD_HALF_THICKNESS],
                  rgba=[0.1, 0.75, 0.25, 1], mass=0.2, friction=FRICTION)


def add_target(spec: mujoco.MjSpec, name: str, rgba: list[float], radius: float = 0.05) -> None:
    """A floating, non-colliding target ball (free body with gravity compensation)."""
    body = free_body(spec, name)
    body.gravcomp = 1.0
    body.add_geom(name=f"{name}_ball", type=SPHERE, size=[radius, 0, 0], rgba=rgba,
                  contype=0, conaffinity=0, mass=0.01)
