"""Small pure predicates on a MuJoCo scene, from which task success conditions are built.

Each takes the model and data (after mj_forward) and names or ids; none keeps state.
"""

from __future__ import annotations

from collections.abc import Iterable

import mujoco
import numpy as np

UP = np.array([0.0, 0.0, 1.0])


def body_geoms(model: mujoco.MjModel, body: str) -> set[int]:
    """Ids of the collision geoms attached to a body (not its descendants)."""
    body_id = model.body(body).id
    return {g for g in range(model.ngeom) if model.geom_bodyid[g] == body_id
            and model.geom_contype[g] | model.geom_conaffinity[g]}


def contact_pairs(data: mujoco.MjData) -> set[tuple[int, int]]:
    """Unordered geom pairs in contact (penetrating or touching)."""
    pairs = set()
    for i in range(data.ncon):
        con = data.contact[i]
        if con.dist <= 1e-4:
            pairs.add((min(con.geom1, con.geom2), max(con.geom1, con.geom2)))
    return pairs


def touches(data: mujoco.MjData, a: Iterable[int], b: Iterable[int]) -> bool:
    """True when any geom of ``a`` is in contact with any geom of ``b``."""
    set_a, set_b = set(a), set(b)
    return any((g1 in set_a and g2 in set_b) or (g1 in set_b and g2 in set_a)
               for g1, g2 in contact_pairs(data))


def held(data: mujoco.MjData, pads: Iterable[int], obj: Iterable[int]) -> bool:
    """Held: a gripper pad touches the object."""
    return touches(data, pads, obj)


def released(data: mujoco.MjData, pads: Iterable[int], obj: Iterable[int]) -> bool:
    """Released: no gripper pad touches the object."""
    return not held(data, pads, obj)


def axis_in_world(quat_wxyz: np.ndarray, local_axis: np.ndarray | list[float]) -> np.ndarray:
    """A body-frame axis expressed in the world frame."""
    mat = np.zeros(9)
    mujoco.mju_quat2Mat(mat, np.asarray(quat_wxyz, float))
    return mat.reshape(3, 3) @ np.asarray(local_axis, float)


def angle_deg(a: np.ndarray, b: np.ndarray) -> float:
    """Angle in degrees between two vectors."""
    cos = float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))
    return float(np.degrees(np.arccos(np.clip(cos, -1.0, 1.0))))


def upright_within(quat_wxyz: np.ndarray, deg: float, axis: np.ndarray = UP) -> bool:
    """The body's ``axis`` (default local z) points up within ``deg`` degrees."""
    return angle_deg(axis_in_world(quat_wxyz, axis), UP) <= deg


def points_down_within(quat_wxyz: np.ndarray, deg: float, axis: np.ndarray = UP) -> bool:
    """The body's ``axis`` (default local z) points down within ``deg`` degrees."""
    return angle_deg(axis_in_world(quat_wxyz, axis), -UP) <= deg


def on_edge_within(quat_wxyz: np.ndarray, deg: float, normal: np.ndarray = UP) -> bool:
    """A flat object (face normal ``normal`` in its frame) stands on edge: its normal is
    horizontal within ``deg`` degrees."""
    return abs(90.0 - angle_deg(axis_in_world(quat_wxyz, normal), UP)) <= deg


def facing(quat_wxyz: np.ndarray, direction: np.ndarray, deg: float,
           normal: np.ndarray = UP) -> bool:
    """The object's face normal points along the world ``direction`` within ``deg``."""
    return angle_deg(axis_in_world(quat_wxyz, normal), direction) <= deg


def inside_ball(point: np.ndarray, center: np.ndarray, radius: float) -> bool:
    """The point lies within ``radius`` of ``center``."""
    return float(np.linalg.norm(np.asarray(point) - np.asarray(center))) <= radius


def horizontal_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Distance between two points in the x-y plane."""
    return float(np.linalg.norm(np.asarray(a)[:2] - np.asarray(b)[:2]))
