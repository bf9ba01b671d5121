"""The eight reaching and table-top tasks, in four layers:
(a) determinism and documented reset ranges, (b) success reachable after exactly the
hold, (c) near misses, one clause at a time, (d) fail-fast."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest
import task_layers as layers
import task_states as ts
from task_layers import scene_for

from bench import predicates as pred
from bench.monitor import TaskMonitor, Termination
from bench.tasks import reaching as rt
from bench.tasks import tabletop as tt
from bench.tasks.base import Scene
from bench.tasks.props import TABLE_TOP, rack_slot_offsets

TASKS = sorted(cls.name for module in (rt, tt) for cls in module.TASK_CLASSES)
SEEDS = range(620000, 620030)


def objects_qpos(scene: Scene) -> np.ndarray:
    """qpos of every free body except the robot."""
    m = scene.model
    free = [j for j in range(m.njnt) if m.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE
            and m.joint(j).name != "floating_base_joint"]
    parts = [scene.data.qpos[m.jnt_qposadr[j]:m.jnt_qposadr[j] + 7] for j in free]
    return np.concatenate(parts)


# ----- (a) determinism and ranges -------------------------------------------------------

@pytest.mark.parametrize("task", TASKS)
def test_same_seed_same_state_and_seeds_differ(task):
    a, _ = scene_for(task, 620003)
    b, _ = scene_for(task, 620003)
    c_, _ = scene_for(task, 620004)
    assert np.array_equal(objects_qpos(a), objects_qpos(b))
    assert not np.allclose(objects_qpos(a), objects_qpos(c_))


def _yaw(quat: np.ndarray) -> float:
    axis = pred.axis_in_world(quat, np.array([1.0, 0.0, 0.0]))
    return float(np.arctan2(axis[1], axis[0]))


def test_reach_targets_stay_in_their_ranges():
    for seed in SEEDS:
        s, _ = scene_for("reach_target_single", seed)
        assert np.all(np.abs(s.pos("target") - rt.BASE) <= rt.JITTER + 1e-9)
        d, _ = scene_for("reach_target_dual", seed)
        offset = np.array([0, rt.DUAL_OFFSET, 0])
        assert np.all(np.abs(d.pos("target_left") - rt.BASE - offset) <= rt.JITTER + 1e-9)
        assert np.all(np.abs(d.pos("target_right") - rt.BASE + offset) <= rt.JITTER + 1e-9)


def test_plate_resets_stay_in_their_ranges():
    for seed in SEEDS:
        s, _ = scene_for("move_two_plates", seed)
        for rack, base in tt.RACK_BASES.items():
            assert np.all(np.abs(s.pos(rack)[:2] - base) <= tt.RACK_JITTER + 1e-9)
        rack = s.pos("rack_left")
        slots = {round(float(s.pos(p)[1] - rack[1]), 4) for p in ("plate_a", "plate_b")}
        assert len(slots) == 2  # two different slots
        assert slots <= {round(float(y), 4) for y in rack_slot_offsets()}
        for plate in ("plate_a", "plate_b"):
            assert pred.facing(s.quat(plate), tt.RIGHT, 1.0)


def test_cup_and_mug_resets_stay_in_their_ranges():
    for seed in SEEDS:
        s, _ = scene_for("flip_cup", seed)
        cup = s.pos("cup")
        assert np.min(np.max(np.abs(tt.SPOTS - cup[:2]), axis=1)) <= tt.SPOT_JITTER + 1e-9
        assert pred.points_down_within(s.quat("cup"), 0.5)  # upside down
        yaw = abs(_yaw(s.quat("cup")))  # 180 +- 30 degrees, seen from the upright frame
        assert np.degrees(np.pi - yaw) <= 30 + 1e-6
        m, _ = scene_for("flip_cutlery", seed)
        mug = m.pos("mug")
        assert np.min(np.max(np.abs(tt.SPOTS - mug[:2]), axis=1)) <= tt.SPOT_JITTER + 1e-9
        assert pred.upright_within(m.quat("spoon"), 12)  # pointing up, leaning on the rim
        assert pred.horizontal_distance(m.pos("spoon"), mug) < tt.MUG_RADIUS


def test_block_and_pad_resets_stay_in_their_ranges():
    edge = tt.FAR_TABLE_CENTER[0] - tt.FAR_TABLE_HALF[0]
    for seed in SEEDS:
        s, _ = scene_for("stack_blocks", seed)
        spots = set()
        for block in tt.BLOCKS:
            p = s.pos(block)
            distances = np.abs(np.array(tt.BLOCK_ROW_Y) - p[1])
            spot = int(np.argmin(distances))
            assert distances[spot] <= 0.05 + 1e-9 and abs(p[0] - tt.BLOCK_ROW_X) <= 0.05 + 1e-9
            spots.add(spot)
        assert len(spots) == 3
        pad = s.pos("pad")
        assert 0.10 - 1e-9 <= pad[0] - edge <= 0.18 + 1e-9
        assert abs(pad[1] - tt.FAR_TABLE_CENTER[1]) <= tt.PAD_Y_JITTER + 1e-9


# ----- (b) success after exactly the hold ---------------------------------------------------

@pytest.mark.parametrize("task", TASKS)
def test_constructed_success_counts_after_exactly_50_steps(task):
    scene, instance = scene_for(task)
    ts.success_state(task, scene)
    layers.assert_success_after_exactly_the_hold(scene, instance)


@pytest.mark.parametrize("task", TASKS)
def test_constructed_success_survives_physics_in_the_env(task):
    layers.assert_success_survives_physics(task, lambda env: ts.success_state(task, env.scene))


# ----- (c) near misses ---------------------------------------------------------------------

def _broken(task: str, edit) -> dict[str, bool]:
    scene, instance = scene_for(task)
    ts.success_state(task, scene)
    edit(scene)
    ts.forward(scene)
    clauses = instance.clauses(scene)
    assert not instance.success(scene)
    return {name for name, value in clauses.items() if not value}


def _held(body: str, offset=(0.0, 0.0, 0.0)):
    def edit(scene: Scene) -> None:
        ts.touch_with_left_pad(scene, scene.pos(body) + np.array(offset))
    return edit


def _held_at(geom: str, along_z: float = 0.0):
    """Put the left pad on a geom's centre, moved ``along_z`` along its local z axis."""
    def edit(scene: Scene) -> None:
        g = scene.model.geom(geom).id
        axis = scene.data.geom_xmat[g].reshape(3, 3)[:, 2]
        ts.touch_with_left_pad(scene, scene.data.geom_xpos[g] + along_z * axis)
    return edit


def drop(scene: Scene, body: str) -> None:
    """Let a body fall onto the floor beside the robot (1 s of physics); everything
    else keeps its state."""
    scene.set_free_pose(body, [1.5, 1.5, 0.3])
    before = scene.data.qpos.copy()
    mujoco.mj_step(scene.model, scene.data, nstep=1000)
    adr = scene.model.joint(f"{body}_free").qposadr[0]
    before[adr:adr + 7] = scene.data.qpos[adr:adr + 7]
    scene.data.qpos[:] = before
    scene.data.qvel[:] = 0.0
    ts.forward(scene)


NEAR_MISSES = {
    "reach_target_single": [
        (lambda s: s.set_free_pose("target", s.site("left_pinch") + np.array([0.051, 0, 0])),
         {"left_pinch_in_target"}),
        (lambda s: s.set_free_pose("target", s.site("right_pinch")), {"left_pinch_in_target"}),
    ],
    "reach_target_multi_modal": [
        (lambda s: s.set_free_pose("target", s.site("right_pinch") + np.array([0, 0, 0.051])),
         {"a_pinch_in_target"}),
    ],
    "reach_target_dual": [
        (lambda s: s.set_free_pose("target_left", s.site("left_pinch") + np.array([0, 0.051, 0])),
         {"left_pinch_in_left_target"}),
        (lambda s: s.set_free_pose("target_right", s.site("right_pinch") - np.array([0, 0, 0.051])),
         {"right_pinch_in_right_target"}),
    ],
    "move_plate": [
        (lambda s: ts.seat_plate(s, "plate", 2, quat=ts.FACING_LEFT),
         {"plate_on_edge_facing_right"}),
        (lambda s: ts.seat_plate(s, "plate", 2, dz=-0.0176), {"plate_off_table"}),
        (lambda s: ts.seat_plate(s, "plate", 2, dx=0.06), {"plate_in_target_slot"}),
        (lambda s: ts.seat_plate(s, "plate", 2, dz=0.04), {"plate_touches_target_rack"}),
        (_held("plate", (0.0, 0.0, 0.11)), {"plate_released"}),
    ],
    "move_two_plates": [
        (lambda s: ts.seat_plate(s, "plate_b", 4, quat=ts.FACING_LEFT),
         {"plate_b_on_edge_facing_right"}),
        (lambda s: ts.seat_plate(s, "plate_a", 1, dz=0.04), {"plate_a_touches_target_rack"}),
    ],
    "flip_cup": [
        (lambda s: s.set_free_pose("cup", [*s.pos("cup")[:2], ts.tilted_cup_height(6.0)],
                                   ts.tilt_x(6.0)), {"cup_upright"}),
        (lambda s: s.set_free_pose("cup", s.pos("cup") + np.array([0, 0, 0.01])),
         {"cup_touches_table"}),
        (_held("cup", (tt.CUP_RADIUS, 0.0, 0.0)), {"cup_released"}),
    ],
    "flip_cutlery": [
        (lambda s: ts.place_spoon_in_mug(s, 55.0), {"spoon_points_down"}),
        (lambda s: ts.place_spoon_in_mug(s, 10.0, lift=0.25), {"spoon_touches_mug"}),
        (_held_at("mug_handle"), {"mug_released"}),
        (_held_at("spoon_handle", along_z=-0.06), {"spoon_released"}),
    ],
    "stack_blocks": [
        (lambda s: ts.stack(s, shift2=(0.06, 0.0, 0.0), yaw2=np.pi / 4), {"level2_aligned"}),
        (lambda s: ts.stack(s, shift2=(0.0495, 0.0, -0.04)), {"level2_higher"}),
        (lambda s: ts.stack(s, shift2=(0.0, 0.0, 0.01)), {"level2_touches_below"}),
        (lambda s: ts.stack(s, shift1=(0.06, 0.0, 0.0), yaw1=np.pi / 4, yaw2=np.pi / 4),
         {"level1_aligned"}),
        (lambda s: ts.stack(s, shift1=(0.0495, 0.0, -0.04)), {"level1_higher"}),
        (lambda s: ts.stack(s, shift1=(0.0, 0.0, 0.01)), {"level1_touches_below"}),
        (lambda s: ts.stack(s, lift=0.005), {"bottom_touches_pad"}),
        (_held("block_blue", (0.0, 0.0, tt.BLOCK_HALF)), {"blocks_released"}),
    ],
}


@pytest.mark.parametrize(("task", "index"), [(t, i) for t, cases in NEAR_MISSES.items()
                                             for i in range(len(cases))])
def test_near_miss_breaks_exactly_one_clause(task, index):
    edit, expected = NEAR_MISSES[task][index]
    assert _broken(task, edit) == expected


def test_every_clause_has_a_near_miss():
    for task in TASKS:
        scene, instance = scene_for(task)
        ts.success_state(task, scene)
        covered = set().union(*(expected for _, expected in NEAR_MISSES[task]))
        prefix_free = {name for name in instance.clauses(scene)}
        if task == "move_two_plates":  # plate_a/plate_b repeat move_plate's clauses
            continue
        assert covered == prefix_free, task


def test_plate_held_near_miss_really_touches_a_pad():
    scene, _ = scene_for("move_plate")
    ts.success_state("move_plate", scene)
    _held("plate", (0.0, 0.0, 0.11))(scene)
    assert scene.held("plate")


def test_spoon_near_miss_is_55_degrees_from_down():
    scene, _ = scene_for("flip_cutlery")
    ts.success_state("flip_cutlery", scene)
    ts.place_spoon_in_mug(scene, 55.0)
    ts.forward(scene)
    axis = pred.axis_in_world(scene.quat("spoon"), np.array([0.0, 0.0, 1.0]))
    assert pred.angle_deg(axis, -pred.UP) == pytest.approx(55.0, abs=0.01)


# ----- (d) fail-fast -----------------------------------------------------------------------

@pytest.mark.parametrize(("task", "body", "reason"), [
    ("move_plate", "plate", "plate touched the floor"),
    ("move_two_plates", "plate_b", "plate_b touched the floor"),
    ("stack_blocks", "block_green", "block_green touched the floor"),
])
def test_fail_fast_fires_when_an_object_touches_the_floor(task, body, reason):
    scene, instance = scene_for(task)
    drop(scene, body)
    monitor = TaskMonitor(instance, scene.model)
    status = monitor.update(scene.data.qpos, scene.data.qvel, 1.0)
    assert status.done and status.termination is Termination.TERMINATED
    assert status.reason == f"fail-fast: {reason}"


@pytest.mark.parametrize(("task", "body"), [("flip_cup", "cup"), ("flip_cutlery", "spoon"),
                                            ("reach_target_single", None)])
def test_tasks_without_fail_fast_let_a_dropped_object_be_picked_up(task, body):
    scene, instance = scene_for(task)
    if body:
        drop(scene, body)
        assert scene.touches(scene.geoms(body), scene.floor)
    assert instance.fail(scene) is None


def test_table_tops_are_at_0_70():
    scene, _ = scene_for("stack_blocks")
    for table in ("table_top", "far_table_top"):
        g = scene.model.geom(table).id
        assert scene.data.geom_xpos[g][2] + scene.model.geom_size[g][2] == pytest.approx(TABLE_TOP)
