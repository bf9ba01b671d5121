"""The stack_blocks expert (bench.policies.experts.blocks): its registration, the grip and
carry frames, a block gripped from above and carried off the table, a take that leaves
the other blocks where they were, the straight climb of a hand, and the check that finds
a block off its place in the stack."""

from __future__ import annotations

import numpy as np

from bench.env import make
from bench.policies.experts import DRAFTS, EXPERTS, PENDING
from bench.policies.experts.blocks import (
    DOWN,
    StackBlocks,
    block_yaw,
    grasp_rotation,
    upright_rotations,
)
from bench.policies.oracle import env_world_state, feed_world
from bench.tasks.props import PAD_HALF, PAD_HALF_THICKNESS, TABLE_TOP
from bench.tasks.tabletop import BLOCK_HALF, BLOCKS

SEED = 620000


def test_stack_blocks_is_registered_as_its_expert():
    assert EXPERTS["stack_blocks"] is StackBlocks
    assert "stack_blocks" not in DRAFTS and "stack_blocks" not in PENDING


def test_grasp_frame_points_down_with_the_jaw_across_the_faces():
    forward = np.array([1.0, 0.0, 0.0])
    rot = grasp_rotation(0.3, 0.0, forward)
    assert np.allclose(rot @ rot.T, np.eye(3), atol=1e-9)
    assert np.allclose(rot[:, 0], DOWN)  # pointing down
    assert np.isclose(rot[2, 1], 0.0)  # the jaw level, across the faces at yaw 0.3
    assert np.isclose(abs(np.cos(0.3) * rot[0, 1] + np.sin(0.3) * rot[1, 1]), 1.0)
    tilted = grasp_rotation(0.3, np.radians(20), forward)
    assert tilted[:, 0] @ forward > 0  # leans toward the far side of the block


def test_block_yaw_is_a_level_face_normal_whichever_face_it_lies_on():
    def rot_x(a):
        return np.array([[1, 0, 0], [0, np.cos(a), -np.sin(a)], [0, np.sin(a), np.cos(a)]])

    def rot_z(a):
        return np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])

    def rot_y(a):
        return np.array([[np.cos(a), 0, np.sin(a)], [0, 1, 0], [-np.sin(a), 0, np.cos(a)]])

    assert np.isclose(block_yaw(rot_z(0.4)), 0.4)  # upright: its x axis
    # fallen onto a side face: x points up, so the yaw is the (level) y axis's
    lying = rot_z(0.4) @ rot_y(-np.pi / 2)
    assert np.isclose(abs(lying[2, 0]), 1.0)
    assert np.isclose(block_yaw(lying), 0.4 + np.pi / 2)
    # fallen onto a side face with y up: x stays the level normal
    assert np.isclose(block_yaw(rot_z(0.4) @ rot_x(np.pi / 2)), 0.4)


def test_upright_rotations_turn_the_grip_about_the_vertical_only():
    grip = grasp_rotation(0.7, np.radians(40), np.array([1.0, 0.0, 0.0]))  # a leaning grip
    current = grasp_rotation(2.0, 0.0, np.array([1.0, 0.0, 0.0]))
    rotations = upright_rotations(grip, current)
    assert len(rotations) == 12
    for rot in rotations:
        assert np.allclose(rot @ rot.T, np.eye(3), atol=1e-9)
        # the hand's tilt from the vertical (and so the held block's) is the grip's
        assert np.allclose(rot[2], grip[2], atol=1e-9)
    angles = [np.linalg.norm(r - current) for r in rotations]
    assert angles[0] == min(angles)  # the nearest to the present hand first


def test_expert_lifts_a_block_and_carries_it():
    env = make("stack_blocks", camera_keys=(), controller=None, episode_length=20000)
    policy = StackBlocks("stack_blocks")
    policy.reset()
    observation, _ = env.reset(seed=SEED)
    carried_for = 0
    for _ in range(1500):
        observation, *_ = env.step(policy(observation))
        feed_world(policy, env_world_state(env, SEED))
        if "right" in policy.carried:
            carried_for += 1
        if carried_for == 150:
            break
    assert carried_for == 150, "the right hand never carried a block"
    block = policy.carried["right"][0]
    assert policy.holds("right", block)
    assert env.scene.held(block)
    assert policy.kin.body_pos(block)[2] > TABLE_TOP + BLOCK_HALF + 0.02  # off the table


def test_climb_raises_the_commanded_hand_straight_up():
    env = make("stack_blocks", camera_keys=(), controller=None)
    policy = StackBlocks("stack_blocks")
    policy.reset()
    observation, _ = env.reset(seed=SEED)
    env.step(policy(observation))
    feed_world(policy, env_world_state(env, SEED))
    start, rot = policy.commanded_pinch("right", policy.arm["right"])
    q = policy.climb("right", 0.06)
    end, end_rot = policy.commanded_pinch("right", q)
    assert np.allclose(end - start, [0.0, 0.0, 0.06], atol=0.002)  # straight up, all of it
    assert np.allclose(end_rot, rot, atol=0.01)  # the hand's rotation kept
    arm = policy.arm["right"]
    for share in np.linspace(0.0, 1.0, 9):  # the joint-space path stays near the vertical
        point = policy.commanded_pinch("right", arm + share * (q - arm))[0]
        assert np.linalg.norm(point[:2] - start[:2]) < 0.015
    # the fingers' lowest point along that path is where the path starts
    assert np.isclose(policy.path_bottom("right", arm, q), policy.path_bottom("right", arm, arm),
                      atol=0.002)


def test_first_take_leaves_the_other_blocks_in_place():
    """Seed 620019 on the embedded default: the right hand's first block lies at the edge
    of its reach, where the best-reached jaw heading's joint-space way over it swept the
    fingers through it and flung it off the table (and pushed a neighbour 9 cm). The
    heading chosen now keeps the fingers above SWING_CLEAR on that way: the block is
    taken, and the others stay where they were."""
    seed = 620019
    env = make("stack_blocks", camera_keys=(), episode_length=20000)
    policy = StackBlocks("stack_blocks")
    policy.reset()
    observation, _ = env.reset(seed=seed)
    start = {b: env.scene.pos(b).copy() for b in BLOCKS}
    for _ in range(2000):
        observation, *_ = env.step(policy(observation))
        feed_world(policy, env_world_state(env, seed))
        if "right" in policy.carried:
            break
    assert "right" in policy.carried, "the right hand never took its block"
    taken = policy.carried["right"][0]
    assert policy.holds("right", taken)
    for block in set(BLOCKS) - {taken}:
        assert np.linalg.norm(env.scene.pos(block) - start[block]) < 0.01, block


def test_stack_check_finds_the_lowest_block_off_its_place():
    """``placed`` counts a block on its place (the pad, or the block below, touching it)
    and ``covered`` a block with another on it: the checks by which a block dropped or
    knocked off the stack is taken again."""
    env = make("stack_blocks", camera_keys=(), controller=None)
    policy = StackBlocks("stack_blocks")
    policy.reset()
    env.reset(seed=SEED)
    order = BLOCKS  # bottom to top
    pad = env.scene.pos("pad") + np.array([0.0, 0.0, PAD_HALF_THICKNESS + BLOCK_HALF])

    def lay(*centres):
        for block, centre in zip(order, centres, strict=True):
            env.scene.set_free_pose(block, centre)
        feed_world(policy, env_world_state(env, SEED))

    up = np.array([0.0, 0.0, 2 * BLOCK_HALF])
    aside = np.array([0.0, -(PAD_HALF + 3 * BLOCK_HALF), -PAD_HALF_THICKNESS])
    beside = pad + aside  # on the table
    lay(pad, pad + up + np.array([0.01, 0.0, 0.0]), beside)
    assert [policy.placed(order, k) for k in range(3)] == [True, True, False]
    assert policy.covered(order[0]) and not policy.covered(order[2])
    # the lowest block and the one on it, set down beside the pad: only the upper counts
    lay(beside, beside + up, pad)
    assert [policy.placed(order, k) for k in range(2)] == [False, True]
    # a block held 3 cm over the one below does not rest on it
    lay(pad, pad + 1.6 * up, beside + 2 * aside)
    assert policy.placed(order, 0) and not policy.placed(order, 1)
