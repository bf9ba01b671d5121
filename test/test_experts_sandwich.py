"""The sandwich_remove draft (bench/policies/experts/sandwich.py): its registration, its
blade geometry, and the reach from its stance that the script relies on."""

from __future__ import annotations

import numpy as np
import pytest

from bench.env import make
from bench.policies import experts
from bench.policies.experts import kitchen_items, sandwich
from bench.policies.experts.kinematics import rot_x
from bench.policies.experts.sandwich import (
    ENTRY,
    ENTRY_PITCH,
    GRIP_ABOVE,
    HEADING,
    JAW_ROLL,
    LIFT,
    REGRIP_AT,
    STANCE,
    TIP,
    WALL_GAP,
    SandwichRemove,
    spatula_rotation,
    up,
)
from bench.policies.experts.script import KEYFRAME_ARMS

REACHED = 0.005  # m (and weighted rad), inverse-kinematics error counted as reached
TASK = "sandwich_remove"


def test_sandwich_remove_is_a_pending_draft() -> None:
    assert TASK in sandwich.DRAFTS and TASK in sandwich.PENDING
    assert TASK not in experts.EXPERTS
    assert TASK not in kitchen_items.PENDING  # one module's PENDING only
    assert isinstance(experts.draft(TASK), SandwichRemove)


def test_spatula_rotation_points_the_blade_down_along_the_heading() -> None:
    rot = spatula_rotation(np.radians(30), np.radians(20))
    assert np.allclose(rot @ rot.T, np.eye(3))
    x = rot[:, 0]
    assert np.isclose(np.degrees(np.arcsin(-x[2])), 20.0)
    assert np.isclose(np.degrees(np.arctan2(x[1], x[0])), 30.0)
    assert np.isclose(rot[2, 1], 0.0)  # the blade's width stays level


@pytest.fixture(scope="module")
def at_stance() -> SandwichRemove:
    """The draft's kinematics set from seed 620000's reset with the pelvis at STANCE."""
    env = make(TASK, camera_keys=())
    env.reset(seed=620000)
    expert = SandwichRemove(TASK)
    qpos = env.world.data.qpos.copy()
    base = expert.kin.model.joint("floating_base_joint").qposadr[0]
    qpos[base:base + 2] = STANCE
    qpos[base + 3:base + 7] = [1.0, 0.0, 0.0, 0.0]
    expert.kin.set_state(qpos)
    env.close()
    return expert


def test_handle_grasp_straddles_the_handle(at_stance: SandwichRemove) -> None:
    pos, rot = at_stance.handle_grasp()
    axis = at_stance.geom_pos("spatula_handle")
    assert np.isclose(pos[2] - axis[2], GRIP_ABOVE)
    spatula_x = at_stance.kin.body_rot("spatula")[:, 0]
    assert rot[:, 0] @ spatula_x > 0.99  # the hand points along the spatula
    assert abs(rot[2, 1]) < 1e-9  # the jaw is horizontal


def test_right_hand_reaches_grasp_and_scoop_from_the_stance(at_stance: SandwichRemove) -> None:
    """From STANCE the right hand reaches the handle grasp and, holding the spatula with
    the upright jaw of the regrasp, the blade poses of the way in and of the scoop's end
    (each solved on from the previous one's arm, as the arm tracks)."""
    expert = at_stance
    q0 = expert.arm["right"]
    pos, rot = expert.handle_grasp()
    assert expert.kin.solve("right", pos, rot, q0, iterations=200)[1] < REACHED
    centre = expert.kin.body_pos("sandwich")
    floor = expert.pan_floor()
    ahead = np.array([np.cos(HEADING), np.sin(HEADING), 0.0])
    start = np.array([*(centre - ENTRY * ahead)[:2], floor])
    end = np.array([*expert.far_wall(centre, ahead)[:2], floor])
    upright = np.array([REGRIP_AT, 0.0, 0.011]), rot_x(JAW_ROLL)  # the grip after the regrasp
    q0 = KEYFRAME_ARMS["right"]  # the regrasp's joint-space move starts the chain
    errors = []
    for tip, pitch in ((start + up(LIFT), ENTRY_PITCH), (start, ENTRY_PITCH),
                       (end, np.radians(10)), (end + up(LIFT), 0.0)):
        target = expert.blade(upright, tip, HEADING, pitch)["right"]
        for _ in range(3):  # on from the previous pose's solution, as the arm tracks
            q0, error = expert.kin.solve("right", *target, q0, iterations=200)
        errors.append(error)
    assert max(errors) < REACHED, errors
    assert np.allclose(TIP, [0.11, 0.0, 0.0])


def test_scoop_ends_before_the_far_wall(at_stance: SandwichRemove) -> None:
    """The scoop's end lies on the line through the sandwich's centre, WALL_GAP inside
    the pan wall's inner face."""
    centre = at_stance.kin.body_pos("sandwich")
    ahead = np.array([np.cos(HEADING), np.sin(HEADING), 0.0])
    end = at_stance.far_wall(centre, ahead)
    pan = at_stance.kin.body_pos("pan")
    inner = 0.12 - 0.004  # ks.PAN_RADIUS less half a wall slab
    assert np.isclose(np.linalg.norm((end - pan)[:2]), inner - WALL_GAP)
    along = (end - centre) @ ahead
    assert along > 0.0 and np.allclose(end - centre, along * ahead)
