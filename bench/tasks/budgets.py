"""Episode budgets from the scripted experts' demonstrations (BUDGET_RULE).

BUDGET_RULE (seed 001): 2x the longest successful demonstration, rounded up to the
next 500 env steps, at least 2000. ``DEMO_BUDGETS`` holds, per task, what
``bench demos TASK`` measured over its 60 demonstrations (seeds from 700000, outside
the evaluation block); the task registry applies it in place of the placeholder and
says so in ``TaskSpec.budget_source``. Rerunning ``bench demos TASK`` reproduces the
batch (the experts and the simulation are deterministic) and prints the budget.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TypeVar

BUDGET_FLOOR = 2000  # env steps
BUDGET_ROUNDING = 500  # env steps


def budget_rule(longest_env_steps: int) -> int:
    """BUDGET_RULE: 2x the longest successful demonstration, rounded up to the next 500
    env steps, at least 2000."""
    rounded = math.ceil(2 * longest_env_steps / BUDGET_ROUNDING) * BUDGET_ROUNDING
    return max(BUDGET_FLOOR, rounded)


@dataclass(frozen=True)
class DemoBudget:
    """What a batch of demonstrations says about a task's budget."""

    longest_env_steps: int  # the longest successful demonstration
    demos: int  # successful demonstrations in the batch
    first_seed: int  # seeds first_seed .. first_seed + demos + failures - 1 were tried
    backend: str = "holosoma_g1"  # the lower-body controller the demonstrations ran on

    @property
    def budget(self) -> int:
        """The budget BUDGET_RULE gives."""
        return budget_rule(self.longest_env_steps)

    @property
    def source(self) -> str:
        """Where the budget comes from, for the registry."""
        return (f"BUDGET_RULE on {self.demos} scripted-expert demonstrations (bench demos, "
                f"seeds from {self.first_seed}, {self.backend}): longest "
                f"{self.longest_env_steps} env steps")


# Recorded on the embedded default WBC (holosoma_g1, the Balance/Walk pair) without
# cameras; no seed failed unless noted. flip_cup, drawer_top_close, wall_cupboard_close,
# drawer_top_open and move_plate after the stiff gripper pads (assets/dex1_1_gripper.xml);
# the reach batches before them (the reaching hands touch nothing).
DEMO_BUDGETS: dict[str, DemoBudget] = {
    "reach_target_single": DemoBudget(longest_env_steps=3030, demos=60, first_seed=700000),
    "reach_target_multi_modal": DemoBudget(longest_env_steps=2760, demos=60, first_seed=700000),
    "reach_target_dual": DemoBudget(longest_env_steps=3100, demos=60, first_seed=700000),
    "flip_cup": DemoBudget(longest_env_steps=8470, demos=60, first_seed=700000),  # 2 failed
    "drawer_top_close": DemoBudget(longest_env_steps=2190, demos=60, first_seed=700000),
    "drawer_top_open": DemoBudget(longest_env_steps=5420, demos=60, first_seed=700000),
    "move_plate": DemoBudget(longest_env_steps=13790, demos=60, first_seed=700000),
    "move_two_plates": DemoBudget(longest_env_steps=33450, demos=60,
                                  first_seed=700000),  # 1 failed
    "wall_cupboard_close": DemoBudget(longest_env_steps=4710, demos=60, first_seed=700000),
    "wall_cupboard_open": DemoBudget(longest_env_steps=22630, demos=60,
                                     first_seed=700000),  # 60 identical: nothing drawn
    "dishwasher_load_cups": DemoBudget(longest_env_steps=34550, demos=60,
                                       first_seed=700000),  # 4 failed
    "stack_blocks": DemoBudget(longest_env_steps=76470, demos=60,
                               first_seed=700000),  # 2 failed; collector cap 8000 control steps
    "flip_cutlery": DemoBudget(longest_env_steps=19380, demos=60,
                               first_seed=700000),  # 4 failed; 700001 the longest (the next 10840)
    "dishwasher_load_cutlery": DemoBudget(longest_env_steps=47530, demos=60,
                                          first_seed=700000),  # 4 failed
    "dishwasher_load_plates": DemoBudget(longest_env_steps=68480, demos=60,
                                         first_seed=700000),  # 5 failed; collector cap 10000
    "sandwich_remove": DemoBudget(longest_env_steps=45200, demos=60,
                                  first_seed=700000),  # 5 failed
    "dishwasher_close": DemoBudget(longest_env_steps=43030, demos=60,
                                   first_seed=700000),  # 60 identical: nothing drawn
    # on the floating base: the expert needs the height and torso-pitch commands (NEEDS_COMMAND)
    "pick_box": DemoBudget(longest_env_steps=7420, demos=60, first_seed=700000,
                           backend="floating_base"),  # NEEDS_COMMAND
    "saucepan_to_hob": DemoBudget(longest_env_steps=16420, demos=60, first_seed=700000,
                                  backend="floating_base"),  # NEEDS_COMMAND; 5 failed
    "put_cups": DemoBudget(longest_env_steps=37220, demos=60, first_seed=700000,
                           backend="floating_base"),  # NEEDS_COMMAND; none failed
}

Spec = TypeVar("Spec")


def apply(tasks: dict[str, Spec]) -> dict[str, Spec]:
    """The registry with every task that has demonstrations given its BUDGET_RULE budget
    and budget source (TaskSpec fields ``episode_length`` and ``budget_source``)."""
    out = dict(tasks)
    for name, demo in DEMO_BUDGETS.items():
        out[name] = replace(out[name], episode_length=demo.budget,  # type: ignore[type-var]
                            budget_source=demo.source)
    return out
