"""The kitchen-counter experts (bench.policies.experts.kitchen): each solves its task on
two evaluation seeds with the embedded default WBC, without cameras."""

from __future__ import annotations

import pytest

from bench.env import make
from bench.eval.episode import run_episode
from bench.policies.experts import EXPERTS, PENDING, expert, kitchen

SEEDS = (620000, 620001)
KITCHEN_TASKS = ("drawer_top_open", "drawer_top_close", "wall_cupboard_open",
                 "wall_cupboard_close", "pick_box", "put_cups", "saucepan_to_hob",
                 "sandwich_remove")


def test_every_kitchen_task_has_a_registered_expert_or_a_stated_reason():
    for task in KITCHEN_TASKS:
        if task in kitchen.EXPERTS:
            assert EXPERTS[task] is kitchen.EXPERTS[task]
            assert task not in PENDING
        else:
            assert PENDING.get(task), task


@pytest.mark.parametrize("task", sorted(kitchen.EXPERTS))
def test_kitchen_expert_succeeds_on_two_seeds(task):
    env = make(task, camera_keys=())
    policy = expert(task)
    try:
        for seed in SEEDS:
            result = run_episode(env, policy, seed)
            assert result.success, (task, seed, result.termination, result.final_metrics)
            assert not result.fell
    finally:
        env.close()
