"""The stack_blocks draft expert (bench.policies.experts.blocks): its pending reason, the
grip geometry, and the level grip that carries a block (a block held across by friction
alone creeps out of the jaw)."""

from __future__ import annotations

import numpy as np

from bench.env import make
from bench.policies.experts import DRAFTS, PENDING
from bench.policies.experts.blocks import (
    DOWN,
    StackBlocks,
    grasp_rotation,
)
from bench.policies.oracle import env_world_state, feed_world
from bench.tasks.props import TABLE_TOP
from bench.tasks.tabletop import BLOCK_HALF

SEED = 620000


def test_stack_blocks_is_a_draft_with_a_measured_reason():
    assert DRAFTS["stack_blocks"] is StackBlocks
    assert "official seeds" in PENDING["stack_blocks"]


def test_grasp_and_level_grip_frames():
    expert = StackBlocks("stack_blocks")
    forward = np.array([1.0, 0.0, 0.0])
    rot = grasp_rotation(0.3, 0.0, forward)
    assert np.allclose(rot @ rot.T, np.eye(3), atol=1e-9)
    assert np.allclose(rot[:, 0], DOWN)  # pointing down
    assert np.isclose(rot[2, 1], 0.0)  # the jaw level, across the faces at yaw 0.3
    assert np.isclose(abs(np.cos(0.3) * rot[0, 1] + np.sin(0.3) * rot[1, 1]), 1.0)
    tilted = grasp_rotation(0.3, np.radians(20), forward)
    assert tilted[:, 0] @ forward > 0  # leans toward the far side of the block
    level = np.column_stack([rot[:, 1], -rot[:, 0], rot[:, 2]])
    assert np.allclose(expert.down_grip(level)[:, 0], DOWN)


def test_draft_lifts_a_block_in_the_level_grip_and_keeps_it():
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
    assert policy.kin.body_pos(block)[2] > TABLE_TOP + BLOCK_HALF + 0.01  # off the table
