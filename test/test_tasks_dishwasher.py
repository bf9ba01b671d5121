"""The thirteen dishwasher tasks, in the four layers of test_tasks.py:
(a) determinism and documented reset ranges, (b) success reachable after exactly the
hold, (c) near misses, one clause at a time, (d) fail-fast."""

from __future__ import annotations

import dishwasher_states as dst
import mujoco
import numpy as np
import pytest
import task_layers as layers
from task_layers import scene_for

from bench import predicates as pred
from bench.monitor import TaskMonitor, Termination
from bench.robot import constants as c
from bench.tasks import TASKS as SPECS
from bench.tasks import dishwasher as dw
from bench.tasks import dishwasher_scene as ds
from bench.tasks import make_task
from bench.tasks.base import Scene
from bench.tasks.props import rack_slot_offsets

TASKS = sorted(cls.name for cls in dw.TASK_CLASSES)
FIXED = ("dishwasher_close", "dishwasher_close_trays", "dishwasher_open",
         "dishwasher_open_trays")  # no reset randomisation
SEEDS = range(620000, 620030)
UP = np.array([0.0, 0.0, 1.0])


def task_qpos(scene: Scene) -> np.ndarray:
    """qpos of everything but the robot: free props and articulated parts."""
    m = scene.model
    robot = {m.joint(c.FREE_JOINT).id} | {m.joint(j).id for j in c.JOINTS}
    robot |= {j for j in range(m.njnt) if "gripper" in m.joint(j).name}
    parts = []
    for j in range(m.njnt):
        if j in robot:
            continue
        width = 7 if m.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE else 1
        parts.append(scene.data.qpos[m.jnt_qposadr[j]:m.jnt_qposadr[j] + width])
    return np.concatenate(parts)


def test_registry_covers_the_thirteen_dishwasher_tasks():
    assert {name for name, spec in SPECS.items() if spec.group == "dishwasher"} == set(TASKS)
    assert all(SPECS[name].action_dim == 21 for name in TASKS)


# ----- (a) determinism and ranges -------------------------------------------------------

@pytest.mark.parametrize("task", TASKS)
def test_same_seed_same_state_and_seeds_differ(task):
    a, _ = scene_for(task, 620003)
    b, _ = scene_for(task, 620003)
    c_, _ = scene_for(task, 620004)
    assert np.array_equal(task_qpos(a), task_qpos(b))
    if task in FIXED:  # documented: no reset randomisation, every seed the same
        assert np.array_equal(task_qpos(a), task_qpos(c_))
    else:
        assert not np.allclose(task_qpos(a), task_qpos(c_))


@pytest.mark.parametrize("task", TASKS)
def test_articulated_parts_start_as_documented(task):
    scene, instance = scene_for(task)
    door, bottom, middle = instance.start
    assert ds.normalised(scene, "dishwasher_door") == pytest.approx(door)
    assert ds.normalised(scene, "bottom_tray") == pytest.approx(bottom)
    assert ds.normalised(scene, "middle_tray") == pytest.approx(middle)
    for joint in set(instance.joints()) - set(ds.DISHWASHER_JOINTS):
        assert ds.normalised(scene, joint) == 0.0  # drawer and wall-cabinet doors closed
    expected = {"dishwasher_open": (0, 0, 0), "dishwasher_close": (1, 1, 1),
                "dishwasher_close_trays": (1, 1, 1), "dishwasher_open_trays": (1, 0, 0),
                "dishwasher_load_cups": (1, 0, 1), "dishwasher_unload_cups": (1, 0, 1),
                "dishwasher_unload_cups_long": (1, 0, 1)}
    assert instance.start == expected.get(task, (1, 1, 0))


def test_articulated_geometry_matches_the_seed():
    scene, _ = scene_for("dishwasher_close")
    assert scene.model.joint("bottom_tray").range[1] == pytest.approx(0.50)
    assert scene.model.joint("middle_tray").range[1] == pytest.approx(0.45)
    assert scene.model.joint("dishwasher_door").range[1] == pytest.approx(np.pi / 2)
    plinth = scene.model.geom("dishwasher_plinth").id
    assert scene.data.geom_xpos[plinth][2] + scene.model.geom_size[plinth][2] == \
        pytest.approx(0.25)
    door = scene.model.geom("door_panel").id  # open: lies flat between 0.41 and 0.50 m
    z, half = scene.data.geom_xpos[door][2], scene.data.geom_xmat[door].reshape(3, 3)
    extent = np.abs(half) @ scene.model.geom_size[door]
    assert (z - extent[2], z + extent[2]) == pytest.approx((0.41, 0.50), abs=1e-6)


def _yaw(quat: np.ndarray) -> float:
    axis = pred.axis_in_world(quat, np.array([1.0, 0.0, 0.0]))
    return float(np.arctan2(axis[1], axis[0]))


def _lean(quat: np.ndarray) -> tuple[float, float]:
    """Lean from vertical (degrees) and its azimuth (rad) of a body's local +z."""
    axis = pred.axis_in_world(quat, UP)
    return pred.angle_deg(axis, UP), float(np.arctan2(axis[1], axis[0]))


def _wrapped_deg(angle: float) -> float:
    return float(np.degrees(np.angle(np.exp(1j * angle))))


def test_load_cups_reset_ranges():
    for seed in SEEDS:
        s, _ = scene_for("dishwasher_load_cups", seed)
        for cup, y in zip(("cup_a", "cup_b"), dw.CUPS_Y, strict=True):
            p = s.pos(cup)
            assert abs(p[0] - dw.CUPS_X) <= 0.05 + 1e-9 and abs(p[1] - y) <= 0.02 + 1e-9
            assert 0.65 - 0.01 <= p[0] <= 0.75 + 0.01  # from a pelvis settled within 0.01 m
            assert pred.points_down_within(s.quat(cup), 0.5)
            assert abs(_wrapped_deg(np.pi - abs(_yaw(s.quat(cup))))) <= 30 + 1e-6
        assert abs(s.pos("cup_b")[1] - s.pos("cup_a")[1] - 0.15) <= 0.04 + 1e-9


def test_load_cutlery_reset_ranges():
    for seed in SEEDS:
        s, _ = scene_for("dishwasher_load_cutlery", seed)
        mug = s.pos("mug")
        assert np.all(np.abs(mug[:2] - dw.MUG_XY) <= dw.ITEM_JITTER + 1e-9)
        mug_yaw = _yaw(s.quat("mug"))
        assert abs(mug_yaw) <= np.pi / 2 + 1e-9
        (lean_k, az_k), (lean_f, az_f) = _lean(s.quat("knife")), _lean(s.quat("fork"))
        assert lean_k == pytest.approx(20.0) and lean_f == pytest.approx(20.0)
        assert abs(abs(_wrapped_deg(az_f - az_k)) - 90.0) <= 10.0 + 1e-6
        assert abs(_wrapped_deg(az_k - mug_yaw)) <= 5.0 + 1e-6
        for item in ("knife", "fork"):  # handle end inside the mug, near its floor
            end = s.pos(item) - dst.HANDLE_END * pred.axis_in_world(s.quat(item), UP)
            assert pred.horizontal_distance(end, mug) < dw.MUG_RADIUS - 0.01
            assert end[2] - (mug[2] - dw.MUG_HEIGHT / 2) < 0.03


def test_plate_reset_ranges():
    for seed in SEEDS:
        s, _ = scene_for("dishwasher_load_plates", seed)
        rack = s.pos("drainer")
        assert np.all(np.abs(rack[:2] - dw.DRAINER_XY) <= dw.ITEM_JITTER + 1e-9)
        offsets = np.round(rack_slot_offsets(), 4)
        slots = {int(np.flatnonzero(offsets == round(float(s.pos(p)[1] - rack[1]), 4))[0])
                 for p in ("plate_a", "plate_b")}
        assert len(slots) == 2 and slots <= set(dw.DRAINER_ODD_SLOTS)
        u, _ = scene_for("dishwasher_unload_plates", seed)
        centres = ds.bottom_slot_centres(u)
        used = {int(np.argmin(np.linalg.norm(centres - u.pos(p), axis=1)))
                for p in ("plate_a", "plate_b")}
        assert len(used) == 2 and used <= set(dw.BOTTOM_START_SLOTS)
        for p in ("plate_a", "plate_b"):
            assert pred.facing(u.quat(p), dw.RIGHT, 1.0) and pred.facing(s.quat(p), dw.RIGHT, 1.0)
        long, _ = scene_for("dishwasher_unload_plates_long", seed)
        assert np.all(np.abs(long.pos("drainer")[:2] - dw.WALL_RACK_XY)
                      <= dw.WALL_RACK_JITTER + 1e-9)


def test_unload_cups_reset_ranges():
    for seed in SEEDS:
        s, _ = scene_for("dishwasher_unload_cups", seed)
        spots = dw.middle_tray_spots(s)
        used = set()
        for cup in ("cup_a", "cup_b"):
            distance = np.linalg.norm(spots - s.pos(cup)[:2], axis=1)
            assert distance.min() < 1e-9
            used.add(int(np.argmin(distance)))
            assert pred.points_down_within(s.quat(cup), 0.5)
            assert abs(abs(_yaw(s.quat(cup))) - np.pi / 2) <= np.radians(5) + 1e-9
        assert len(used) == 2


def test_unload_cutlery_reset_ranges():
    for seed in SEEDS:
        s, _ = scene_for("dishwasher_unload_cutlery", seed)
        tray = s.pos("cutlery_tray")
        assert np.all(np.abs(tray[:2] - dw.CUTLERY_TRAY_XY) <= dw.ITEM_JITTER + 1e-9)
        cells = ds.basket_cells(s)
        used = set()
        for item in ("knife", "fork"):
            lean, _ = _lean(s.quat(item))
            assert lean <= 30.0 + 1e-6
            end = s.pos(item) - dst.HANDLE_END * pred.axis_in_world(s.quat(item), UP)
            distance = np.linalg.norm(cells[:, :2] - end[:2], axis=1)
            used.add(int(np.argmin(distance)))
            assert distance.min() < 0.01
        assert len(used) == 2


@pytest.mark.parametrize("task", ["dishwasher_load_cutlery", "dishwasher_unload_cutlery",
                                  "dishwasher_unload_plates", "dishwasher_load_cups",
                                  "dishwasher_unload_cups"])
def test_props_stay_in_place_through_the_reset_warmup(task):
    """After 4 s of physics (the warmup is 200 control steps) the props are where the
    task put them: in the mug, the basket, the tray slots or on the counter."""
    scene, instance = scene_for(task)
    mujoco.mj_step(scene.model, scene.data, nstep=4000)
    assert instance.fail(scene) is None
    if task == "dishwasher_load_cutlery":
        for item in ("knife", "fork"):
            assert scene.touches(scene.geoms(item), scene.geoms("mug"))
    elif task == "dishwasher_unload_cutlery":
        for item in ("knife", "fork"):
            assert scene.touches(scene.geoms(item), scene.geoms("basket"))
    elif task == "dishwasher_unload_plates":
        for plate in ("plate_a", "plate_b"):
            assert scene.touches(scene.geoms(plate), scene.geoms("bottom_tray"))
            assert pred.on_edge_within(scene.quat(plate), 5.0)
    elif task == "dishwasher_unload_cups":
        for cup in ("cup_a", "cup_b"):
            assert scene.touches(scene.geoms(cup), scene.geoms("middle_tray"))
    else:
        for cup in ("cup_a", "cup_b"):
            assert scene.touches(scene.geoms(cup), scene.geom("counter_top"))


# ----- (b) success after exactly the hold ---------------------------------------------------

@pytest.mark.parametrize("task", TASKS)
def test_constructed_success_counts_after_exactly_50_steps(task):
    scene, instance = scene_for(task)
    dst.success_state(instance, scene)
    layers.assert_success_after_exactly_the_hold(scene, instance)


@pytest.mark.parametrize("task", TASKS)
def test_constructed_success_survives_physics_in_the_env(task):
    layers.assert_success_survives_physics(task, lambda env: dst.success_state(env.task, env.scene))


def test_metrics_report_the_normalised_parts():
    scene, instance = scene_for("dishwasher_unload_cups_long")
    dst.set_parts(scene, bottom_tray=0.5, wall_door_left=0.25)
    metrics = instance.metrics(scene)
    assert metrics["bottom_tray_position"] == pytest.approx(0.5)
    assert metrics["wall_door_left_position"] == pytest.approx(0.25)
    assert metrics["dishwasher_door_position"] == pytest.approx(1.0)
    assert set(instance.clauses(scene)) <= set(metrics)


# ----- (c) near misses ---------------------------------------------------------------------

def _broken(task: str, edit) -> set[str]:
    scene, instance = scene_for(task)
    dst.success_state(instance, scene)
    edit(scene)
    dst.forward(scene)
    assert not instance.success(scene)
    return {name for name, value in instance.clauses(scene).items() if not value}


def _held(body: str, geom: str | None = None, offset=(0.0, 0.0, 0.0)):
    """Put the left pad on a body (or one of its geoms), plus ``offset``."""
    def edit(scene: Scene) -> None:
        point = scene.pos(body) if geom is None else \
            scene.data.geom_xpos[scene.model.geom(geom).id]
        dst.touch_with_left_pad(scene, point + np.array(offset))
    return edit


def _lift(body: str, dz: float):
    def edit(scene: Scene) -> None:
        scene.set_free_pose(body, scene.pos(body) + np.array([0.0, 0.0, dz]), scene.quat(body))
    return edit


def _part(joint: str, value: float):
    return lambda s: dst.set_parts(s, **{joint: value})


# Just past each tolerance: 0.05 of the travel is 4.5 degrees, 0.025 m or 0.0225 m.
PAST_CLOSED, PAST_OPEN, PAST_LONG = 0.052, 0.948, 0.102

NEAR_MISSES: dict[str, list] = {
    "dishwasher_close": [(_part(j, PAST_CLOSED), {f"{j}_closed"}) for j in ds.DISHWASHER_JOINTS],
    "dishwasher_close_trays": [(_part(j, PAST_CLOSED), {f"{j}_closed"})
                               for j in ("bottom_tray", "middle_tray")],
    "dishwasher_open": [(_part(j, PAST_OPEN), {f"{j}_open"}) for j in ds.DISHWASHER_JOINTS],
    "dishwasher_open_trays": [(_part(j, PAST_OPEN), {f"{j}_open"})
                              for j in ("bottom_tray", "middle_tray")],
    "dishwasher_load_cups": [
        *((_lift(cup, 0.01), {f"{cup}_touches_middle_tray"}) for cup in ("cup_a", "cup_b")),
        *((_held(cup, offset=(-dw.CUP_RADIUS, 0, 0)), {f"{cup}_released"})
          for cup in ("cup_a", "cup_b")),
    ],
    "dishwasher_unload_cups": [
        *((_lift(cup, 0.01), {f"{cup}_touches_counter"}) for cup in ("cup_a", "cup_b")),
        *((_held(cup, offset=(-dw.CUP_RADIUS, 0, 0)), {f"{cup}_released"})
          for cup in ("cup_a", "cup_b")),
    ],
    "dishwasher_unload_cups_long": [
        (_lift("cup", 0.01), {"cup_on_wall_shelf"}),
        (_held("cup", offset=(-dw.CUP_RADIUS, 0, 0)), {"cup_released"}),
        *((_part(j, PAST_LONG), {"dishwasher_closed"}) for j in ds.DISHWASHER_JOINTS),
        *((_part(j, PAST_LONG), {"wall_cabinet_closed"}) for j in ds.WALL_DOORS),
    ],
    "dishwasher_load_cutlery": [
        *((_lift(item, 0.2), {f"{item}_in_basket"}) for item in ("knife", "fork")),
        *((_held(item, f"{item}_handle", (0, 0, 0.04)), {f"{item}_released"})
          for item in ("knife", "fork")),
    ],
    "dishwasher_unload_cutlery": [
        *((_lift(item, 0.05), {f"{item}_in_tray"}) for item in ("knife", "fork")),
        *((_held(item, f"{item}_handle"), {f"{item}_released"}) for item in ("knife", "fork")),
    ],
    "dishwasher_unload_cutlery_long": [
        (_lift("fork", 0.01), {"fork_in_drawer_tray"}),
        (_held("fork", "fork_handle"), {"fork_released"}),
        *((_part(j, PAST_LONG), {"dishwasher_closed"}) for j in ds.DISHWASHER_JOINTS),
        (_part("drawer", PAST_LONG), {"drawer_closed"}),
    ],
    "dishwasher_load_plates": [
        (lambda s: dst.seat_in_bottom_tray(s, "plate_a", 2, yaw_deg=21.0), {"plate_a_on_edge"}),
        (lambda s: dst.seat_in_bottom_tray(s, "plate_b", 5, yaw_deg=-21.0), {"plate_b_on_edge"}),
        *((_lift(p, 0.04), {f"{p}_touches_bottom_tray"}) for p in ("plate_a", "plate_b")),
        *((_held(p, offset=(0, 0, 0.11)), {f"{p}_released"}) for p in ("plate_a", "plate_b")),
    ],
    "dishwasher_unload_plates": [
        *((_lift(p, 0.04), {f"{p}_touches_drainer"}) for p in ("plate_a", "plate_b")),
        *((_held(p, offset=(0, 0, 0.11)), {f"{p}_released"}) for p in ("plate_a", "plate_b")),
    ],
    "dishwasher_unload_plates_long": [
        (_lift("plate", 0.04), {"plate_touches_drainer"}),
        (_held("plate", offset=(0, 0, 0.11)), {"plate_released"}),
        *((_part(j, PAST_LONG), {"dishwasher_closed"}) for j in ds.DISHWASHER_JOINTS),
        *((_part(j, PAST_LONG), {"wall_cabinet_closed"}) for j in ds.WALL_DOORS),
    ],
}


@pytest.mark.parametrize(("task", "index"), [(t, i) for t, cases in NEAR_MISSES.items()
                                             for i in range(len(cases))])
def test_near_miss_breaks_exactly_one_clause(task, index):
    edit, expected = NEAR_MISSES[task][index]
    assert _broken(task, edit) == expected


@pytest.mark.parametrize("task", TASKS)
def test_every_clause_has_a_near_miss(task):
    scene, instance = scene_for(task)
    dst.success_state(instance, scene)
    covered = set().union(*(expected for _, expected in NEAR_MISSES[task]))
    assert covered == set(instance.clauses(scene))


def test_on_edge_tolerance_is_20_degrees_either_way():
    scene, instance = scene_for("dishwasher_load_plates")
    dst.success_state(instance, scene)
    for yaw, ok in ((19.0, True), (-19.0, True), (180.0, True), (159.0, False)):
        dst.seat_in_bottom_tray(scene, "plate_a", 2, yaw_deg=yaw)
        dst.forward(scene)
        assert instance.clauses(scene)["plate_a_on_edge"] is ok, yaw


def test_tolerances_in_metres_and_degrees():
    scene, _ = scene_for("dishwasher_close")
    dst.set_parts(scene, dishwasher_door=PAST_CLOSED, bottom_tray=PAST_CLOSED,
                  middle_tray=PAST_CLOSED)
    assert np.degrees(ds.joint_value(scene, "dishwasher_door")) == pytest.approx(4.68)
    assert ds.joint_value(scene, "bottom_tray") == pytest.approx(0.026)
    assert ds.joint_value(scene, "middle_tray") == pytest.approx(0.0234)


# ----- (d) fail-fast -----------------------------------------------------------------------

def drop(scene: Scene, body: str) -> None:
    """Let a body fall onto the floor beside the robot (1 s of physics); everything
    else keeps its state."""
    scene.set_free_pose(body, [-1.0, -1.5, 0.3])
    before = scene.data.qpos.copy()
    mujoco.mj_step(scene.model, scene.data, nstep=1000)
    adr = scene.model.joint(f"{body}_free").qposadr[0]
    before[adr:adr + 7] = scene.data.qpos[adr:adr + 7]
    scene.data.qpos[:] = before
    scene.data.qvel[:] = 0.0
    dst.forward(scene)


FAIL_FAST = [(t, body) for t in TASKS if t not in FIXED
             for body in make_task(t).floor_objects()]


@pytest.mark.parametrize(("task", "body"), FAIL_FAST)
def test_fail_fast_fires_when_an_object_touches_the_floor(task, body):
    scene, instance = scene_for(task)
    drop(scene, body)
    monitor = TaskMonitor(instance, scene.model)
    status = monitor.update(scene.data.qpos, scene.data.qvel, 1.0)
    assert status.done and status.termination is Termination.TERMINATED
    assert status.reason == f"fail-fast: {body} touched the floor"


def test_every_object_task_has_fail_fast_on_all_its_objects():
    expected = {"dishwasher_load_cups": ("cup_a", "cup_b"),
                "dishwasher_unload_cups": ("cup_a", "cup_b"),
                "dishwasher_unload_cups_long": ("cup",),
                "dishwasher_load_cutlery": ("knife", "fork"),
                "dishwasher_unload_cutlery": ("knife", "fork"),
                "dishwasher_unload_cutlery_long": ("fork",),
                "dishwasher_load_plates": ("plate_a", "plate_b"),
                "dishwasher_unload_plates": ("plate_a", "plate_b"),
                "dishwasher_unload_plates_long": ("plate",)}
    assert {t: make_task(t).floor_objects() for t in TASKS if t not in FIXED} == expected


@pytest.mark.parametrize("task", FIXED)
def test_door_and_tray_tasks_have_no_fail_fast(task):
    scene, instance = scene_for(task)
    assert instance.fail(scene) is None
    dst.success_state(instance, scene)
    assert instance.fail(scene) is None
    dst.touch_with_left_pad(scene, np.array([0.0, 0.0, 0.02]))  # robot's hand on the floor
    assert scene.touches(scene.pads, scene.floor)
    assert instance.fail(scene) is None


def test_mug_on_the_floor_is_no_fail_fast():
    """Only the cutlery counts: the mug may be knocked off (the seed names the items)."""
    scene, instance = scene_for("dishwasher_load_cutlery")
    drop(scene, "mug")
    assert scene.touches(scene.geoms("mug"), scene.floor)
    assert instance.fail(scene) is None


def robot_away(scene: Scene) -> None:
    """Move the (uncontrolled) robot 3 m away so that it falls clear of the furniture."""
    adr = scene.model.joint(c.FREE_JOINT).qposadr[0]
    scene.data.qpos[adr:adr + 2] = [-3.0, -3.0]
    dst.forward(scene)


@pytest.mark.parametrize(("start", "after"), [(0.1, (0.09, 0.11)), (0.14, (0.13, 0.15)),
                                              (0.2, (0.99, 1.0)), (0.6, (0.99, 1.0))])
def test_door_stays_shut_below_15_degrees_and_falls_open_beyond(start, after):
    scene, _ = scene_for("dishwasher_open")
    robot_away(scene)
    dst.set_parts(scene, dishwasher_door=start)
    mujoco.mj_step(scene.model, scene.data, nstep=3000)
    assert after[0] <= ds.normalised(scene, "dishwasher_door") <= after[1] + 1e-3


def test_trays_and_drawer_stay_where_they_are_put():
    scene, _ = scene_for("dishwasher_unload_cutlery_long")
    robot_away(scene)
    parts = {"bottom_tray": 0.5, "middle_tray": 0.3, "drawer": 0.6}
    dst.set_parts(scene, **parts)
    mujoco.mj_step(scene.model, scene.data, nstep=2000)
    for joint, value in parts.items():
        assert ds.normalised(scene, joint) == pytest.approx(value, abs=0.01), joint
