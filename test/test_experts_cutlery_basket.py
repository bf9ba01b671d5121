"""The dishwasher_load_cutlery draft (bench/policies/experts/cutlery_basket.py): its
registration, and the grasp geometry it reads from the scene after the reset."""

from __future__ import annotations

import numpy as np
import pytest
from expert_states import kinematics_at_reset

from bench.policies.experts import DRAFTS, EXPERTS, PENDING, cutlery_basket, draft
from bench.policies.experts.cutlery_basket import (
    GRASP_PITCH,
    ITEMS,
    MAX_YAW,
    DishwasherLoadCutlery,
)
from bench.tasks.dishwasher import MUG_HEIGHT

TASK = "dishwasher_load_cutlery"
PAD_REACH = 0.0265 + 0.01  # m, the open jaw's pad faces from the pinch site, plus a pad
PAD_HALF_HEIGHT = 0.012  # m


def expert_at_reset(seed: int) -> DishwasherLoadCutlery:
    """The draft with its kinematics set to the scene just after ``seed``'s reset."""
    expert = DishwasherLoadCutlery(TASK)
    _, qpos = kinematics_at_reset(TASK, seed)
    expert.kin.set_state(qpos)
    return expert


def test_registered_as_a_draft_with_its_reason():
    assert DRAFTS[TASK] is cutlery_basket.DishwasherLoadCutlery
    assert TASK not in EXPERTS
    assert "official seeds" in PENDING[TASK]
    assert isinstance(draft(TASK), DishwasherLoadCutlery)


@pytest.mark.parametrize("seed", [620000, 620001, 620002])
def test_grasp_pose_closes_square_to_each_item_above_the_mug(seed):
    expert = expert_at_reset(seed)
    rim = expert.kin.body_pos("mug")[2] + MUG_HEIGHT / 2
    for item in ITEMS:
        grasp, rot = expert.grasp_pose(item)
        np.testing.assert_allclose(rot.T @ rot, np.eye(3), atol=1e-9)
        assert np.linalg.det(rot) == pytest.approx(1.0)
        assert abs(rot[:, 1] @ expert.axis(item)) < 1e-9  # the jaw closes across the item
        assert rot[2, 0] == pytest.approx(-np.sin(GRASP_PITCH))  # pointing down
        assert abs(np.arctan2(rot[1, 0], rot[0, 0])) <= MAX_YAW + 1e-9
        lower_pad = grasp[2] - PAD_REACH * abs(rot[2, 1]) - PAD_HALF_HEIGHT * abs(rot[2, 2])
        assert lower_pad > rim, (item, lower_pad, rim)
        assert expert.standing(item)
        assert not expert.in_basket(item)
        x, _ = expert.stance(item)
        assert x <= cutlery_basket.CUP_STANCE_LIMIT


def test_lower_end_is_the_lower_of_the_items_tips():
    expert = expert_at_reset(620000)
    for item in ITEMS:
        end = expert.lower_end(item)
        top = expert.kin.body_pos(item) * 2 - end
        assert end[2] < top[2]
        assert np.linalg.norm(top - end) == pytest.approx(2 * cutlery_basket.HALF_LENGTH)
