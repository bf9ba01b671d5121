"""The kitchen-counter experts (bench.policies.experts.kitchen): every kitchen benchmark
task has one or a stated reason. (test_experts.py runs every registered expert, these
included, on two evaluation seeds.)"""

from __future__ import annotations

from bench.policies.experts import EXPERTS, PENDING, kitchen
from bench.tasks import TASKS

KITCHEN_TASKS = sorted(name for name, spec in TASKS.items()
                       if spec.group == "kitchen counter" and spec.benchmark)


def test_every_kitchen_task_has_a_registered_expert_or_a_stated_reason():
    assert len(KITCHEN_TASKS) == 8
    for task in KITCHEN_TASKS:
        if task in kitchen.EXPERTS:
            assert EXPERTS[task] is kitchen.EXPERTS[task]
            assert task not in PENDING
        else:
            assert PENDING.get(task), task

