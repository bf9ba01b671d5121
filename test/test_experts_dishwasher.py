"""Dishwasher experts: every dishwasher benchmark task has an expert or a stated reason,
and the reason given for dishwasher_close (the open door is out of a standing G1's
reach) holds in the scene as built."""

from __future__ import annotations

import itertools

import mujoco
import numpy as np
import pytest

from bench.env import make
from bench.policies.experts import EXPERTS, PENDING, dishwasher, expert
from bench.policies.experts.kinematics import SIDES, Kinematics
from bench.tasks import BENCHMARK_TASKS
from bench.tasks import dishwasher_scene as ds

DISHWASHER_TASKS = sorted(t for t in BENCHMARK_TASKS if t.startswith("dishwasher_"))
FINGERTIP = 0.03  # m, the closed fingers' tips beyond the pinch site


def test_the_four_dishwasher_tasks_each_have_an_expert_or_a_reason():
    assert DISHWASHER_TASKS == ["dishwasher_close", "dishwasher_load_cups",
                                "dishwasher_load_cutlery", "dishwasher_load_plates"]
    for task in DISHWASHER_TASKS:
        if task in EXPERTS:
            assert task not in PENDING
        else:
            assert PENDING[task] == dishwasher.PENDING[task]
            with pytest.raises(ValueError, match=f"no scripted expert for '{task}'"):
                expert(task)


def _lowest_pinch(kin: Kinematics, side: str) -> float:
    """The lowest height the side's pinch site reaches from the current stance, aiming
    at floor points on a grid in front of and beside the pelvis."""
    px, py, _ = kin.pelvis_pose()
    sign = 1.0 if side == "left" else -1.0
    scratch = mujoco.MjData(kin.model)
    lowest = np.inf
    for dx, dy in itertools.product((0.0, 0.1, 0.2, 0.3, 0.4), (0.0, 0.1, 0.2, 0.3, 0.4)):
        q, _ = kin.solve(side, np.array([px + dx, py + sign * dy, 0.0]), None,
                         kin.arm_q(side), iterations=200)
        scratch.qpos[:] = kin.data.qpos
        scratch.qpos[kin.qpos_adr[side]] = q
        mujoco.mj_kinematics(kin.model, scratch)
        lowest = min(lowest, float(scratch.site_xpos[kin.pinch[side]][2]))
    return lowest


def test_the_open_door_is_below_what_a_standing_g1_reaches():
    env = make("dishwasher_close", camera_keys=())
    try:
        env.reset(seed=620000)
        kin = Kinematics("dishwasher_close")
        kin.set_state(env.world.data.qpos)
        handle = env.world.model.geom("door_handle")
        handle_top = float(env.world.data.geom_xpos[handle.id][2] + handle.size[0])
    finally:
        env.close()
    lowest = min(_lowest_pinch(kin, side) for side in SIDES)
    # the docstring's figure, and the gap that keeps the fingertips off the door's
    # underside (the hinge plane) and its handle
    assert abs(lowest - 0.52) < 0.03, lowest
    assert lowest - FINGERTIP > max(ds.HINGE_Z, handle_top) + 0.05, (lowest, handle_top)
