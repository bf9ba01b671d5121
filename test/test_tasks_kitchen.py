"""The nineteen kitchen-counter tasks, in the four layers of test_tasks.py:
(a) determinism and documented reset ranges, (b) success reachable after exactly the
hold, (c) near misses, one clause at a time, (d) fail-fast; plus the kitchen geometry
the seed fixes and the g1_id_v1 initialization profile."""

from __future__ import annotations

import kitchen_states as kst
import mujoco
import numpy as np
import pytest
import task_layers as layers
import task_states as ts
from task_layers import scene_for

from bench import predicates as pred
from bench.env import make
from bench.monitor import TaskMonitor, Termination
from bench.robot import constants as c
from bench.tasks import TASKS, make_task
from bench.tasks import kitchen as kt
from bench.tasks import kitchen_scene as ks
from bench.tasks.base import Scene

KITCHEN = sorted(cls.name for cls in kt.TASK_CLASSES)
SEEDS = range(620000, 620030)
NO_RESET = {"wall_cupboard_open", "wall_cupboard_close"}
SANDWICH = ("sandwich_remove", "sandwich_toast", "sandwich_flip")


def task_state(scene: Scene) -> np.ndarray:
    """qpos of everything a reset may set: the robot's free base, every free prop and
    every drawer and door."""
    m = scene.model
    robot = set(c.JOINTS)
    parts = [scene.data.qpos[m.jnt_qposadr[j]:m.jnt_qposadr[j] + (7 if m.jnt_type[j] == 0 else 1)]
             for j in range(m.njnt) if m.joint(j).name not in robot]
    return np.concatenate(parts)


def _yaw(quat: np.ndarray) -> float:
    axis = pred.axis_in_world(quat, np.array([1.0, 0.0, 0.0]))
    return float(np.arctan2(axis[1], axis[0]))


def _wrapped_deg(angle: float) -> float:
    return float(np.degrees((angle + np.pi) % (2 * np.pi) - np.pi))


# ----- the scene ---------------------------------------------------------------------------

def test_every_kitchen_task_is_registered_with_a_scene():
    specs = {name for name, spec in TASKS.items() if spec.group == "kitchen counter"}
    assert specs == set(KITCHEN) and len(KITCHEN) == 19
    for task in KITCHEN:
        assert isinstance(make_task(task), kt._Kitchen), task


def test_wall_cabinet_and_counter_heights_follow_the_seed():
    scene, _ = scene_for("wall_cupboard_close")
    top = scene.model.geom("wall_shelf_bottom").id
    shelf = scene.data.geom_xpos[top][2] + scene.model.geom_size[top][2]
    assert shelf == pytest.approx(1.15)  # bottom shelf at about 1.15 m
    handles = [scene.data.geom_xpos[scene.model.geom(f"{d}_handle").id][2] for d in ks.WALL_DOORS]
    assert np.allclose(handles, 1.2, atol=0.03)  # handles at about 1.2 m
    # open doors: free edges 0.64 m ahead of the origin (the settled pelvis, one step)
    for door in ks.WALL_DOORS:
        g = scene.model.geom(f"{door}_panel").id
        corners = _box_corners(scene, g)
        assert np.min(corners[:, 0]) == pytest.approx(0.64, abs=0.015)
    counter = scene.model.geom("counter_top").id
    assert scene.data.geom_xpos[counter][2] + scene.model.geom_size[counter][2] == \
        pytest.approx(ks.COUNTER_TOP)
    box, _ = scene_for("pick_box")
    g = box.model.geom("counter_top").id
    assert box.data.geom_xpos[g][2] + box.model.geom_size[g][2] == pytest.approx(0.71)
    g = box.model.geom("side_table_top").id
    assert box.data.geom_xpos[g][2] + box.model.geom_size[g][2] == pytest.approx(0.50)
    assert box.model.body_mass[box.model.body("box").id] == pytest.approx(3.0)


def _box_corners(scene: Scene, geom: int) -> np.ndarray:
    size = scene.model.geom_size[geom]
    mat = scene.data.geom_xmat[geom].reshape(3, 3)
    signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    return scene.data.geom_xpos[geom] + (signs * size) @ mat.T


def test_parts_travel_0_38_m_and_90_degrees():
    scene, _ = scene_for("cupboards_close_all")
    for part in ks.ARTICULATIONS:
        travel = scene.model.joint(ks.joint_name(part)).range[1]
        assert travel == pytest.approx(ks.DRAWER_TRAVEL if part in ks.DRAWERS else np.pi / 2)
        ks.set_opening(scene, part, 0.9)
        assert ks.opening(scene, part) == pytest.approx(0.9)
    # a fully open drawer comes 0.38 m toward the robot; open doors swing toward it
    ts.forward(scene)
    before = scene.pos("drawer_top")[0]
    ks.set_opening(scene, "drawer_top", 0.0)
    ts.forward(scene)
    assert scene.pos("drawer_top")[0] - before == pytest.approx(0.9 * 0.38)


@pytest.mark.parametrize("task", KITCHEN)
def test_props_and_parts_stay_put_through_the_warmup(task):
    """After the 200-step warmup (4 s of physics) of the floating-base env, every prop
    is within 5 mm of where the reset put it and no drawer or door has moved."""
    drawn, _ = scene_for(task)
    env = make(task, controller=None, camera_keys=())
    try:
        env.reset(seed=620000)
        m = env.world.model
        props = [m.joint(j).name.removesuffix("_free") for j in range(m.njnt)
                 if m.jnt_type[j] == 0 and m.joint(j).name != c.FREE_JOINT]
        for body in props:
            assert np.linalg.norm(env.scene.pos(body) - drawn.pos(body)) < 0.005, body
        for part in ks.ARTICULATIONS:
            assert ks.opening(env.scene, part) == pytest.approx(ks.opening(drawn, part),
                                                                abs=1e-3), part
    finally:
        env.close()


def test_metrics_report_clauses_and_every_part_position():
    scene, instance = scene_for("cupboards_close_all")
    metrics = instance.metrics(scene)
    for name, value in instance.clauses(scene).items():
        assert metrics[name] == float(value)
    for part in ks.ARTICULATIONS:
        assert metrics[f"{part}_position"] == pytest.approx(ks.opening(scene, part))
        assert 0.85 - 1e-9 <= metrics[f"{part}_position"] <= 1.0


def test_reset_scene_has_no_interpenetration():
    for task in KITCHEN:
        scene, _ = scene_for(task)
        deepest = min((scene.data.contact[i].dist for i in range(scene.data.ncon)), default=0.0)
        assert deepest > -0.002, task


# ----- (a) determinism and ranges -------------------------------------------------------

@pytest.mark.parametrize("task", KITCHEN)
def test_same_seed_same_state_and_seeds_differ(task):
    a, _ = scene_for(task, 620003)
    b, _ = scene_for(task, 620003)
    c_, _ = scene_for(task, 620004)
    assert np.array_equal(task_state(a), task_state(b))
    if task in NO_RESET:  # "Reset: none": every seed starts the same
        assert np.array_equal(task_state(a), task_state(c_))
    else:
        assert not np.allclose(task_state(a), task_state(c_))


@pytest.mark.parametrize("task", ["drawer_top_open", "drawer_top_close", "drawers_open_all",
                                  "drawers_close_all", "cupboards_open_all",
                                  "cupboards_close_all", "wall_cupboard_open",
                                  "wall_cupboard_close"])
def test_articulation_resets_stay_in_their_ranges(task):
    instance = make_task(task)
    for seed in SEEDS:
        scene, _ = scene_for(task, seed)
        for part in ks.ARTICULATIONS:
            value = ks.opening(scene, part)
            start = (instance.drawer_start if part in ks.DRAWERS else instance.door_start) \
                if part in instance.parts else None
            low, high = start if start is not None else (0.0, 0.0)
            assert low - 1e-9 <= value <= high + 1e-9, (task, part, value)


def test_g1_id_v1_spawn_stays_in_its_range():
    yaws = []
    for seed in SEEDS:
        for task in ("drawer_top_open", "drawer_top_close"):
            scene, _ = scene_for(task, seed)
            base = scene.pos("pelvis")
            assert 0.12 - 1e-9 <= base[0] <= 0.14 + 1e-9 and abs(base[1]) <= 0.05 + 1e-9
            yaws.append(_wrapped_deg(_yaw(scene.quat("pelvis"))))
            upstream, _ = scene_for(task, seed, profile="upstream")
            assert np.allclose(upstream.pos("pelvis")[:2], 0.0)
            assert ks.opening(upstream, "drawer_top") == ks.opening(scene, "drawer_top")
    assert max(np.abs(yaws)) <= 5.0 + 1e-6 and np.ptp(yaws) > 5.0


def test_box_resets_stay_in_their_ranges():
    yaws = []
    for seed in SEEDS:
        s, inst = scene_for("pick_box", seed)
        box = s.pos("box")
        assert np.all(np.abs(box[:2] - kt.SIDE_TABLE_CENTER) <= kt.BOX_JITTER + 1e-9)
        assert box[2] - ks.BOX_HALF[2] == pytest.approx(kt.SIDE_TABLE_TOP, abs=0.0015)
        assert pred.upright_within(s.quat("box"), 0.1)
        yaws.append(_yaw(s.quat("box")))
        # 0.7 m ahead, 1 m to the right
        assert np.allclose(kt.SIDE_TABLE_CENTER, (0.7, -1.0))
        t, inst = scene_for("store_box", seed)
        local = t.pos("box") - inst.kitchen.world(0.25, -0.60, 0.0)
        assert np.all(np.abs(local[:2]) <= kt.BOX_JITTER + 1e-9)
        assert abs(_wrapped_deg(_yaw(t.quat("box")))) <= 15 + 1e-6
        assert ks.opening(t, "cabinet_right_door") == 1.0
    assert np.ptp(yaws) > np.pi  # random yaw


def test_cup_resets_stay_in_their_ranges():
    for seed in SEEDS:
        s, inst = scene_for("put_cups", seed)
        spots = set()
        for cup in kt.CUPS:
            local = s.pos(cup) - inst.kitchen.world(kt.CUP_SPOTS_X, 0.0, 0.0)
            distances = np.abs(np.array(kt.CUP_SPOTS_Y) - local[1])
            spot = int(np.argmin(distances))
            assert distances[spot] <= kt.CUP_JITTER + 1e-9 and abs(local[0]) <= kt.CUP_JITTER + 1e-9
            spots.add(spot)
            assert pred.upright_within(s.quat(cup), 0.1)
            assert abs(abs(_wrapped_deg(_yaw(s.quat(cup)))) - 180) <= 30 + 1e-6
        assert len(spots) == 2
        assert all(ks.opening(s, door) == 0.0 for door in ks.WALL_DOORS)
        t, inst = scene_for("take_cups", seed)
        for cup, spot in zip(kt.CUPS, kt.SHELF_CUP_SPOTS, strict=True):
            local = t.pos(cup) - inst.kitchen.world(*spot, 0.0)
            assert np.all(np.abs(local[:2]) <= 0.02 + 1e-9)
            assert t.pos(cup)[2] - kt.CUP_HEIGHT / 2 == pytest.approx(ks.WALL_BOTTOM + 0.001)


def test_saucepan_resets_stay_in_their_ranges():
    for seed in SEEDS:
        s, inst = scene_for("saucepan_to_hob", seed)
        local = s.pos("saucepan") - inst.kitchen.world(*kt.SAUCEPAN_SHELF, 0.0)
        assert np.all(np.abs(local[:2]) <= kt.SAUCEPAN_JITTER + 1e-9)
        assert local[2] == pytest.approx(inst.kitchen.shelf_top(), abs=0.0015)
        assert abs(_wrapped_deg(_yaw(s.quat("saucepan"))) - 90) <= 20 + 1e-6
        # the handle points at the robot, and the closed door clears it
        handle = s.data.geom_xpos[s.model.geom("saucepan_handle").id]
        assert handle[0] < s.pos("saucepan")[0]
        assert ks.opening(s, "cabinet_left_door") == 0.0


@pytest.mark.parametrize("task", SANDWICH)
def test_sandwich_resets_stay_in_their_ranges(task):
    for seed in SEEDS:
        s, inst = scene_for(task, seed)
        pan = s.pos("pan")
        assert np.all(np.abs(pan[:2] - inst.kitchen.world(*kt.PAN_ON_HOB, 0)[:2]) <= 0.02 + 1e-9)
        yaw = _yaw(s.quat("pan"))
        assert abs(np.degrees(yaw)) <= 15 + 1e-6
        # the spatula keeps its offset in the pan's frame
        offset = pred.axis_in_world(s.quat("pan"), [*kt.SPATULA_OFFSET, 0.0])
        assert np.allclose(s.pos("spatula")[:2], pan[:2] + offset[:2])
        assert _yaw(s.quat("spatula")) == pytest.approx(yaw)
        assert abs(np.degrees(_yaw(s.quat("board")))) <= 5 + 1e-6
        if task == "sandwich_toast":
            assert pred.horizontal_distance(s.pos("sandwich"), s.pos("board")) <= 0.03
        else:
            assert np.all(np.abs(s.pos("sandwich")[:2] - pan[:2]) <= kt.SANDWICH_JITTER + 1e-9)
        assert pred.upright_within(s.quat("sandwich"), 0.1)  # toasted face up


def test_kitchenware_resets_stay_in_their_ranges():
    for seed in SEEDS:
        s, inst = scene_for("store_kitchenware", seed)
        for body, xy, yaw in (("pan", (0.30, 0.47), 0.0), ("saucepan", (0.28, 0.74), 90.0)):
            local = s.pos(body) - inst.kitchen.world(*xy, 0.0)
            assert np.all(np.abs(local[:2]) <= kt.PAN_JITTER + 1e-9)
            assert abs(_wrapped_deg(_yaw(s.quat(body)) - np.radians(yaw))) <= 15 + 1e-6
        assert ks.opening(s, "cabinet_left_door") == 1.0


@pytest.mark.parametrize("task", ["store_groceries_lower", "store_groceries_upper"])
def test_grocery_resets_draw_a_random_set(task):
    counts = set()
    for seed in SEEDS:
        s, inst = scene_for(task, seed)
        on_counter = [g for g in ks.GROCERIES if s.pos(g)[2] < inst.kitchen.top + 0.15
                      and s.pos(g)[2] > inst.kitchen.top]
        counts.add(len(on_counter))
        for name in on_counter:
            local = s.pos(name) - inst.kitchen.world(0.2, 0.0, 0.0)
            assert abs(local[0]) <= kt.GROCERY_JITTER + 1e-9
            assert np.min(np.abs(np.array(kt.GROCERY_SPOTS_Y) - local[1])) <= kt.GROCERY_JITTER \
                + 1e-9
        mujoco.mj_step(s.model, s.data, nstep=50)  # settle the last millimetre
        for name in set(ks.GROCERIES) - set(on_counter):  # the others start stored
            assert inst.clauses(s)[f"{name}_stored"], (seed, name)
    assert counts == {2, 3, 4}


# ----- (b) success after exactly the hold ---------------------------------------------------

@pytest.mark.parametrize("task", KITCHEN)
def test_constructed_success_counts_after_exactly_50_steps(task):
    scene, instance = scene_for(task)
    kst.success_state(task, scene, instance)
    layers.assert_success_after_exactly_the_hold(scene, instance)


@pytest.mark.parametrize("task", KITCHEN)
def test_constructed_success_survives_physics_in_the_env(task):
    layers.assert_success_survives_physics(
        task, lambda env: kst.success_state(task, env.scene, env.task))


# ----- (c) near misses ---------------------------------------------------------------------

def _articulation_misses(task: str) -> list:
    instance = make_task(task)
    miss = 1.0 - kt.TOLERANCE - 0.01 if instance.goal_open else kt.TOLERANCE + 0.01
    suffix = "open" if instance.goal_open else "closed"
    return [(kst.part_at(part, miss), {f"{part}_{suffix}"}) for part in instance.parts]


def _object_misses(bodies: tuple[str, ...], where: str) -> list:
    out = []
    for body in bodies:
        out.append((kst.lift(body), {f"{body}_{where}"}))
        offset = (kt.CUP_RADIUS, 0.0, 0.0) if body in kt.CUPS else (0.0, 0.0, 0.0)  # hollow
        if body in ks.GROCERIES:  # on the top face, clear of the neighbours
            offset = (0.0, 0.0, ks.grocery_half_height(body))
        out.append((kst.held_at(body, offset), {f"{body}_released"}))
    return out


def _sandwich_misses(task: str) -> list:
    support, top, touches = ("board", ks.BOARD_HALF[2], "sandwich_touches_board") \
        if task == "sandwich_remove" else ("pan", 0.008, "sandwich_touches_pan")
    flat = "sandwich_face_down" if task == "sandwich_flip" else "sandwich_flat"
    flipped = task == "sandwich_flip"
    return [
        (lambda s: kst.tilted_sandwich(s, support, top, 11.0, upside_down=flipped), {flat}),
        (kst.lift("sandwich"), {touches}),
    ]


NEAR_MISSES = {
    **{task: _articulation_misses(task) for task in KITCHEN
       if issubclass(type(make_task(task)), kt._Articulation)},
    "pick_box": [
        (kst.lift("box"), {"box_touches_counter"}),
        (kst.box_past_front_edge, {"box_over_counter"}),
        (kst.box_on_edge(40.0), {"box_bottom_on_counter"}),
        (kst.held_at("box", (-ks.BOX_HALF[0], 0.0, 0.0)), {"box_released"}),
    ],
    "store_box": [(kst.lift("box"), {"box_on_cabinet_shelf"}),
                  (kst.held_at("box", (-ks.BOX_HALF[0], 0.0, 0.0)), {"box_released"})],
    "put_cups": _object_misses(kt.CUPS, "on_wall_shelf"),
    "take_cups": _object_misses(kt.CUPS, "on_counter"),
    "saucepan_to_hob": [(kst.lift("saucepan"), {"saucepan_touches_hob"}),
                        (kst.held_at("saucepan", (0.0, 0.0, 0.0)), {"saucepan_released"})],
    "store_kitchenware": _object_misses(("saucepan", "pan"), "in_cabinet"),
    "store_groceries_lower": _object_misses(tuple(ks.GROCERIES), "stored"),
    "store_groceries_upper": _object_misses(tuple(ks.GROCERIES), "stored"),
    **{task: _sandwich_misses(task) for task in SANDWICH},
}


def _broken(task: str, edit) -> set[str]:
    scene, instance = scene_for(task)
    kst.success_state(task, scene, instance)
    edit(scene)
    ts.forward(scene)
    assert not instance.success(scene)
    return {name for name, value in instance.clauses(scene).items() if not value}


@pytest.mark.parametrize(("task", "index"), [(t, i) for t, cases in NEAR_MISSES.items()
                                             for i in range(len(cases))])
def test_near_miss_breaks_exactly_one_clause(task, index):
    edit, expected = NEAR_MISSES[task][index]
    assert _broken(task, edit) == expected


def test_every_clause_has_a_near_miss():
    assert set(NEAR_MISSES) == set(KITCHEN)
    for task in KITCHEN:
        scene, instance = scene_for(task)
        kst.success_state(task, scene, instance)
        covered = set().union(*(expected for _, expected in NEAR_MISSES[task]))
        assert covered == set(instance.clauses(scene)), task


def test_held_near_misses_really_touch_a_pad():
    for task, body in (("pick_box", "box"), ("put_cups", "cup_b"), ("saucepan_to_hob", "saucepan"),
                       ("store_groceries_lower", "cereal")):
        scene, instance = scene_for(task)
        kst.success_state(task, scene, instance)
        offset = {"box": (-ks.BOX_HALF[0], 0.0, 0.0),
                  "cup_b": (kt.CUP_RADIUS, 0.0, 0.0)}.get(body, (0.0, 0.0, 0.0))
        kst.held_at(body, offset)(scene)
        assert scene.held(body), task


def test_a_box_pressed_against_the_counter_side_fails():
    """BiGym accepts a box pressed against the side of the counter; here it fails."""
    scene, instance = scene_for("pick_box")
    k = instance.kitchen
    front = k.world(0.0, -0.30, 0.0)[0]
    # its side against the top's front edge, its bottom 0.04 m below the top (above the
    # drawer fronts and doors)
    scene.set_free_pose("box", [front - ks.BOX_HALF[0] + 0.0005, k.world(0, -0.30, 0)[1],
                                k.top - 0.04 + ks.BOX_HALF[2]])
    ts.forward(scene)
    assert scene.touches(scene.geoms("box"), scene.geom("counter_top"))
    clauses = instance.clauses(scene)
    assert not clauses["box_over_counter"] and not clauses["box_bottom_on_counter"]
    assert not instance.success(scene)


def test_box_on_edge_is_touching_but_its_bottom_is_high():
    scene, instance = scene_for("pick_box")
    kst.success_state("pick_box", scene, instance)
    kst.box_on_edge(40.0)(scene)
    ts.forward(scene)
    bottom = kt.bottom_height(scene, "box", ks.BOX_HALF)
    assert bottom - 0.71 == pytest.approx(0.10 * np.cos(np.radians(40)), abs=0.001)
    assert scene.touches(scene.geoms("box"), scene.geom("counter_top"))


def _scoop(pitch_deg: float) -> tuple[mujoco.MjModel, mujoco.MjData]:
    """A sandwich on a floor (friction 1, as the pan's) and a spatula welded to a mocap
    body, pitched ``pitch_deg`` nose down with its edge pressed 2 mm into the floor 8 cm
    before the sandwich's centre, driven 10 cm on along +x in 2 s and held 1 s."""
    spec = mujoco.MjSpec()
    spec.worldbody.add_geom(type=mujoco.mjtGeom.mjGEOM_PLANE, size=[1, 1, 0.1],
                            friction=[1.0, 0.01, 0.001])
    ks.add_sandwich(spec)
    ks.add_spatula(spec)
    spec.worldbody.add_body(name="hand", mocap=True)
    spec.add_equality(type=mujoco.mjtEq.mjEQ_WELD, name1="hand", name2="spatula",
                      objtype=mujoco.mjtObj.mjOBJ_BODY)
    model = spec.compile()
    model.eq_data[0][:] = 0.0
    model.eq_data[0][[6, 10]] = 1.0  # the spatula at the mocap's pose; torque scale 1
    data = mujoco.MjData(model)
    half = np.radians(pitch_deg) / 2
    quat = np.array([np.cos(half), 0.0, np.sin(half), 0.0])
    rot = np.zeros(9)
    mujoco.mju_quat2Mat(rot, quat)
    length, _, thick = ks.SPATULA_BLADE
    body = np.array([-0.08, 0.0, -0.002]) - rot.reshape(3, 3) @ [length, 0.0, thick]
    for name, pos, q in (("sandwich", [0.0, 0.0, ks.SANDWICH_HALF[2]], [1.0, 0, 0, 0]),
                         ("spatula", body, quat)):
        adr = model.jnt_qposadr[model.body(name).jntadr[0]]
        data.qpos[adr:adr + 7] = [*pos, *q]
    data.mocap_quat[0] = quat
    steps = int(3.0 / model.opt.timestep)
    for k in range(steps):
        data.mocap_pos[0] = body + np.array([0.10 * min(1.0, k / (steps * 2 / 3)), 0.0, 0.0])
        mujoco.mj_step(model, data)
    return model, data


@pytest.mark.parametrize("pitch_deg", [10, 20])
def test_the_spatulas_bevelled_edge_slides_under_the_sandwich(pitch_deg):
    """Driven along a floor at 10-20 degrees nose down, the blade's bevelled edge goes
    under the sandwich and tips it up onto the blade; a square 4 mm front face pushed it
    along flat instead (3 degrees at most, 5-7 cm along)."""
    _, data = _scoop(pitch_deg)
    rot = data.body("sandwich").xmat.reshape(3, 3)
    assert np.degrees(np.arccos(rot[2, 2])) > 6.0
    assert data.body("sandwich").xpos[2] > ks.SANDWICH_HALF[2] + 0.005


def test_the_spatulas_blade_friction_governs_its_contacts():
    """The blade's geoms outrank the sandwich's in contact priority, so a contact between
    them has the blade's friction (0.4), not MuJoCo's larger-of-the-two (1.0)."""
    model, data = _scoop(20)
    blade = {model.geom("spatula_blade").id, model.geom("spatula_bevel").id}
    sandwich = model.geom("sandwich_bread").id
    frictions = [data.contact[i].friction[0] for i in range(data.ncon)
                 if {data.contact[i].geom1, data.contact[i].geom2} & blade
                 and sandwich in (data.contact[i].geom1, data.contact[i].geom2)]
    assert frictions and np.allclose(frictions, ks.BLADE_FRICTION[0])


# ----- (d) fail-fast -----------------------------------------------------------------------

@pytest.mark.parametrize("task", SANDWICH)
def test_a_gripper_touching_the_sandwich_fails_fast(task):
    scene, instance = scene_for(task)
    assert instance.fail(scene) is None
    kst.held_at("sandwich", (0.0, 0.0, ks.SANDWICH_HALF[2]))(scene)
    monitor = TaskMonitor(instance, scene.model)
    status = monitor.update(scene.data.qpos, scene.data.qvel, 1.0)
    assert status.done and status.termination is Termination.TERMINATED
    assert status.reason == "fail-fast: a gripper touched the sandwich"


def test_a_finger_touching_the_sandwich_also_fails_fast():
    scene, instance = scene_for("sandwich_remove")
    finger = scene.data.geom_xpos[scene.model.geom("right_gripper_finger_a_link").id]
    pad = scene.data.geom_xpos[scene.model.geom(c.GRIPPER_PADS["left"][0]).id]
    # move the robot so that the right finger link (not a pad) sits on the sandwich
    ts.touch_with_left_pad(scene, scene.pos("sandwich") + (pad - finger))
    assert scene.touches(scene.geom("right_gripper_finger_a_link"), scene.geoms("sandwich"))
    assert instance.fail(scene) == "a gripper touched the sandwich"


def _first_prop(scene: Scene) -> str | None:
    m = scene.model
    for j in range(m.njnt):
        name = m.joint(j).name
        if m.jnt_type[j] == 0 and name != c.FREE_JOINT:
            return name.removesuffix("_free")
    return None


@pytest.mark.parametrize("task", [t for t in KITCHEN if t not in SANDWICH])
def test_tasks_without_fail_fast_never_fire(task):
    scene, instance = scene_for(task)
    body = _first_prop(scene)
    if body is not None:  # a dropped object may be picked up again
        scene.set_free_pose(body, [1.5, 1.5, 0.3])
        mujoco.mj_step(scene.model, scene.data, nstep=800)
        assert scene.touches(scene.geoms(body), scene.floor)
        ts.touch_with_left_pad(scene, scene.pos(body))
    assert instance.fail(scene) is None


# ----- the g1_id_v1 initialization profile ---------------------------------------------------

def test_g1_id_v1_holds_the_top_drawer_through_the_warmup_only():
    env = make("drawer_top_open", controller=None, camera_keys=())
    try:
        session = env.session
        state = session.start(620000)
        env.backend.controller.reset(state)
        held = ks.opening(env.scene, "drawer_top")
        ks.set_opening(env.scene, "drawer_top", 0.5)  # a bump in the warmup
        session.physics(env.backend.controller.command(
            session.robot_state(), session.base_command, session.arm_targets))
        assert ks.opening(env.scene, "drawer_top") == pytest.approx(held)
        session.settle()
        ks.set_opening(env.scene, "drawer_top", 0.5)
        session.physics(env.backend.controller.command(
            session.robot_state(), session.base_command, session.arm_targets))
        assert ks.opening(env.scene, "drawer_top") == pytest.approx(0.5, abs=0.01)
    finally:
        env.close()


def test_g1_id_v1_env_spawns_in_range_and_upstream_at_the_origin():
    official = make("drawer_top_close", controller=None, camera_keys=())
    upstream = make("drawer_top_close", controller=None, camera_keys=(),
                    initialization_profile="upstream")
    try:
        assert official.config.initialization_profile == "g1_id_v1"
        official.reset(seed=620001)
        upstream.reset(seed=620001)
        x, y, _, yaw = official.settled_pelvis
        assert 0.12 <= x <= 0.14 and abs(y) <= 0.05 and abs(np.degrees(yaw)) <= 5
        assert np.allclose(upstream.settled_pelvis[:2], 0.0, atol=1e-6)
        scene, _ = scene_for("drawer_top_close", 620001)
        assert ks.opening(official.scene, "drawer_top") == pytest.approx(
            ks.opening(scene, "drawer_top"))
        assert "initialization_profile" in upstream.config_overrides
    finally:
        official.close()
        upstream.close()
