"""The kitchen-counter experts (bench.policies.experts.kitchen and kitchen_items):
every kitchen benchmark task has one or a stated reason. (test_experts.py runs every
registered expert, these included, on two evaluation seeds.) The reach that put_cups'
reason gives holds in the scene as built."""

from __future__ import annotations

import numpy as np

from bench.env import make
from bench.policies.experts import EXPERTS, PENDING, kitchen, kitchen_items
from bench.policies.experts.kinematics import Kinematics
from bench.tasks import TASKS

KITCHEN_TASKS = sorted(name for name, spec in TASKS.items()
                       if spec.group == "kitchen counter" and spec.benchmark)
# left-arm starts for the reach search: hanging, reaching ahead, raised ahead
ARM_STARTS = (np.zeros(7), np.array([-0.8, 0.0, 0.0, 0.3, 0.0, 0.4, 0.2]),
              np.array([-1.18, 0.0, -0.07, 0.43, 0.04, -0.07, 0.37]))


def test_every_kitchen_task_has_a_registered_expert_or_a_stated_reason():
    assert len(KITCHEN_TASKS) == 8
    for task in KITCHEN_TASKS:
        registered = {**kitchen.EXPERTS, **kitchen_items.EXPERTS}
        if task in registered:
            assert EXPERTS[task] is registered[task]
            assert task not in PENDING
        else:
            assert PENDING.get(task), task


def _miss(kin: Kinematics, target: np.ndarray, rotation: np.ndarray) -> float:
    """How far (weighted pose error) the left pinch site stays from ``target`` at the
    best of many inverse-kinematics starts around ARM_STARTS, from the current stance."""
    rng = np.random.default_rng(0)
    best = np.inf
    for k in range(30):
        start = ARM_STARTS[k % 3] + (rng.normal(0.0, 0.4, 7) if k >= 3 else 0.0)
        best = min(best, kin.solve("left", target, rotation, start, iterations=150)[1])
    return best


def test_put_cups_cups_and_shelf_are_out_of_a_level_hands_reach_from_the_door_stance():
    env = make("put_cups", camera_keys=())
    try:
        env.reset(seed=620000)
        qpos = env.world.data.qpos.copy()
    finally:
        env.close()
    kin = Kinematics("put_cups")
    cup = np.array([1.02, 0.10, 0.905])  # a cup's centre (x 0.99-1.05 m), counter top 0.86
    shelf = np.array([1.06, 0.10, 1.21])  # a cup's centre on the wall cabinet's bottom shelf
    misses = {}
    for pelvis_x in (0.45, 0.55):
        qpos[:2], qpos[3:7] = (pelvis_x, 0.0), (1.0, 0.0, 0.0, 0.0)
        kin.set_state(qpos)
        misses[pelvis_x] = [_miss(kin, point, np.eye(3)) for point in (cup, shelf)]
    assert min(misses[0.45]) > 0.04, misses  # the reason's 4.5-5.6 cm and 7.9-9 cm
    assert max(misses[0.55]) < 0.005, misses
