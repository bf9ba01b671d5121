"""The Task base class and the Scene view that tasks and the monitor evaluate.

A task is one small class: ``build`` adds its props to the scene spec, ``reset``
places them from the episode's random generator, ``clauses`` evaluates each clause of
the success condition by name (success is all of them), and ``fail`` reports the
fail-fast condition. Everything ``reset`` randomizes lives in qpos, so a monitor
holding its own copy of the model can rebuild the scene from the world state alone.
"""

from __future__ import annotations

from functools import cached_property

import mujoco
import numpy as np

from bench import predicates as pred
from bench.robot import constants as c


class Scene:
    """Read access to a compiled scene (after mj_forward) by body and geom names."""

    def __init__(self, model: mujoco.MjModel, data: mujoco.MjData):
        self.model = model
        self.data = data

    def geoms(self, *bodies: str) -> set[int]:
        """Collision geom ids of the named bodies."""
        out: set[int] = set()
        for body in bodies:
            out |= self._geoms(body)
        return out

    def _geoms(self, body: str) -> set[int]:
        cache = self.__dict__.setdefault("_geom_cache", {})
        if body not in cache:
            cache[body] = pred.body_geoms(self.model, body)
        return cache[body]

    def geom(self, name: str) -> set[int]:
        """The id of one named geom, as a set."""
        return {self.model.geom(name).id}

    @cached_property
    def pads(self) -> set[int]:
        """All gripper pad geoms, both hands."""
        return {self.model.geom(p).id for side in c.GRIPPER_SIDES for p in c.GRIPPER_PADS[side]}

    @cached_property
    def floor(self) -> set[int]:
        """The floor geom."""
        return {self.model.geom("floor").id}

    def pos(self, body: str) -> np.ndarray:
        """World position of a body."""
        return self.data.xpos[self.model.body(body).id].copy()

    def quat(self, body: str) -> np.ndarray:
        """World orientation (w x y z) of a body."""
        return self.data.xquat[self.model.body(body).id].copy()

    def site(self, name: str) -> np.ndarray:
        """World position of a site."""
        return self.data.site_xpos[self.model.site(name).id].copy()

    def touches(self, a: set[int], b: set[int]) -> bool:
        """Any contact between the two geom sets."""
        return pred.touches(self.data, a, b)

    def held(self, *bodies: str) -> bool:
        """A gripper pad touches any of the bodies."""
        return pred.held(self.data, self.pads, self.geoms(*bodies))

    def set_free_pose(self, body: str, pos, quat=(1.0, 0.0, 0.0, 0.0)) -> None:
        """Write a free body's pose into qpos (and zero its velocity)."""
        joint = self.model.joint(f"{body}_free")
        adr, dof = joint.qposadr[0], joint.dofadr[0]
        self.data.qpos[adr:adr + 7] = [*pos, *quat]
        self.data.qvel[dof:dof + 6] = 0.0


def yaw_quat(yaw: float) -> np.ndarray:
    """Quaternion (w x y z) of a rotation about the world z axis."""
    return np.array([np.cos(yaw / 2), 0.0, 0.0, np.sin(yaw / 2)])


def quat_mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton product a * b of two w x y z quaternions."""
    out = np.zeros(4)
    mujoco.mju_mulQuat(out, np.asarray(a, float), np.asarray(b, float))
    return out


FLIP_X = np.array([0.0, 1.0, 0.0, 0.0])  # 180 degrees about x: upside down


class Task:
    """Base class: a scene, a seeded reset, success clauses and a fail-fast check."""

    name = ""
    initialization_profile = "upstream"  # the config's, set by the session

    def build(self, spec: mujoco.MjSpec) -> None:
        """Add the task's props to the scene spec."""

    def reset(self, scene: Scene, rng: np.random.Generator) -> None:
        """Place the props for a new episode, drawing only from ``rng``."""

    def clauses(self, scene: Scene) -> dict[str, bool]:
        """Each clause of the success condition, by name."""
        return {}

    def success(self, scene: Scene) -> bool:
        """The success predicate: every clause holds (and there is at least one)."""
        values = self.clauses(scene)
        return bool(values) and all(values.values())

    def fail(self, scene: Scene) -> str | None:
        """The fail-fast condition: a reason when met, else None."""
        return None

    def hold_through_warmup(self, scene: Scene) -> None:
        """After each control step of the reset warmup, restore what the task's
        initialization holds still (g1_id_v1's top drawer); by default nothing."""

    def metrics(self, scene: Scene) -> dict[str, float]:
        """Per-step metrics; by default each clause as 0/1."""
        return {name: float(value) for name, value in self.clauses(scene).items()}
