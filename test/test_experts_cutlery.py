"""flip_cutlery's draft expert: the spoon as the reset leaves it (leaning on the rim,
only its bowl clear of the mug), the grasp the draft takes of it, and its registration."""

from __future__ import annotations

import numpy as np
import pytest

from bench.env import make
from bench.policies.experts import DRAFTS, EXPERTS, PENDING, cutlery, draft, expert
from bench.policies.oracle import env_world_state
from bench.tasks.tabletop import MUG_RADIUS

SEEDS = (620000, 620001, 620002)


@pytest.fixture(scope="module")
def settled():
    """The draft expert fed the reset world state of each seed."""
    env = make("flip_cutlery", camera_keys=())
    out = []
    try:
        for seed in SEEDS:
            env.reset(seed=seed)
            policy = cutlery.FlipCutlery("flip_cutlery")
            policy.observe_world(env_world_state(env, seed))
            out.append(policy)
    finally:
        env.close()
    return out


def test_flip_cutlery_is_a_draft_with_a_reason():
    assert "flip_cutlery" not in EXPERTS
    assert DRAFTS["flip_cutlery"] is cutlery.FlipCutlery
    assert PENDING["flip_cutlery"] == cutlery.PENDING["flip_cutlery"]
    assert isinstance(draft("flip_cutlery"), cutlery.FlipCutlery)
    with pytest.raises(ValueError, match="no scripted expert for 'flip_cutlery'"):
        expert("flip_cutlery")


def test_the_spoon_leans_on_the_rim_with_only_its_bowl_clear(settled):
    for policy in settled:
        kin = policy.kin
        tilt = np.degrees(np.arccos(policy.spoon_axis()[2]))
        assert 30.0 < tilt < 45.0, tilt
        mug = kin.body_pos("mug")
        bowl = policy.spoon_point(cutlery.GRIP_AT)
        # the grasped point is beyond the mug's wall and above its rim
        assert np.linalg.norm((bowl - mug)[:2]) > MUG_RADIUS
        assert cutlery.RIM < bowl[2] < cutlery.RIM + 0.05
        # the bowl begins (0.066 along the axis) less than 3 cm above the rim
        assert policy.spoon_point(0.066)[2] - cutlery.RIM < 0.03


def test_the_grasp_closes_the_jaw_across_the_spoon(settled):
    for policy in settled:
        side = "left" if policy.spoon_point(cutlery.GRIP_AT)[1] >= 0 else "right"
        rot = policy.grasp_rotation(side)
        np.testing.assert_allclose(rot.T @ rot, np.eye(3), atol=1e-9)
        assert np.linalg.det(rot) == pytest.approx(1.0)
        assert abs(rot[:, 1] @ policy.spoon_axis()) < 1e-9  # jaw across the axis
        assert rot[2, 0] < 0.0  # the hand points down onto the bowl
