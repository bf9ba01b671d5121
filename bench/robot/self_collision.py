"""Kinematic self-collision checks for arm poses.

The G1's joint limits admit arm poses inside its own body: a shoulder roll of +0.7 rad
on the right arm drives the upper arm into the torso. Commanding such a pose does not
move the arm there; the PD servo presses it against the torso with up to ~50 N m,
which shakes the standing robot (docs/wbc.md). These checks tell such poses apart
without touching the simulation: they pose a scratch copy of the robot and ask
MuJoCo's collision pipeline which arm geoms touch the rest of the robot or the other
arm. Contacts with the floor and with scene props do not count.
"""

from __future__ import annotations

import mujoco
import numpy as np

from bench.robot import constants as c

ARM_ROOTS = {side: f"{side}_shoulder_pitch_link" for side in c.GRIPPER_SIDES}
PATH_STEP = 0.05  # rad, largest joint change between two checked poses along a path


def _subtree(model: mujoco.MjModel, root: int) -> set[int]:
    """Body ids of ``root`` and everything below it."""
    bodies = {root}
    for body in range(root + 1, model.nbody):
        if model.body_parentid[body] in bodies:
            bodies.add(body)
    return bodies


class ArmCollisionChecker:
    """Whether arm poses put an arm into the robot's own body or into the other arm."""

    def __init__(self, model: mujoco.MjModel):
        self.model = model
        self.data = mujoco.MjData(model)
        self.arm_qpos = np.array([model.joint(j).qposadr[0] for j in c.ARMS])
        arms = {side: _subtree(model, model.body(root).id) for side, root in ARM_ROOTS.items()}
        self.side_of = {body: side for side, bodies in arms.items() for body in bodies}
        robot = _subtree(model, model.body(c.PELVIS_BODY).id)
        self.robot = robot

    def _touching(self) -> list[tuple[str, str]]:
        m, d = self.model, self.data
        pairs = []
        for contact in d.contact[:d.ncon]:
            if contact.dist >= 0.0:
                continue
            b1, b2 = m.geom_bodyid[contact.geom1], m.geom_bodyid[contact.geom2]
            if b1 not in self.robot or b2 not in self.robot:
                continue
            s1, s2 = self.side_of.get(b1), self.side_of.get(b2)
            if s1 != s2:  # an arm against the body or against the other arm
                pairs.append((m.body(b1).name, m.body(b2).name))
        return pairs

    def contacts(self, qpos: np.ndarray, arm_angles: np.ndarray) -> list[tuple[str, str]]:
        """The (body, body) pairs in contact when the robot in ``qpos`` moves its 14 arm
        joints (Unitree order, left then right) to ``arm_angles``."""
        self.data.qpos[:] = qpos
        self.data.qpos[self.arm_qpos] = arm_angles
        mujoco.mj_kinematics(self.model, self.data)
        mujoco.mj_collision(self.model, self.data)
        return self._touching()

    def collides(self, qpos: np.ndarray, arm_angles: np.ndarray) -> bool:
        """True when an arm touches the robot's body or the other arm in this pose."""
        return bool(self.contacts(qpos, arm_angles))

    def path_collides(self, qpos: np.ndarray, start: np.ndarray, goal: np.ndarray) -> bool:
        """True when any pose on the straight joint-space line from ``start`` to ``goal``
        (checked every PATH_STEP rad of the largest joint change) collides."""
        steps = max(1, int(np.ceil(np.abs(goal - start).max() / PATH_STEP)))
        return any(self.collides(qpos, start + (goal - start) * k / steps)
                   for k in range(1, steps + 1))
