"""Configuration, task registry and the seed's observation/action layouts, entry by entry."""

from __future__ import annotations

import pytest

from bench import config as cfg
from bench import layout
from bench.robot import constants as c
from bench.tasks import BENCHMARK_TASKS, TASKS, get_spec

# The seed's table of action dimensions (000_*: Tasks).
SEED_ACTION_DIMS = {
    "reach_target_single": 20, "reach_target_multi_modal": 20, "reach_target_dual": 20,
    "move_plate": 20, "move_two_plates": 21, "flip_cup": 21, "flip_cutlery": 21,
    "stack_blocks": 21, "dishwasher_close": 21, "dishwasher_load_cups": 21,
    "dishwasher_load_cutlery": 21, "dishwasher_load_plates": 21, "drawer_top_open": 20,
    "drawer_top_close": 20, "pick_box": 21, "put_cups": 21, "saucepan_to_hob": 21,
    "sandwich_remove": 21, "wall_cupboard_open": 21, "wall_cupboard_close": 21,
}
ARM = ["shoulder_pitch", "shoulder_roll", "shoulder_yaw", "elbow", "wrist_roll",
       "wrist_pitch", "wrist_yaw"]


def test_registry_has_the_40_tasks_with_the_seed_action_dims():
    assert len(TASKS) == 40
    assert list(BENCHMARK_TASKS) == list(SEED_ACTION_DIMS)
    for name, dim in SEED_ACTION_DIMS.items():
        assert TASKS[name].action_dim == dim, name
    later = [t for t in TASKS.values() if not t.benchmark]
    assert len(later) == 20 and all(t.action_dim == 21 for t in later)
    assert {t.name for t in TASKS.values() if t.reach_tolerance == 0.05} == {
        "reach_target_single", "reach_target_multi_modal", "reach_target_dual"}
    assert {t.name for t in TASKS.values() if t.initialization_profile == "g1_id_v1"} == {
        "drawer_top_open", "drawer_top_close"}
    assert all("placeholder" in t.budget_source or t.budget_source.startswith("BUDGET_RULE on")
               for t in TASKS.values())


def test_unknown_task_lists_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown task 'flip_mug'.*flip_cup"):
        get_spec("flip_mug")


def test_action_layout_20_slot_by_slot():
    slots = layout.wholebody_action_layout(pitch_command=False)
    names = ["vx", "vy", "height", "wz"] + [f"left_{j}" for j in ARM] + \
        [f"right_{j}" for j in ARM] + ["left_gripper", "right_gripper"]
    assert [s.name for s in slots] == names
    assert [s.index for s in slots] == list(range(20))
    assert (slots[0].low, slots[0].high) == (-1.0, 1.0)
    assert (slots[1].low, slots[1].high) == (-1.0, 1.0)
    assert (slots[2].low, slots[2].high) == (0.4, 1.0)
    assert (slots[3].low, slots[3].high) == (-1.0, 1.0)
    for slot, joint in zip(slots[4:18], c.LEFT_ARM + c.RIGHT_ARM, strict=True):
        assert (slot.low, slot.high) == tuple(c.JOINT_LIMITS[c.joint_index(joint)])
    assert [(s.low, s.high) for s in slots[18:]] == [(0.0, 1.0), (0.0, 1.0)]


def test_action_layout_21_adds_torso_pitch_in_slot_4():
    slots = layout.wholebody_action_layout(pitch_command=True)
    assert len(slots) == 21
    assert slots[4].name == "torso_pitch" and (slots[4].low, slots[4].high) == (-0.2, 0.8)
    assert slots[5].name == "left_shoulder_pitch" and slots[12].name == "right_shoulder_pitch"
    assert [s.name for s in slots[19:]] == ["left_gripper", "right_gripper"]


def test_command_clips_set_the_base_ranges():
    ctrl = cfg.ControllerConfig(cmd_clip=0.5, wz_clip=0.3)
    slots = layout.wholebody_action_layout(False, ctrl)
    assert [(s.low, s.high) for s in slots[:4]] == [(-0.5, 0.5), (-0.5, 0.5), (0.4, 1.0),
                                                    (-0.3, 0.3)]


def test_normalization_round_trips_and_maps_the_ends():
    import numpy as np
    slots = layout.wholebody_action_layout(True)
    low, high = layout.action_bounds(slots)
    assert np.allclose(layout.denormalize(-np.ones(21), slots), low)
    assert np.allclose(layout.denormalize(np.ones(21), slots), high)
    assert np.allclose(layout.denormalize(np.full(21, 5.0), slots), high)  # clipped
    raw = layout.denormalize(np.linspace(-0.9, 0.9, 21), slots)
    assert np.allclose(layout.normalize(raw, slots), np.linspace(-0.9, 0.9, 21))


def test_low_dim_slices_match_the_seed():
    assert layout.low_dim_component_slices(False) == {
        "proprioception": (0, 44), "proprioception_grippers": (44, 46),
        "proprioception_floating_base": (46, 50)}
    assert layout.low_dim_component_slices(True) == {
        "proprioception": (0, 50), "proprioception_grippers": (50, 52),
        "proprioception_floating_base": (52, 56)}


def test_low_dim_entries_50():
    names = layout.low_dim_names(False)
    assert len(names) == 50
    positions = [f"left_{j}" for j in ARM] + [f"right_{j}" for j in ARM] + [
        "left_finger_a", "left_finger_b", "right_finger_a", "right_finger_b",
        "pelvis_x", "pelvis_y", "pelvis_z", "pelvis_yaw"]
    assert names[:22] == positions
    assert names[22:44] == [f"{n}_vel" for n in positions]
    assert names[44:46] == ["left_gripper", "right_gripper"]
    assert names[46:50] == ["base_pelvis_x", "base_pelvis_y", "base_pelvis_z", "base_pelvis_yaw"]
    assert not any(("hip" in n or "knee" in n or "ankle" in n or "waist" in n) for n in names)


def test_low_dim_entries_56_put_the_waist_first():
    names = layout.low_dim_names(True)
    assert len(names) == 56
    waist = ["waist_yaw", "waist_roll", "waist_pitch"]
    assert names[:3] == waist and names[25:28] == [f"{w}_vel" for w in waist]
    assert names[3:25] == layout.low_dim_names(False)[:22]
    assert names[50:52] == ["left_gripper", "right_gripper"]


def test_overrides_merge_and_are_listed():
    base = cfg.EnvConfig()
    merged = cfg.apply_overrides(base, {"controller": {"cmd_clip": 0.5}, "frame_stack": 2})
    assert merged.controller.cmd_clip == 0.5
    assert merged.controller.backend == base.controller.backend  # merged, not replaced
    assert cfg.diff(base, merged) == ["controller.cmd_clip", "frame_stack"]
    floating = cfg.apply_overrides(base, {"controller": None})
    assert floating.controller.backend == "floating_base"
    with pytest.raises(ValueError, match="unknown config field"):
        cfg.apply_overrides(base, {"framestack": 2})
    with pytest.raises(ValueError, match="unknown controller field"):
        cfg.apply_overrides(base, {"controller": {"clip": 1}})


def test_validation_names_the_field():
    with pytest.raises(ValueError, match="action_representation"):
        cfg.apply_overrides(cfg.EnvConfig(), {"action_representation": "relative"}).validate()
    with pytest.raises(ValueError, match="frame_stack"):
        cfg.apply_overrides(cfg.EnvConfig(), {"frame_stack": 0}).validate()


def test_config_hash_changes_with_any_field():
    base = cfg.EnvConfig()
    assert cfg.config_hash(base) == cfg.config_hash(cfg.EnvConfig())
    assert cfg.config_hash(base) != cfg.config_hash(cfg.apply_overrides(base, {"frame_stack": 2}))


def test_joint_limits_match_the_model():
    import numpy as np

    from bench.sim.world import G1World
    world = G1World()
    model_limits = np.array([world.model.joint(j).range for j in c.JOINTS])
    assert np.allclose(model_limits, c.JOINT_LIMITS)
    world.close()
