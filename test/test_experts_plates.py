"""Plate experts (bench.policies.experts.plates): the plate geometry the expert reads
from the world state agrees with the task's own, and the joint-space reach behind a
rim picks an arm branch from which the hand can go on over the rim (test_experts runs
both experts on two seeds)."""

from __future__ import annotations

import numpy as np
import pytest

from bench.env import make
from bench.policies.experts import DRAFTS, EXPERTS, PENDING, expert, plates
from bench.policies.experts.kinematics import Kinematics
from bench.policies.oracle import env_world_state, feed_world
from bench.tasks.base import Scene
from bench.tasks.props import PLATE_RADIUS
from bench.tasks.tabletop import rack_slots

PLATE_TASKS = ("move_plate", "move_two_plates")


def test_each_plate_task_has_an_expert_or_a_reason():
    for task in PLATE_TASKS:
        if task in EXPERTS:
            assert task not in PENDING
        else:
            assert PENDING[task] == plates.PENDING[task]
            assert DRAFTS[task] is plates.DRAFTS[task]
            with pytest.raises(ValueError, match=f"no scripted expert for '{task}'"):
                expert(task)


def test_slot_centres_and_rim_points_match_the_task():
    env = make("move_two_plates", camera_keys=())
    env.reset(seed=620003)
    state = env_world_state(env, 620003)
    kin = Kinematics("move_two_plates")
    kin.set_state(state.qpos)
    scene = Scene(env.world.model, env.world.data)
    slots = rack_slots(scene, "rack_right")
    for k, slot in enumerate(slots):
        assert np.allclose(plates.slot_centre(kin, "rack_right", k), slot, atol=1e-9)
    policy = expert("move_two_plates")
    policy.observe_world(state)
    for plate in ("plate_a", "plate_b"):
        centre = kin.body_pos(plate)
        top, low = policy.rim_top(plate), policy.lowest(plate)
        assert np.isclose(np.linalg.norm(top - centre), PLATE_RADIUS)
        assert np.isclose(np.linalg.norm(low - centre), PLATE_RADIUS)
        # both lie in the plate's plane, straight above and below its centre there
        normal = kin.body_rot(plate)[:, 2]
        assert abs((top - centre) @ normal) < 1e-9
        assert top[2] > centre[2] + 0.9 * PLATE_RADIUS > low[2] + 1.8 * PLATE_RADIUS


def test_the_reach_behind_the_rim_keeps_the_rim_within_reach():
    # seed 620001's second pick: the pelvis 0.2 m right of the plate and the arm folded
    # as the first place left it (angles from a trace); the stage solution nearest those
    # angles meets the shoulder-roll limit on the way over the rim
    env = make("move_two_plates", camera_keys=())
    env.reset(seed=620001)
    qpos = env_world_state(env, 620001).qpos.copy()
    env.close()
    qpos[:2] = [0.0, 0.075]
    policy = expert("move_two_plates")
    policy.kin.set_state(qpos)
    policy.rot = plates.APPROACH
    over = plates.STAGE_OVER
    stage = policy.rim_top("plate_a") + plates.ABOVE * plates.UP - over
    folded = np.array([2.0, 1.87, 1.4, -0.92, -1.45, -0.41, 0.83])
    errors = {}
    for then in (None, stage + over):
        policy.arm[plates.SIDE] = folded.copy()
        policy.hand.clear()
        for _ in policy.joints_to(stage, 30, then=then):
            pass
        q = policy.arm[plates.SIDE]
        assert policy.kin.solve(plates.SIDE, stage, plates.APPROACH, q, iterations=200)[1] < 1e-3
        errors[then is None] = policy.kin.solve(plates.SIDE, stage + over, plates.APPROACH, q,
                                                iterations=200)[1]
    assert errors[False] < 1e-3 < 0.05 < errors[True]


def test_the_first_reach_leaves_the_other_plates_in_place():
    # seed 620043 on the floating base: a joint-space reach from the hanging arm to the
    # stage behind the rim swung the hand into the leftmost plate and off the rack
    env = make("move_two_plates", camera_keys=(), controller=None)
    policy = expert("move_two_plates")
    try:
        observation, _ = env.reset(seed=620043)
        start = {plate: env.scene.pos(plate).copy() for plate in ("plate_a", "plate_b")}
        for _ in range(150):  # the rise, the stage reach and the start of the walk
            observation, *_ = env.step(policy(observation))
            feed_world(policy, env_world_state(env, 620043))
        assert policy.kin.pinch_pose(plates.SIDE)[0][2] > 0.9  # the hand did rise
        for plate, pos in start.items():
            assert np.linalg.norm(env.scene.pos(plate) - pos) < 0.01, plate
    finally:
        env.close()


def test_pelvis_frame_round_trip():
    pelvis = np.array([0.12, -0.3, 0.4])
    point = np.array([0.5, 0.1, 1.0])
    local = plates.to_frame(pelvis, point)
    assert np.allclose(plates.from_frame(pelvis, local), point)
    assert np.isclose(np.hypot(*local[:2]), np.hypot(*(point - pelvis)[:2]))

