"""Plate experts (bench.policies.experts.plates): the plate geometry the expert reads
from the world state agrees with the task's own (test_experts runs the move_plate
expert on two seeds)."""

from __future__ import annotations

import numpy as np
import pytest

from bench.env import make
from bench.policies.experts import DRAFTS, EXPERTS, PENDING, draft, expert, plates
from bench.policies.experts.kinematics import Kinematics
from bench.policies.oracle import env_world_state
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
    policy = draft("move_two_plates")
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


def test_pelvis_frame_round_trip():
    pelvis = np.array([0.12, -0.3, 0.4])
    point = np.array([0.5, 0.1, 1.0])
    local = plates.to_frame(pelvis, point)
    assert np.allclose(plates.from_frame(pelvis, local), point)
    assert np.isclose(np.hypot(*local[:2]), np.hypot(*(point - pelvis)[:2]))

