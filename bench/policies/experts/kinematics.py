"""The experts' own copy of the scene: poses from a world state, arm inverse kinematics.

``Kinematics`` compiles the task's scene (the same model the simulator and the task
monitor use) and is set from each ``WorldState``. Inverse kinematics is damped least
squares on MuJoCo's site Jacobians over one arm's 7 joints, with the rest of the body
(pelvis, legs, waist, the other arm) where the world state has it. Orientation is in
the pinch site's frame: x along the hand (away from the wrist), y across the jaw,
z completing it (up when the hand is level with the jaw horizontal).
"""

from __future__ import annotations

import mujoco
import numpy as np

from bench.robot import constants as c
from bench.sim.session import scene_spec

SIDES = ("left", "right")
ARM_JOINTS = {"left": c.LEFT_ARM, "right": c.RIGHT_ARM}
DAMPING = 0.03  # damped least squares lambda (m or rad)
ROTATION_WEIGHT = 0.3  # m per rad: how much an orientation error counts against position
MAX_STEP = 0.2  # rad, largest joint change per iteration
LIMIT_MARGIN = 0.05  # rad kept away from each joint limit
HAND_HORIZON = 0.1  # m, distances beyond this are not resolved (hand clearance checks)
# The upper arm meets the torso when a shoulder rolls inward further than this (rad; the
# left shoulder's roll is positive outward, the right one's negative outward).
INWARD_ROLL = 0.05


def rotation(x_axis, z_hint=(0.0, 0.0, 1.0)) -> np.ndarray:
    """A rotation matrix whose x axis is ``x_axis`` and whose z axis is as close to
    ``z_hint`` as x allows (columns are the frame's axes in the world)."""
    x = np.asarray(x_axis, float)
    x = x / np.linalg.norm(x)
    z = np.asarray(z_hint, float) - np.dot(z_hint, x) * x
    z = z / np.linalg.norm(z)
    return np.column_stack([x, np.cross(z, x), z])


def rot_x(angle: float) -> np.ndarray:
    """Rotation matrix about the x axis."""
    cos, sin = np.cos(angle), np.sin(angle)
    return np.array([[1.0, 0.0, 0.0], [0.0, cos, -sin], [0.0, sin, cos]])


def rot_z(angle: float) -> np.ndarray:
    """Rotation matrix about the z axis."""
    cos, sin = np.cos(angle), np.sin(angle)
    return np.array([[cos, -sin, 0.0], [sin, cos, 0.0], [0.0, 0.0, 1.0]])


def axis_angle(axis: np.ndarray, angle: float) -> np.ndarray:
    """Rotation matrix of ``angle`` (rad) about the unit vector along ``axis``."""
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    k = np.array([[0.0, -axis[2], axis[1]], [axis[2], 0.0, -axis[0]], [-axis[1], axis[0], 0.0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * k @ k


def rotation_error(target: np.ndarray, current: np.ndarray) -> np.ndarray:
    """World-frame rotation vector taking ``current`` to ``target`` (3x3 matrices)."""
    q_target, q_current, q_err = np.zeros(4), np.zeros(4), np.zeros(4)
    mujoco.mju_mat2Quat(q_target, target.reshape(-1))
    mujoco.mju_mat2Quat(q_current, current.reshape(-1))
    mujoco.mju_negQuat(q_current, q_current)
    mujoco.mju_mulQuat(q_err, q_target, q_current)
    out = np.zeros(3)
    mujoco.mju_quat2Vel(out, q_err, 1.0)
    return out


def _below(model: mujoco.MjModel, body: int, ancestor: int) -> bool:
    """Whether ``body`` is ``ancestor`` or in its subtree."""
    while body > 0:
        if body == ancestor:
            return True
        body = int(model.body_parentid[body])
    return False


class Kinematics:
    """A compiled copy of a task's scene, set from world states."""

    def __init__(self, task: str):
        spec, _ = scene_spec(task, None)
        self.model = spec.compile()
        self.data = mujoco.MjData(self.model)
        self._scratch = mujoco.MjData(self.model)
        m = self.model
        self.qpos_adr = {s: np.array([m.joint(j).qposadr[0] for j in ARM_JOINTS[s]])
                         for s in SIDES}
        self.dof_adr = {s: np.array([m.joint(j).dofadr[0] for j in ARM_JOINTS[s]]) for s in SIDES}
        limits = {s: m.jnt_range[[m.joint(j).id for j in ARM_JOINTS[s]]] for s in SIDES}
        self.low = {s: limits[s][:, 0] + LIMIT_MARGIN for s in SIDES}
        self.high = {s: limits[s][:, 1] - LIMIT_MARGIN for s in SIDES}
        self.low["left"][1] = max(self.low["left"][1], -INWARD_ROLL)
        self.high["right"][1] = min(self.high["right"][1], INWARD_ROLL)
        self.pinch = {s: m.site(c.PINCH_SITES[s]).id for s in SIDES}
        wrist = {s: m.joint(ARM_JOINTS[s][-3]).bodyid[0] for s in SIDES}  # wrist roll
        self.hand_geoms = {s: [g for g in range(m.ngeom) if m.geom_contype[g]
                               and _below(m, int(m.geom_bodyid[g]), int(wrist[s]))]
                           for s in SIDES}
        free = m.joint(c.FREE_JOINT)
        self._base_qpos = int(free.qposadr[0])

    def set_state(self, qpos: np.ndarray) -> None:
        """Take the world's generalized positions and update the poses."""
        self.data.qpos[:] = qpos
        mujoco.mj_kinematics(self.model, self.data)

    # ----- reading poses -----------------------------------------------------------------

    def body_pos(self, body: str) -> np.ndarray:
        """World position of a body."""
        return self.data.xpos[self.model.body(body).id].copy()

    def body_rot(self, body: str) -> np.ndarray:
        """World orientation (3x3) of a body."""
        return self.data.xmat[self.model.body(body).id].reshape(3, 3).copy()

    def pinch_pose(self, side: str) -> tuple[np.ndarray, np.ndarray]:
        """Position and orientation (3x3) of a hand's pinch site."""
        site = self.pinch[side]
        return self.data.site_xpos[site].copy(), self.data.site_xmat[site].reshape(3, 3).copy()

    def arm_q(self, side: str) -> np.ndarray:
        """A hand's 7 arm joint angles in the world state."""
        return self.data.qpos[self.qpos_adr[side]].copy()

    def pelvis_pose(self) -> np.ndarray:
        """Pelvis x, y and yaw."""
        b = self._base_qpos
        w, x, y, z = self.data.qpos[b + 3:b + 7]
        yaw = np.arctan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))
        return np.array([self.data.qpos[b], self.data.qpos[b + 1], yaw])

    def pinch_at(self, side: str, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Position and orientation (3x3) of a hand's pinch site with its arm at ``q``
        (the rest of the body as in the world state)."""
        d = self._posed(side, q)
        site = self.pinch[side]
        return d.site_xpos[site].copy(), d.site_xmat[site].reshape(3, 3).copy()

    def distance(self, side: str, q: np.ndarray, body: str,
                 horizon: float = HAND_HORIZON) -> float:
        """The least distance (m, capped at ``horizon``) between a hand's colliding
        geoms (wrist to pads) with its arm at ``q`` and the geoms of ``body``; negative
        when they overlap."""
        d = self._posed(side, q)
        others = self.body_geoms(body)
        return min((mujoco.mj_geomDistance(self.model, d, g, o, horizon, None)
                    for g in self.hand_geoms[side] for o in others), default=horizon)

    def _posed(self, side: str, q: np.ndarray) -> mujoco.MjData:
        """The scratch data: the world state with ``side``'s arm at ``q``, kinematics
        computed."""
        d = self._scratch
        d.qpos[:] = self.data.qpos
        d.qpos[self.qpos_adr[side]] = q
        mujoco.mj_kinematics(self.model, d)
        return d

    def body_geoms(self, body: str) -> list[int]:
        """The colliding geoms of ``body``."""
        m = self.model
        bid = m.body(body).id
        return [g for g in range(m.ngeom) if m.geom_bodyid[g] == bid and m.geom_contype[g]]

    # ----- inverse kinematics ------------------------------------------------------------

    def solve(self, side: str, pos: np.ndarray, rot: np.ndarray | None, q0: np.ndarray,
              iterations: int = 30, tolerance: float = 1e-4) -> tuple[np.ndarray, float]:
        """Arm angles that put the pinch site at ``pos`` with orientation ``rot`` (a 3x3
        rotation; or a 3-vector the hand should point along, its roll free; or None,
        free), starting from ``q0``; returns them and the remaining weighted error."""
        m, d = self.model, self._scratch
        d.qpos[:] = self.data.qpos
        adr, dofs, site = self.qpos_adr[side], self.dof_adr[side], self.pinch[side]
        q = np.clip(np.asarray(q0, float), self.low[side], self.high[side])
        jacp, jacr = np.zeros((3, m.nv)), np.zeros((3, m.nv))
        error = np.inf
        for _ in range(iterations):
            d.qpos[adr] = q
            mujoco.mj_kinematics(m, d)
            mujoco.mj_comPos(m, d)
            err = pos - d.site_xpos[site]
            jac = jacp
            mujoco.mj_jacSite(m, d, jacp, jacr, site)
            if rot is not None:
                current = d.site_xmat[site].reshape(3, 3)
                if rot.shape == (3,):  # pointing only: no error or motion about the x axis
                    x = current[:, 0]
                    turn = np.cross(x, rot / np.linalg.norm(rot))
                    angular = (np.eye(3) - np.outer(x, x)) @ jacr
                else:
                    turn, angular = rotation_error(rot, current), jacr
                err = np.concatenate([err, ROTATION_WEIGHT * turn])
                jac = np.vstack([jacp, ROTATION_WEIGHT * angular])
            error = float(np.linalg.norm(err))
            if error < tolerance:
                break
            j = jac[:, dofs]
            step = j.T @ np.linalg.solve(j @ j.T + DAMPING ** 2 * np.eye(len(err)), err)
            step *= min(1.0, MAX_STEP / max(float(np.abs(step).max()), 1e-12))
            q = np.clip(q + step, self.low[side], self.high[side])
        return q, error
