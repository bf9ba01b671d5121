"""Kinematic arm self-collision checks (bench.robot.self_collision)."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

from bench.robot import assembly
from bench.robot import constants as c
from bench.robot.self_collision import ArmCollisionChecker

NOMINAL = c.KEYFRAME_JOINTS[15:]
RIGHT_ROLL = 7 + c.ARM_JOINTS_PER_SIDE.index("shoulder_roll")  # index among the 14 arm joints
RIGHT_YAW = 7 + c.ARM_JOINTS_PER_SIDE.index("shoulder_yaw")


def _checker(spec=None) -> tuple[ArmCollisionChecker, np.ndarray]:
    model = (spec or assembly.robot_spec()).compile()
    return ArmCollisionChecker(model), assembly.keyframe_qpos(model)


@pytest.fixture(scope="module")
def checker():
    return _checker()


def test_keyframe_arms_touch_nothing(checker):
    check, qpos = checker
    assert check.contacts(qpos, NOMINAL) == []


def test_right_arm_rolled_into_the_torso_collides(checker):
    check, qpos = checker
    arms = NOMINAL.copy()
    arms[RIGHT_ROLL] = 0.7  # adduction: the upper arm swings across the chest
    pairs = check.contacts(qpos, arms)
    assert any("torso_link" in pair for pair in pairs), pairs
    assert all(any(name.startswith("right_") for name in pair) for pair in pairs)


def test_path_check_finds_a_collision_between_free_ends(checker):
    """Yawing the hanging right arm from 0 to 2.4 rad swings the forearm through the
    torso on the way, although both ends are clear."""
    check, qpos = checker
    start, goal, middle = NOMINAL.copy(), NOMINAL.copy(), NOMINAL.copy()
    goal[RIGHT_YAW], middle[RIGHT_YAW] = 2.4, 1.2
    assert not check.collides(qpos, start) and not check.collides(qpos, goal)
    assert check.collides(qpos, middle)
    assert check.path_collides(qpos, start, goal)
    short = start.copy()
    short[RIGHT_YAW] = 0.5  # short of the torso
    assert not check.path_collides(qpos, start, short)


def test_contacts_with_scene_props_do_not_count():
    check, qpos = _checker()
    check.collides(qpos, NOMINAL)
    hand = check.data.xpos[check.model.body(c.WRIST_BODIES["left"]).id].copy()
    spec = assembly.robot_spec()
    spec.worldbody.add_geom(name="block", type=mujoco.mjtGeom.mjGEOM_BOX, size=[0.05] * 3,
                            pos=hand)
    with_block, qpos = _checker(spec)
    assert with_block.contacts(qpos, NOMINAL) == []
    assert with_block.data.ncon > 0  # the block does touch the hand
