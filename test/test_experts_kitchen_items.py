"""bench.policies.experts.kitchen_items: the reach facts behind its NEEDS_COMMAND and
pending reasons (pick_box and saucepan_to_hob put what the hands must take out of reach
at the fixed standing height, and in reach with the torso pitched forward: inverse
kinematics on the experts' own copy of the scene, set from each task's reset, no
stepping), and how the pick_box and saucepan_to_hob experts hold what they carry
(test_experts.py runs the experts on two seeds)."""

from __future__ import annotations

import numpy as np
import pytest

from bench.env import make
from bench.policies.experts import (
    DRAFTS,
    EXPERTS,
    NEEDS_COMMAND,
    PENDING,
    expert,
    kitchen_items,
    sandwich,
)
from bench.policies.experts.kinematics import SIDES, Kinematics
from bench.policies.experts.script import KEYFRAME_ARMS
from bench.policies.oracle import env_world_state, feed_world
from bench.tasks import kitchen_scene as ks

LEAN = 0.5  # rad, torso pitch that brings the targets into reach
REACHED = 0.005  # m, inverse-kinematics error counted as reached
OUT_OF_REACH = 0.05  # m


def reset_state(task: str, seed: int) -> tuple[Kinematics, np.ndarray]:
    """The experts' kinematics of ``task`` and the world state of ``seed``'s reset."""
    env = make(task, camera_keys=())
    try:
        env.reset(seed=seed)
        qpos = env_world_state(env, seed).qpos.copy()
    finally:
        env.close()
    kin = Kinematics(task)
    kin.set_state(qpos)
    return kin, qpos


def pose(kin: Kinematics, qpos: np.ndarray, x: float, y: float, pitch: float) -> None:
    """Stand the pelvis at (x, y) facing +x, the waist pitched ``pitch``."""
    qpos = qpos.copy()
    base = kin.model.joint("floating_base_joint").qposadr[0]
    qpos[base:base + 2] = x, y
    qpos[base + 3:base + 7] = 1.0, 0.0, 0.0, 0.0
    qpos[kin.model.joint("waist_pitch_joint").qposadr[0]] = pitch
    kin.set_state(qpos)


def ik_error(kin: Kinematics, side: str, target: np.ndarray) -> float:
    """The pinch site's remaining distance to ``target`` (position only)."""
    return kin.solve(side, target, None, KEYFRAME_ARMS[side], iterations=300)[1]


def test_kitchen_items_registration():
    """pick_box and saucepan_to_hob have experts that need the height and torso-pitch
    commands; sandwich_remove is not theirs (its expert is in ``sandwich``)."""
    assert EXPERTS["pick_box"] is kitchen_items.PickBox
    assert EXPERTS["saucepan_to_hob"] is kitchen_items.SaucepanToHob
    for task in ("pick_box", "saucepan_to_hob"):
        assert NEEDS_COMMAND[task] == kitchen_items.NEEDS_COMMAND[task]
        assert task not in PENDING and task not in DRAFTS
    assert EXPERTS["sandwich_remove"] is sandwich.SandwichRemove
    assert "sandwich_remove" not in kitchen_items.EXPERTS


def test_pick_box_expert_carries_the_box_between_the_housings():
    """Seed 620003 (box turned 36 degrees from square): on the floating base the box
    leaves the table, is carried with only the gripper housings touching it (no pad:
    it is squeezed between the flat sides of the closed grippers), and ends released
    on the counter."""
    env = make("pick_box", camera_keys=(), controller=None)
    policy = expert("pick_box")
    scene = env.scene
    housings = scene.geom("left_gripper_housing") | scene.geom("right_gripper_housing")
    try:
        observation, _ = env.reset(seed=620003)
        carried = done = False
        while not done:
            observation, _, terminated, truncated, _ = env.step(policy(observation))
            feed_world(policy, env_world_state(env, 620003))
            box = scene.geoms("box")
            off_table = scene.pos("box")[2] > 0.65 and not scene.touches(box, scene.geom(
                "side_table_top")) and not scene.touches(box, scene.geom("counter_top"))
            if off_table:
                assert scene.touches(box, housings) and not scene.held("box")
                carried = True
            done = terminated or truncated
        assert carried
        assert env.status.success and not env.episode_fell()
    finally:
        env.close()


@pytest.mark.parametrize("pitch, reachable", [(0.0, False), (LEAN, True)])
def test_pick_box_side_faces_need_the_torso_pitch(pitch, reachable):
    """From where the embedded WBC's walk stalls before the side table (pelvis x 0.29,
    measured on seed 620000), the fists' places either side of the box at mid-height."""
    kin, qpos = reset_state("pick_box", 620000)
    centre = kin.body_pos("box")
    pose(kin, qpos, 0.29, centre[1], pitch)
    for side, sign in zip(SIDES, (1.0, -1.0), strict=True):
        error = ik_error(kin, side, centre + np.array([0.0, sign * 0.15, 0.0]))
        assert (error < REACHED) if reachable else (error > OUT_OF_REACH), (side, error)


@pytest.mark.parametrize("pitch, reachable", [(0.0, False), (LEAN, True)])
def test_saucepan_handle_needs_the_torso_pitch(pitch, reachable):
    """The saucepan's handle on the cabinet shelf, from 0.15 m before the cabinet front
    (x 0.84), for the nearer hand."""
    for seed in (620000, 620001, 620002):
        kin, qpos = reset_state("saucepan_to_hob", seed)
        handle = kin.data.geom_xpos[kin.model.geom("saucepan_handle").id].copy()
        pose(kin, qpos, 0.69, handle[1], pitch)
        error = min(ik_error(kin, side, handle) for side in SIDES)
        assert (error < REACHED) if reachable else (error > OUT_OF_REACH), (seed, error)


def test_saucepan_expert_opens_the_door_and_draws_the_saucepan_out_by_its_handle():
    """Seed 620002 on the floating base, under the task's budget: the door is open
    before the saucepan moves, the pads hold the saucepan whenever it is off the shelf
    and not yet on the hob, and it ends released on the hob."""
    env = make("saucepan_to_hob", camera_keys=(), controller=None)
    policy = expert("saucepan_to_hob")
    scene = env.scene
    start = None
    try:
        observation, _ = env.reset(seed=620002)
        carried = done = False
        while not done:
            observation, _, terminated, truncated, _ = env.step(policy(observation))
            feed_world(policy, env_world_state(env, 620002))
            pan = scene.geoms("saucepan")
            start = scene.pos("saucepan").copy() if start is None else start
            if np.linalg.norm(scene.pos("saucepan") - start) > 0.02 and not carried:
                assert ks.opening(scene, "cabinet_left_door") > 0.9
                carried = True
            off = not scene.touches(pan, scene.geom("cabinet_left_shelf")) and not \
                scene.touches(pan, scene.geom("hob"))
            if carried and off and not env.status.success:
                assert scene.held("saucepan")
            done = terminated or truncated
        assert carried
        assert env.status.success and not env.episode_fell()
    finally:
        env.close()


@pytest.mark.parametrize("seed", [620019, 620001])
def test_saucepan_hand_heading_stays_in_its_range(seed):
    """The hand points along the saucepan's handle within HAND_YAW: seed 620019's handle
    is turned 15 degrees to the right and is taken pointing straight ahead (the body then
    stands right of the grasp, clear of the open door); seed 620001's, turned 20 degrees
    to the left, is taken along it. The grasp point lies on the handle's axis."""
    _, qpos = reset_state("saucepan_to_hob", seed)
    policy = expert("saucepan_to_hob")
    policy.kin.set_state(qpos)
    grasp, rot = policy.handle_grasp()
    geom = policy.kin.model.geom("saucepan_handle").id
    centre = policy.kin.data.geom_xpos[geom]
    axis = policy.kin.data.geom_xmat[geom].reshape(3, 3)[:, 2]
    handle_yaw = np.arctan2(axis[1], axis[0]) % np.pi  # the axis either way
    handle_yaw -= np.pi * (handle_yaw > np.pi / 2)  # pointing into the cabinet (+x)
    hand_yaw = np.arctan2(rot[1, 0], rot[0, 0])
    low, high = kitchen_items.HAND_YAW
    assert np.isclose(hand_yaw, np.clip(handle_yaw, low, high), atol=1e-6)
    assert (handle_yaw < low) == (seed == 620019)
    offset = (grasp - centre)[:2]
    along = axis[:2] / np.linalg.norm(axis[:2])
    assert np.linalg.norm(offset - (offset @ along) * along) < 1e-6
