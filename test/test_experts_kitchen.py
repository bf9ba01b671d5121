"""The kitchen-counter experts (bench.policies.experts.kitchen and kitchen_items):
every kitchen benchmark task has one or a stated reason. (test_experts.py runs every
registered expert, these included, on two evaluation seeds.)"""

from __future__ import annotations

from bench.policies.experts import EXPERTS, PENDING, kitchen, kitchen_items
from bench.tasks import TASKS

KITCHEN_TASKS = sorted(name for name, spec in TASKS.items()
                       if spec.group == "kitchen counter" and spec.benchmark)


def test_every_kitchen_task_has_a_registered_expert_or_a_stated_reason():
    assert len(KITCHEN_TASKS) == 8
    for task in KITCHEN_TASKS:
        registered = {**kitchen.EXPERTS, **kitchen_items.EXPERTS}
        if task in registered:
            assert EXPERTS[task] is registered[task]
            assert task not in PENDING
        else:
            assert PENDING.get(task), task

