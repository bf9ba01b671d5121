"""flip_cutlery's expert: the spoon as the reset leaves it (leaning on the rim, only
its bowl clear of the mug), the hand and the grasp the expert takes it with, and its
registration (test_experts runs it on two seeds)."""

from __future__ import annotations

import numpy as np
import pytest

from bench.env import make
from bench.policies.experts import DRAFTS, EXPERTS, PENDING, cutlery, expert, tabletop
from bench.policies.oracle import env_world_state
from bench.tasks.tabletop import MUG_RADIUS

SEEDS = (620000, 620001, 620002, 620005)  # 620005: the one the left hand takes


def at_stance(policy) -> str:
    """Put the policy's copy of the robot where stand_before walks it for the bowl
    (the keyframe's height and heading), the working hand's arm at the ready pose the
    script raises it to first; returns that hand's side."""
    kin = policy.kin
    bowl = policy.spoon_point(cutlery.GRIP_AT)
    side = policy.working_hand()
    qpos = kin.data.qpos.copy()
    qpos[kin._base_qpos] = min(bowl[0] - tabletop.STANCE_REACH, tabletop.STANCE_LIMIT)
    qpos[kin._base_qpos + 1] = bowl[1] - tabletop.side_sign(side) * tabletop.STANCE_ASIDE
    kin.set_state(qpos)
    policy.arm[side] = kin.solve(side, *policy.ready_pose(side), policy.arm[side])[0]
    return side


@pytest.fixture(scope="module")
def settled():
    """The expert fed the reset world state of each seed."""
    env = make("flip_cutlery", camera_keys=())
    out = []
    try:
        for seed in SEEDS:
            env.reset(seed=seed)
            policy = cutlery.FlipCutlery("flip_cutlery")
            policy.observe_world(env_world_state(env, seed))
            out.append(policy)
    finally:
        env.close()
    return out


def test_flip_cutlery_is_an_expert():
    assert EXPERTS["flip_cutlery"] is cutlery.FlipCutlery
    assert "flip_cutlery" not in DRAFTS and "flip_cutlery" not in PENDING
    assert isinstance(expert("flip_cutlery"), cutlery.FlipCutlery)


def test_the_spoon_leans_on_the_rim_with_only_its_bowl_clear(settled):
    for policy in settled:
        kin = policy.kin
        tilt = np.degrees(np.arccos(policy.spoon_axis()[2]))
        assert 30.0 < tilt < 45.0, tilt
        mug = kin.body_pos("mug")
        bowl = policy.spoon_point(cutlery.GRIP_AT)
        # the grasped point is beyond the mug's wall and above its rim
        assert np.linalg.norm((bowl - mug)[:2]) > MUG_RADIUS
        assert cutlery.RIM < bowl[2] < cutlery.RIM + 0.05
        # the bowl begins (0.066 along the axis) less than 3 cm above the rim
        assert policy.spoon_point(0.066)[2] - cutlery.RIM < 0.03


def test_the_left_hand_takes_only_left_bowls_of_spoons_leaning_away(settled):
    sides = {}
    for seed, policy in zip(SEEDS, settled, strict=True):
        bowl_left = policy.spoon_point(cutlery.GRIP_AT)[1] >= policy.kin.pelvis_pose()[1]
        sides[seed] = (bowl_left, bool(policy.spoon_axis()[0] >= 0.0), policy.working_hand())
    # 620001's bowl is on the left, its spoon leaning toward the robot: the right hand
    assert sides == {620000: (False, True, "right"), 620001: (True, False, "right"),
                     620002: (False, False, "right"), 620005: (True, True, "left")}


def test_the_grasp_closes_the_jaw_across_the_spoon(settled):
    for policy in settled:
        side = at_stance(policy)
        rot = policy.grasp_rotation(side)
        np.testing.assert_allclose(rot.T @ rot, np.eye(3), atol=1e-9)
        assert np.linalg.det(rot) == pytest.approx(1.0)
        assert abs(rot[:, 1] @ policy.spoon_axis()) < 1e-9  # jaw across the axis
        assert rot[2, 0] < 1e-9  # the hand points level or down onto the bowl
        q_grasp, e_grasp = policy.solve(side, policy.spoon_point(cutlery.GRIP_AT), rot)
        start = policy.spoon_point(cutlery.GRIP_AT) - cutlery.APPROACH * rot[:, 0]
        q_start, e_start = policy.solve(side, start, rot)
        assert max(e_grasp, e_start) < cutlery.REACH_ERROR
        # the open hand's way in, from where the arm is, keeps off the mug and the spoon;
        # the slide ends with the jaw 3.7 cm over the rim, at worst grazing it
        reach, slide = policy.approach_clearance(side, q_start, q_grasp)
        assert reach > 0.01 and slide > -0.003, (reach, slide)


@pytest.mark.parametrize("axis", [(0.3, -0.5, 0.8), (-0.6, 0.2, -0.77), (0.0, 0.0, -1.0),
                                  (1.0, 0.0, 0.0)])
def test_straighten_turns_the_spoon_to_point_down_by_the_share_asked(axis):
    axis = np.array(axis) / np.linalg.norm(axis)
    down = np.array([0.0, 0.0, -1.0])
    full = cutlery.straighten(axis)
    np.testing.assert_allclose(full @ full.T, np.eye(3), atol=1e-12)
    np.testing.assert_allclose(full @ axis, down, atol=1e-12)
    tilt = np.arccos(np.clip(-axis[2], -1.0, 1.0))
    half = cutlery.straighten(axis, 0.5) @ axis
    assert np.arccos(np.clip(-half[2], -1.0, 1.0)) == pytest.approx(tilt / 2, abs=1e-9)
    # the least rotation: its axis is horizontal, so the spoon's heading is kept
    if tilt > 1e-6:
        assert axis[0] * half[1] - axis[1] * half[0] == pytest.approx(0.0, abs=1e-12)
