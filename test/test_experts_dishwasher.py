"""Dishwasher experts: every dishwasher benchmark task has an expert, the plates expert
takes a plate out of the drainer, the reason dishwasher_close's expert crouches before
it lifts the door (the open door is out of a standing G1's reach, in reach crouched)
holds in the scene as built, and so does the reach that makes the cups expert take the
farthest cups behind their centre."""

from __future__ import annotations

import itertools

import mujoco
import numpy as np
from expert_states import kinematics_at_reset

from bench.env import make
from bench.policies.experts import EXPERTS, NEEDS_COMMAND, PENDING, dishwasher, expert
from bench.policies.experts.dishwasher import pointing
from bench.policies.experts.kinematics import SIDES, Kinematics, rotation
from bench.tasks import BENCHMARK_TASKS
from bench.tasks import dishwasher as dw_task
from bench.tasks import dishwasher_scene as ds
from bench.tasks.props import CUP_HEIGHT

DISHWASHER_TASKS = sorted(t for t in BENCHMARK_TASKS if t.startswith("dishwasher_"))
FINGERTIP = 0.03  # m, the closed fingers' tips beyond the pinch site


def test_the_four_dishwasher_tasks_each_have_an_expert():
    assert DISHWASHER_TASKS == ["dishwasher_close", "dishwasher_load_cups",
                                "dishwasher_load_cutlery", "dishwasher_load_plates"]
    for task in DISHWASHER_TASKS:
        assert task in EXPERTS and task not in PENDING
    assert isinstance(expert("dishwasher_load_plates"), dishwasher.DishwasherLoadPlates)


def _lowest_pinch(kin: Kinematics, side: str) -> float:
    """The lowest height the side's pinch site reaches from the current stance, aiming
    at floor points on a grid in front of and beside the pelvis."""
    px, py, _ = kin.pelvis_pose()
    sign = 1.0 if side == "left" else -1.0
    scratch = mujoco.MjData(kin.model)
    lowest = np.inf
    for dx, dy in itertools.product((0.0, 0.1, 0.2, 0.3, 0.4), (0.0, 0.1, 0.2, 0.3, 0.4)):
        q, _ = kin.solve(side, np.array([px + dx, py + sign * dy, 0.0]), None,
                         kin.arm_q(side), iterations=200)
        scratch.qpos[:] = kin.data.qpos
        scratch.qpos[kin.qpos_adr[side]] = q
        mujoco.mj_kinematics(kin.model, scratch)
        lowest = min(lowest, float(scratch.site_xpos[kin.pinch[side]][2]))
    return lowest


def test_the_open_door_is_below_what_a_standing_g1_reaches():
    env = make("dishwasher_close", camera_keys=())
    try:
        env.reset(seed=620000)
        kin = Kinematics("dishwasher_close")
        kin.set_state(env.world.data.qpos)
        handle = env.world.model.geom("door_handle")
        handle_top = float(env.world.data.geom_xpos[handle.id][2] + handle.size[0])
    finally:
        env.close()
    lowest = min(_lowest_pinch(kin, side) for side in SIDES)
    # the docstring's figure, and the gap that keeps the fingertips off the door's
    # underside (the hinge plane) and its handle
    assert abs(lowest - 0.52) < 0.03, lowest
    assert lowest - FINGERTIP > max(ds.HINGE_Z, handle_top) + 0.05, (lowest, handle_top)


def test_dishwasher_close_runs_on_the_embedded_default():
    """Its expert walks upright and crouches only standing still, both of which the
    embedded default serves: it is not among the experts run on the floating base."""
    assert dishwasher.EXPERTS["dishwasher_close"] is dishwasher.DishwasherClose
    assert "dishwasher_close" not in NEEDS_COMMAND and "dishwasher_close" not in PENDING
    assert not getattr(dishwasher, "NEEDS_COMMAND", {})


CROUCH_DRAWBACK = 0.10  # m, the stance draws the pelvis back this far as it crouches
# (measured on the official episode: -0.38 standing, -0.47 to -0.50 crouched)


def test_crouched_the_hands_reach_under_the_open_door():
    """Why the expert crouches before the lift: with the pelvis at CROUCH_HEIGHT and the
    torso CROUCH_PITCH forward (the waist at its limit, the pelvis pitched by the rest),
    where the crouched pelvis stands, both pinch sites reach their start under the door
    (DOOR_HAND_PITCH below level, either side of the pelvis); upright at the same place
    they miss by more than 5 cm."""
    kin, qpos = kinematics_at_reset("dishwasher_close")
    policy = dishwasher.DishwasherClose("dishwasher_close")
    policy.kin = kin
    x, z = policy.door_point(0.0)
    assert z < ds.HINGE_Z - 0.05  # the pinch site under the door's underside
    front_y = float(kin.model.body("dishwasher").pos[1])
    waist = kin.model.joint("waist_pitch_joint")
    limit = float(waist.range[1])
    rot = rotation(pointing(dishwasher.DOOR_HAND_PITCH))
    errors = {}
    for lean, height in ((dishwasher.CROUCH_PITCH, dishwasher.CROUCH_HEIGHT), (0.0, 0.76)):
        posed = qpos.copy()
        posed[:3] = [dishwasher.DOOR_STANCE_X - CROUCH_DRAWBACK, front_y, height]
        tilt = max(0.0, lean - limit)
        posed[3:7] = [np.cos(tilt / 2), 0.0, np.sin(tilt / 2), 0.0]
        posed[waist.qposadr[0]] = min(lean, limit)
        kin.set_state(posed)
        errors[lean] = [
            min(kin.solve(side, np.array([x, front_y + sign * dishwasher.DOOR_HANDS_ASIDE, z]),
                          rot, kin.arm_q(side) + rng.normal(0, 0.4 * (k > 0), 7),
                          iterations=200)[1]
                for k, rng in enumerate(np.random.default_rng(k) for k in range(6)))
            for side, sign in (("left", 1.0), ("right", -1.0))]
    assert max(errors[dishwasher.CROUCH_PITCH]) < 0.005, errors
    assert min(errors[0.0]) > 0.05, errors


def _furthest_level_reach(kin: Kinematics, height: float, aside: float, rot: np.ndarray) -> float:
    """How far ahead of the pelvis the left pinch site gets with orientation ``rot`` at
    ``height``, ``aside`` to the pelvis' left (scanning outward in 1 cm steps)."""
    px, py, _ = kin.pelvis_pose()
    furthest = 0.0
    for ahead in np.arange(0.40, 0.60, 0.01):
        target = np.array([px + ahead, py + aside, height])
        starts = [kin.arm_q("left") + np.random.default_rng(k).normal(0.0, 0.4 * (k > 0), 7)
                  for k in range(4)]
        if min(kin.solve("left", target, rot, q0, iterations=200)[1] for q0 in starts) > 0.004:
            break
        furthest = float(ahead)
    return furthest


def test_a_level_hand_at_cup_height_reaches_half_a_metre_ahead():
    """Why the cups expert takes a far cup behind its centre: at the cup's height a level
    hand (or one pointing 15 degrees down) reaches 0.48-0.53 m ahead of the pelvis, so
    from the closest stance the feet allow (pelvis x 0.20-0.22) the farthest cups (x up
    to 0.75 m) are out of reach of a centred grasp; the pads reach further ahead of the
    pinch site than CUP_ACCEPT, so a grasp that far behind the centre still has them
    across the cup's widest line."""
    from bench.policies.experts.kinematics import rotation

    env = make("dishwasher_load_cups", camera_keys=())
    try:
        env.reset(seed=620000)
        kin = Kinematics("dishwasher_load_cups")
        kin.set_state(env.world.data.qpos)
        model = env.world.model
        pad = model.geom("left_gripper_pad_a")
        pad_ahead = float(pad.pos[0] + pad.size[0]
                          + model.body("left_gripper_finger_a").pos[0]
                          - model.site("left_pinch").pos[0])
    finally:
        env.close()
    height = ds.COUNTER_TOP + CUP_HEIGHT / 2
    down = np.radians(15.0)
    reaches = [_furthest_level_reach(kin, height, 0.12, rot)
               for rot in (np.eye(3), rotation(np.array([np.cos(down), 0.0, -np.sin(down)])))]
    assert all(0.48 <= r <= 0.53 for r in reaches), reaches
    assert 0.22 + max(reaches) < dw_task.CUPS_X + dw_task.CUPS_JITTER[0], reaches
    assert dishwasher.CUP_ACCEPT < pad_ahead < 0.03, pad_ahead


def test_plates_expert_lifts_a_plate_out_of_the_drainer():
    """The jaw pinching the top rim lifts the first plate clear of the drainer's
    dividers (seed 620000, embedded default WBC, no cameras)."""
    from bench.policies.oracle import env_world_state, feed_world

    env = make("dishwasher_load_plates", camera_keys=(), episode_length=12000)
    policy = expert("dishwasher_load_plates")
    try:
        observation, _ = env.reset(seed=620000)
        start = {p: float(env.world.data.xpos[env.world.model.body(p).id][2])
                 for p in ("plate_a", "plate_b")}
        lifted, fell = 0.0, False
        for _ in range(1000):
            observation, _, terminated, truncated, info = env.step(policy(observation))
            feed_world(policy, env_world_state(env, 620000))
            fell = fell or bool(info["fell"])
            for plate, z in start.items():
                lifted = max(lifted, float(env.world.data.xpos[env.world.model.body(plate).id][2])
                             - z)
            if terminated or truncated:
                break
    finally:
        env.close()
    assert not fell
    # the plate's lowest point rests 0.07 m below the dividers' tops; it is raised until it
    # is CLEARANCE above them
    assert lifted > 0.07 + dishwasher.CLEARANCE / 2, lifted


def test_turned_stance_reaches_the_far_cups():
    """Why the cups expert turns the pelvis CUP_STANCE_YAW to the right for a cup beyond
    CUP_FAR: the left shoulder then leads, and the hand pointing CUP_PITCH down reaches
    at least 3 cm further ahead at cup height, enough to close on the farthest cups (x up
    to 0.75 m) CUP_ACCEPT behind their centre from the stance the feet allow (pelvis x
    0.17-0.19 when turned), also straight ahead of the pelvis (the stance that
    FAR_RIGHT_LIMIT gives a right-hand cup)."""
    from bench.policies.experts.kinematics import rotation

    kin, qpos = kinematics_at_reset("dishwasher_load_cups")
    rot = rotation(dishwasher.pointing(dishwasher.CUP_PITCH))
    height = ds.COUNTER_TOP + CUP_HEIGHT / 2 + dishwasher.CUP_RISE
    reach = {}
    for yaw in (0.0, dishwasher.CUP_STANCE_YAW):
        turned = qpos.copy()
        turned[:2] = 0.0
        turned[3:7] = [np.cos(yaw / 2), 0.0, 0.0, np.sin(yaw / 2)]
        kin.set_state(turned)
        reach[yaw] = [_furthest_level_reach(kin, height, aside, rot) for aside in (0.0, 0.12)]
    square, turned_reach = reach[0.0], reach[dishwasher.CUP_STANCE_YAW]
    assert all(t >= s + 0.03 for s, t in zip(square, turned_reach, strict=True)), reach
    farthest = dw_task.CUPS_X + dw_task.CUPS_JITTER[0]
    assert 0.19 + min(turned_reach) > farthest - dishwasher.CUP_ACCEPT, reach


def test_cups_second_drop_point_is_away_from_the_loaded_cup():
    """The cups expert lets the second cup go over the DROP_SPOTS spot farther from the
    cup already in the middle tray (over the same point, it landed on the upturned first
    cup and rolled off to the floor, seed 700016); with no cup in the tray, the first."""
    _, qpos = kinematics_at_reset("dishwasher_load_cups")
    policy = dishwasher.DishwasherLoadCups("dishwasher_load_cups")
    policy.kin.set_state(qpos)
    first = policy.drop_point("cup_b")
    tray = policy.kin.body_pos("middle_tray")
    assert np.allclose(first[:2], tray[:2] + dishwasher.DROP_SPOTS[0])
    assert np.allclose(policy.drop_point("cup_a"), first)  # the other cup is on the counter
    model = policy.kin.model
    loaded = qpos.copy()
    for spot, expected in ((0, 1), (1, 0)):  # cup_b lying at either spot
        adr = model.jnt_qposadr[model.body("cup_b").jntadr[0]]
        loaded[adr:adr + 3] = [*(tray[:2] + dishwasher.DROP_SPOTS[spot]), tray[2] + 0.04]
        policy.kin.set_state(loaded)
        assert policy.in_tray("cup_b")
        second = policy.drop_point("cup_a")
        assert np.allclose(second[:2], tray[:2] + dishwasher.DROP_SPOTS[expected])
        assert np.linalg.norm(second[:2] - policy.kin.body_pos("cup_b")[:2]) > 0.1
