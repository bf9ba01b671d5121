"""The dishwasher_load_cutlery expert (bench/policies/experts/cutlery_basket.py): its
registration, the grasp geometry it reads from the scene after the reset, its grasp
rotations and its choice among them, the clearance of a reach, the seating of the closed
jaw on an item's plate, its guarded tracking and the height it sets a leaning item down
at."""

from __future__ import annotations

import numpy as np
import pytest
from expert_states import kinematics_at_reset

from bench.policies.experts import DRAFTS, EXPERTS, PENDING, cutlery_basket
from bench.policies.experts import expert as scripted_expert
from bench.policies.experts.cutlery_basket import (
    GRASP_PITCH,
    ITEMS,
    MAX_YAW,
    DishwasherLoadCutlery,
)
from bench.policies.experts.script import JOINT_STEP, REACHABLE
from bench.tasks import dishwasher_scene as ds
from bench.tasks.dishwasher import MUG_HEIGHT

TASK = "dishwasher_load_cutlery"
PAD_REACH = 0.0265 + 0.01  # m, the open jaw's pad faces from the pinch site, plus a pad


def expert_at_reset(seed: int) -> DishwasherLoadCutlery:
    """The draft with its kinematics set to the scene just after ``seed``'s reset."""
    expert = DishwasherLoadCutlery(TASK)
    _, qpos = kinematics_at_reset(TASK, seed)
    expert.kin.set_state(qpos)
    return expert


def test_registered_as_the_tasks_expert():
    assert EXPERTS[TASK] is cutlery_basket.DishwasherLoadCutlery
    assert TASK not in DRAFTS and TASK not in PENDING
    assert isinstance(scripted_expert(TASK), DishwasherLoadCutlery)


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
        lower_pad = (grasp[2] - PAD_REACH * abs(rot[2, 1])
                     - expert.pad_half_height() * abs(rot[2, 2]))
        assert lower_pad > rim, (item, lower_pad, rim)
        assert expert.standing(item)
        assert not expert.in_basket(item)
        x, _ = expert.stance(item)
        assert x <= cutlery_basket.CUP_STANCE_LIMIT


@pytest.mark.parametrize("item", ITEMS)
def test_grasp_point_keeps_the_pads_on_the_items_plate(item):
    """The pads (their half-height either side of the pinch along the item's axis) close on
    the blade or the tines, not past their tips: a fork held by the tines' last 7 mm slid
    out of the jaw."""
    expert = expert_at_reset(620000)
    low, high = expert.plate(item)
    along = (expert.grasp_pose(item)[0] - expert.kin.body_pos(item)) @ expert.axis(item)
    assert along == pytest.approx(cutlery_basket.GRASP_AT[item])
    pad = expert.pad_half_height()
    assert low + pad <= along <= high - pad, (item, along, low, high)


def held_at(expert: DishwasherLoadCutlery, item: str, along: float, depth: float,
            across: float = 0.0) -> np.ndarray:
    """Put the pinch site ``along`` up the item's axis, the item's axis ``depth`` ahead of
    it along the hand and ``across`` it across the jaw (the hand's z along the item's
    axis); return the hand's direction along its fingers."""
    axis = expert.axis(item)
    ahead = expert.grasp_pose(item)[1][:, 0]
    ahead = ahead - (ahead @ axis) * axis
    ahead /= np.linalg.norm(ahead)
    jaw = np.cross(axis, ahead)
    rot = np.column_stack([ahead, jaw, axis])
    pinch = expert.kin.body_pos(item) + along * axis - depth * ahead - across * jaw
    expert.kin.pinch_pose = lambda side: (pinch, rot)
    return ahead


@pytest.mark.parametrize("item", ITEMS)
def test_seat_shift_moves_the_hand_onto_a_plate_held_by_the_pads_tips(item):
    expert = expert_at_reset(620000)
    grasp_at = cutlery_basket.GRASP_AT[item]
    held_at(expert, item, grasp_at, 0.01)
    np.testing.assert_array_equal(expert.seat_shift(item), 0.0)  # held well
    ahead = held_at(expert, item, grasp_at, 0.03)
    np.testing.assert_allclose(expert.seat_shift(item), 0.03 * ahead, atol=1e-9)
    held_at(expert, item, grasp_at, 0.03, across=0.01)  # the jaw closed beside it
    np.testing.assert_array_equal(expert.seat_shift(item), 0.0)
    held_at(expert, item, grasp_at, 0.06)  # beyond the fingertips: a miss
    np.testing.assert_array_equal(expert.seat_shift(item), 0.0)
    top = expert.plate(item)[1]
    held_at(expert, item, top + 0.005, 0.0)  # the pads past the plate's tip
    np.testing.assert_allclose(expert.seat_shift(item),
                               (grasp_at - top - 0.005) * expert.axis(item), atol=1e-9)


def test_plate_and_pad_extents_are_read_off_the_model():
    expert = expert_at_reset(620000)
    assert expert.pad_half_height() == pytest.approx(0.012)
    assert expert.plate("knife") == pytest.approx((0.0, 0.10))
    assert expert.plate("fork") == pytest.approx((0.035, 0.085))


def test_lifted_names_the_items_whose_lower_end_rose():
    expert = expert_at_reset(620000)
    lows = {item: expert.lower_end(item)[2] for item in ITEMS}
    assert expert.lifted(lows) == []  # nothing moved
    rise = cutlery_basket.LIFTED + 0.01
    assert expert.lifted({**lows, "fork": lows["fork"] - rise}) == ["fork"]
    assert expert.lifted({item: low - rise for item, low in lows.items()}) == list(ITEMS)


def test_lower_end_is_the_lower_of_the_items_tips():
    expert = expert_at_reset(620000)
    for item in ITEMS:
        end = expert.lower_end(item)
        top = expert.kin.body_pos(item) * 2 - end
        assert end[2] < top[2]
        assert np.linalg.norm(top - end) == pytest.approx(2 * cutlery_basket.HALF_LENGTH)


@pytest.mark.parametrize("lean_deg", [0.0, 15.0, 45.0, 70.0])
def test_set_height_lets_a_leaning_item_clear_the_rim_it_leans_across(lean_deg):
    expert = expert_at_reset(620000)
    lean = np.radians(lean_deg)
    axis = np.array([0.0, -np.sin(lean), np.cos(lean)])  # leaning toward the robot (-y)
    expert.axis = lambda item: axis  # type: ignore[method-assign]
    basket = expert.kin.body_pos("basket")
    floor = basket[2] + ds.BASKET_FLOOR
    rim = basket[2] + ds.BASKET_HALF[2]
    above = np.array([basket[0] + 0.03, basket[1] + 0.053, rim + 0.03])  # a far-row cell
    height = expert.set_height("fork", above)
    assert height >= floor + cutlery_basket.SET_HEIGHT - 1e-12
    wall = above[1] - (basket[1] - ds.BASKET_HALF[1] + ds.BASKET_WALL)  # to the near wall's face
    reach = 2 * cutlery_basket.HALF_LENGTH * np.sin(lean)  # the item's horizontal length
    if reach <= wall:  # short of the wall: down to the floor
        assert height == pytest.approx(floor + cutlery_basket.SET_HEIGHT)
    else:  # over the wall by RIM_CLEAR, and no higher than that needs
        at_wall = height + wall / np.tan(lean)
        assert at_wall >= rim + cutlery_basket.RIM_CLEAR - 1e-9
        assert height == pytest.approx(floor + cutlery_basket.SET_HEIGHT) or \
            at_wall == pytest.approx(rim + cutlery_basket.RIM_CLEAR)


def test_grasp_tilt_takes_the_first_rotation_that_reaches_both_points():
    expert = expert_at_reset(620001)
    wanted = expert.grasp_candidates("fork")[4]
    nominal = expert.grasp_pose("fork")[1]

    def plan(side, pos, rot):  # only the wanted rotation is within reach
        good = np.allclose(rot, expert.grasp_pose("fork", *wanted)[1])
        return expert.arm[side], 0.001 if good else 0.2
    expert.plan = plan  # type: ignore[method-assign]
    assert expert.grasp_tilt("fork") == wanted
    assert not np.allclose(expert.grasp_pose("fork", *wanted)[1], nominal)


def test_grasp_tilt_falls_back_to_the_nearest_miss():
    expert = expert_at_reset(620001)
    nearest = expert.grasp_candidates("knife")[8]

    def plan(side, pos, rot):  # nothing within reach; one rotation misses least
        near = np.allclose(rot, expert.grasp_pose("knife", *nearest)[1])
        return expert.arm[side], 0.01 if near else 0.3
    expert.plan = plan  # type: ignore[method-assign]
    assert expert.grasp_tilt("knife") == nearest


@pytest.mark.parametrize("better", [True, False])
@pytest.mark.parametrize("distance", [0.1, 1.0])
def test_tracking_moves_the_arm_toward_a_nearer_pose_gently_while_the_target_is_held(
        better, distance):
    expert = expert_at_reset(620000)
    start = expert.arm["left"].copy()
    solved = start + distance
    solve = expert.kin.solve

    def fake(side, pos, rot, q0, iterations=30):  # the present error, then the solve's
        if iterations == 1:
            return solve(side, pos, rot, q0, iterations=1)
        assert iterations == cutlery_basket.TRACK_ITERATIONS
        return solved, (0.0 if better else 10.0)
    expert.kin.solve = fake  # type: ignore[method-assign]
    expert.hand["left"] = (expert.kin.pinch_pose("left")[0] + [0.05, 0.0, 0.0], None)
    expert._track()  # a new target: the whole way, at most JOINT_STEP a joint
    first = expert.arm["left"].copy()
    expert._track()  # the same target, held: a share of the way
    if better:
        np.testing.assert_allclose(first, start + min(distance, JOINT_STEP))
        share = min(cutlery_basket.TRACK_SHARE * (distance - min(distance, JOINT_STEP)),
                    JOINT_STEP)
        np.testing.assert_allclose(expert.arm["left"], first + share)
    else:
        np.testing.assert_array_equal(expert.arm["left"], start)
    expert.reset()
    assert expert.tracked == {}


def _planned_in_order():
    """A fake ``plan`` that reaches every rotation exactly, with arm angles that number
    the rotation in the order ``grasp_tilt`` tries them (two plans each)."""
    calls = []

    def plan(side, pos, rot):
        calls.append(pos)
        return np.full(7, float((len(calls) - 1) // 2)), 0.001
    return plan


def test_grasp_candidates_are_distinct_and_start_with_the_nominal_rotation():
    expert = expert_at_reset(620046)
    for item in ITEMS:
        candidates = expert.grasp_candidates(item)
        assert candidates[0] == (GRASP_PITCH, 0.0)
        rotations = [expert.grasp_pose(item, *c)[1] for c in candidates]
        assert all(not np.allclose(a, b) for k, a in enumerate(rotations)
                   for b in rotations[:k])
        assert len(candidates) >= 3 * 5  # at least five distinct turns at every pitch


@pytest.mark.parametrize("clear_index, expected_index", [(4, 4), (None, 7)])
def test_grasp_tilt_passes_over_rotations_whose_reach_crowds_the_mug(clear_index,
                                                                     expected_index):
    """Every rotation within reach: the first whose reach keeps REACH_CLEAR wins; with
    none clear, the one with the most clearance."""
    expert = expert_at_reset(620046)
    expert.plan = _planned_in_order()  # type: ignore[method-assign]

    def clearance(q):
        index = int(q[0])
        if index == clear_index:
            return cutlery_basket.REACH_CLEAR
        return 0.03 if index == 7 else 0.01
    expert.reach_clearance = clearance  # type: ignore[method-assign]
    assert expert.grasp_tilt("fork") == expert.grasp_candidates("fork")[expected_index]


def test_reach_clearance_sees_a_reach_through_the_mug():
    """The resting arm is clear of the mug (the check is capped at REACH_CLEAR); with
    the mug moved to where a reach ends, that reach is not."""
    expert = expert_at_reset(620046)
    assert expert.reach_clearance(expert.arm["left"]) == cutlery_basket.REACH_CLEAR
    end = expert.world_pose((np.array([0.30, 0.20, 1.0]), None))[0]
    q, error = expert.plan("left", end, None)
    assert error < REACHABLE
    assert expert.reach_clearance(q) == cutlery_basket.REACH_CLEAR  # the mug far away
    model = expert.kin.model
    address = model.jnt_qposadr[model.body("mug").jntadr[0]]
    qpos = expert.kin.data.qpos.copy()
    qpos[address:address + 3] = end
    expert.kin.set_state(qpos)
    assert expert.reach_clearance(q) < 0.0  # the hand ends inside the mug's wall
