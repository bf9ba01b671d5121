"""Scripted experts: oracle policies that solve the benchmark tasks.

Load one like any policy: ``bench.policies.experts:expert`` (the factory takes the
task name), e.g. ``bench eval --task flip_cup --policy bench.policies.experts:expert``.
Each scene group's module registers its experts in ``EXPERTS`` by task name; an
expert is an ``Expert`` subclass (``bench.policies.experts.script``) whose
``script()`` chains motion primitives. Experts read the full simulator state through
the oracle channel (``bench.policies.oracle``), in process and in the graph alike.

Each module also gives ``PENDING`` (benchmark tasks without an expert, and why) and
``NEEDS_COMMAND`` (tasks whose expert reaches the bar only with the height or
torso-pitch command, which the embedded default WBC lacks: the reason, measured; such
an expert is tested on the floating base, which follows both commands).
"""

from __future__ import annotations

from bench.policies.experts import (
    blocks,
    cabinet_cups,
    cutlery,
    cutlery_basket,
    dishwasher,
    kitchen,
    kitchen_items,
    plates,
    reaching,
    sandwich,
    tabletop,
)
from bench.policies.experts.script import Expert
from bench.tasks import get_spec

_MODULES = (reaching, tabletop, plates, cutlery, blocks, kitchen, kitchen_items,
            dishwasher, cutlery_basket, sandwich, cabinet_cups)

EXPERTS: dict[str, type[Expert]] = {
    task: cls for module in _MODULES for task, cls in module.EXPERTS.items()}
PENDING: dict[str, str] = {
    task: why for module in _MODULES for task, why in getattr(module, "PENDING", {}).items()}
NEEDS_COMMAND: dict[str, str] = {
    task: why for module in _MODULES
    for task, why in getattr(module, "NEEDS_COMMAND", {}).items()}

# Experts that run but fall short of the 90 % bar; PENDING says why.
DRAFTS: dict[str, type[Expert]] = {
    task: cls for module in _MODULES for task, cls in getattr(module, "DRAFTS", {}).items()}


def draft(task: str) -> Expert:
    """The draft expert of ``task`` (below the bar; see PENDING and docs/experts.md)."""
    if task not in DRAFTS:
        raise ValueError(f"no draft expert for {task!r}; drafts exist for: "
                         f"{', '.join(sorted(DRAFTS))}")
    return DRAFTS[task](task)


def expert(task: str) -> Expert:
    """The scripted expert of ``task``; ValueError names the tasks that have one."""
    get_spec(task)
    if task not in EXPERTS:
        why = PENDING.get(task, "it is not a benchmark task")
        raise ValueError(f"no scripted expert for {task!r} ({why}); experts exist for: "
                         f"{', '.join(sorted(EXPERTS))}")
    return EXPERTS[task](task)
