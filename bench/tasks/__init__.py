"""Task registry: the 40 BiGym-G1 task names and their TaskSpecs.

A TaskSpec carries what the official configuration varies per task: the action
dimension (20, or 21 with the torso-pitch command), the reach tolerance, the
initialization profile and the episode budget. Scenes, resets and success
predicates are task classes that the task modules register in ``SCENES``, one per
task (test_env checks that all 40 have one).

Budgets: BUDGET_RULE (2x the longest successful demonstration, rounded up to the
next 500 env steps, at least 2000) needs demonstrations: tasks whose scripted expert
has recorded them get it from bench/tasks/budgets.py, the others keep a placeholder,
and `budget_source` says which.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bench.tasks import budgets

PLACEHOLDER_BUDGET = "placeholder: no demonstrations recorded yet"


@dataclass(frozen=True)
class TaskSpec:
    """Per-task facts of the official configuration."""

    name: str
    group: str  # scene group in the seed's task table
    benchmark: bool  # one of the 20 benchmark tasks (else released later)
    pitch_command: bool  # 21-dim action with torso pitch in slot 4
    episode_length: int  # env steps (10 per control step)
    reach_tolerance: float | None = None  # m, reach tasks
    initialization_profile: str = "upstream"
    budget_source: str = PLACEHOLDER_BUDGET

    @property
    def action_dim(self) -> int:
        """20, or 21 with the torso-pitch command."""
        return 21 if self.pitch_command else 20


def _spec(name: str, group: str, benchmark: bool = True, pitch: bool = True,
          budget: int = 5000, **extra: Any) -> TaskSpec:
    return TaskSpec(name=name, group=group, benchmark=benchmark, pitch_command=pitch,
                    episode_length=budget, **extra)


_BENCHMARK = (
    *(_spec(name, "reaching", pitch=False, budget=2000, reach_tolerance=0.05)
      for name in ("reach_target_single", "reach_target_multi_modal", "reach_target_dual")),
    _spec("move_plate", "table-top", pitch=False),
    _spec("move_two_plates", "table-top", budget=8000),
    _spec("flip_cup", "table-top", budget=3000),
    _spec("flip_cutlery", "table-top"),
    _spec("stack_blocks", "table-top", budget=10000),
    _spec("dishwasher_close", "dishwasher"),
    _spec("dishwasher_load_cups", "dishwasher", budget=8000),
    _spec("dishwasher_load_cutlery", "dishwasher", budget=8000),
    _spec("dishwasher_load_plates", "dishwasher", budget=8000),
    _spec("drawer_top_open", "kitchen counter", pitch=False, budget=3000,
          initialization_profile="g1_id_v1"),
    _spec("drawer_top_close", "kitchen counter", pitch=False, budget=3000,
          initialization_profile="g1_id_v1"),
    _spec("pick_box", "kitchen counter", budget=8000),
    _spec("put_cups", "kitchen counter", budget=8000),
    _spec("saucepan_to_hob", "kitchen counter", budget=6000),
    _spec("sandwich_remove", "kitchen counter", budget=6000),
    _spec("wall_cupboard_open", "kitchen counter"),
    _spec("wall_cupboard_close", "kitchen counter"),
)
_LATER_GROUPS = {
    "kitchen counter": ("drawers_open_all", "drawers_close_all", "cupboards_open_all",
                        "cupboards_close_all", "take_cups", "store_box", "store_kitchenware",
                        "sandwich_toast", "sandwich_flip", "store_groceries_lower",
                        "store_groceries_upper"),
    "dishwasher": ("dishwasher_open", "dishwasher_open_trays", "dishwasher_close_trays",
                   "dishwasher_unload_cups", "dishwasher_unload_cups_long",
                   "dishwasher_unload_cutlery", "dishwasher_unload_cutlery_long",
                   "dishwasher_unload_plates", "dishwasher_unload_plates_long"),
}
_LATER = tuple(
    _spec(name, group, benchmark=False, budget=10000,
          budget_source="placeholder: released later, no published demonstrations")
    for group, names in _LATER_GROUPS.items() for name in names
)

# Tasks with recorded demonstrations get their BUDGET_RULE budget (bench/tasks/budgets.py).
TASKS: dict[str, TaskSpec] = budgets.apply({spec.name: spec for spec in _BENCHMARK + _LATER})
BENCHMARK_TASKS: tuple[str, ...] = tuple(spec.name for spec in _BENCHMARK)

def _task_classes() -> dict[str, type]:
    from bench.tasks import dishwasher, kitchen, reaching, tabletop

    modules = (reaching, tabletop, dishwasher, kitchen)
    return {cls.name: cls for module in modules for cls in module.TASK_CLASSES}


# Task classes (scene, seeded reset, success clauses, fail-fast) by task name.
SCENES: dict[str, type] = _task_classes()


def make_task(name: str, reach_tolerance: float | None = None) -> Any:
    """An instance of the task's class (scene, seeded reset, success, fail-fast)."""
    cls = SCENES[get_spec(name).name]
    return cls(reach_tolerance) if TASKS[name].reach_tolerance is not None else cls()


def get_spec(name: str) -> TaskSpec:
    """The TaskSpec of a task; an unknown name raises ValueError listing the known ones."""
    try:
        return TASKS[name]
    except KeyError:
        raise ValueError(
            f"unknown task {name!r}; known tasks: {', '.join(sorted(TASKS))}") from None
