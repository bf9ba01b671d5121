"""The reach facts behind the pending reasons of bench.policies.experts.kitchen_items:
pick_box and saucepan_to_hob put what the hands must take out of reach at the fixed
standing height, and in reach with the torso pitched forward. Inverse kinematics on
the experts' own copy of the scene, set from each task's reset (no stepping)."""

from __future__ import annotations

import numpy as np
import pytest

from bench.env import make
from bench.policies.experts import EXPERTS, PENDING, kitchen_items
from bench.policies.experts.kinematics import SIDES, Kinematics
from bench.policies.experts.script import KEYFRAME_ARMS
from bench.policies.oracle import env_world_state

LEAN = 0.5  # rad, torso pitch that brings the targets into reach
REACHED = 0.005  # m, inverse-kinematics error counted as reached
OUT_OF_REACH = 0.05  # m


def reset_state(task: str, seed: int) -> tuple[Kinematics, np.ndarray]:
    """The experts' kinematics of ``task`` and the world state of ``seed``'s reset."""
    env = make(task, camera_keys=())
    try:
        env.reset(seed=seed)
        qpos = env_world_state(env, seed).qpos.copy()
    finally:
        env.close()
    kin = Kinematics(task)
    kin.set_state(qpos)
    return kin, qpos


def pose(kin: Kinematics, qpos: np.ndarray, x: float, y: float, pitch: float) -> None:
    """Stand the pelvis at (x, y) facing +x, the waist pitched ``pitch``."""
    qpos = qpos.copy()
    base = kin.model.joint("floating_base_joint").qposadr[0]
    qpos[base:base + 2] = x, y
    qpos[base + 3:base + 7] = 1.0, 0.0, 0.0, 0.0
    qpos[kin.model.joint("waist_pitch_joint").qposadr[0]] = pitch
    kin.set_state(qpos)


def ik_error(kin: Kinematics, side: str, target: np.ndarray) -> float:
    """The pinch site's remaining distance to ``target`` (position only)."""
    return kin.solve(side, target, None, KEYFRAME_ARMS[side], iterations=300)[1]


def test_kitchen_items_tasks_are_pending_with_reasons():
    for task in ("pick_box", "saucepan_to_hob", "sandwich_remove"):
        assert task not in EXPERTS
        assert PENDING[task] == kitchen_items.PENDING[task]
        assert len(PENDING[task]) > 40


@pytest.mark.parametrize("pitch, reachable", [(0.0, False), (LEAN, True)])
def test_pick_box_side_faces_need_the_torso_pitch(pitch, reachable):
    """From where the embedded WBC's walk stalls before the side table (pelvis x 0.29,
    measured on seed 620000), the fists' places either side of the box at mid-height."""
    kin, qpos = reset_state("pick_box", 620000)
    centre = kin.body_pos("box")
    pose(kin, qpos, 0.29, centre[1], pitch)
    for side, sign in zip(SIDES, (1.0, -1.0), strict=True):
        error = ik_error(kin, side, centre + np.array([0.0, sign * 0.15, 0.0]))
        assert (error < REACHED) if reachable else (error > OUT_OF_REACH), (side, error)


@pytest.mark.parametrize("pitch, reachable", [(0.0, False), (LEAN, True)])
def test_saucepan_handle_needs_the_torso_pitch(pitch, reachable):
    """The saucepan's handle on the cabinet shelf, from 0.15 m before the cabinet front
    (x 0.84), for the nearer hand."""
    for seed in (620000, 620001, 620002):
        kin, qpos = reset_state("saucepan_to_hob", seed)
        handle = kin.data.geom_xpos[kin.model.geom("saucepan_handle").id].copy()
        pose(kin, qpos, 0.69, handle[1], pitch)
        error = min(ik_error(kin, side, handle) for side in SIDES)
        assert (error < REACHED) if reachable else (error > OUT_OF_REACH), (seed, error)
