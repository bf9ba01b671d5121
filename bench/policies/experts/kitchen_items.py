"""Experts for the kitchen-counter tasks that move things (bench.tasks.kitchen):
pick_box, saucepan_to_hob and sandwich_remove. The drawer, cupboard and cup experts
are in ``kitchen``.

None of the three has an expert yet; ``PENDING`` gives the measured reasons and
docs/experts.md ("Kitchen items") what the pick_box attempts established.
``test/test_experts_kitchen_items.py`` re-measures the reach facts the reasons rest on.
"""

from __future__ import annotations

from bench.policies.experts.script import Expert

EXPERTS: dict[str, type[Expert]] = {}

PENDING: dict[str, str] = {
    "pick_box": "expert not finished: facing the side table the embedded WBC's walk "
                "stalls with the pelvis at x 0.29 (table edge 0.45), 0.37-0.44 m behind "
                "the box's centre, where at the fixed standing height the pinch sites "
                "get no nearer than 7.5 cm to the fists' places beside the box at "
                "mid-height (seed 620000, box 0.41 m ahead; with the torso pitched 0.5 "
                "rad they reach them: the task needs the torso-pitch command); on the "
                "floating base, crouched and leaning, no squeeze between the hands "
                "lifted the box more than 6 cm before it slipped out (the compliant "
                "wrists let the round wrist capsules, not the flat gripper housings, "
                "take the contact; seeds 620000-620001)",
    "saucepan_to_hob": "expert not written: the saucepan's handle lies at z 0.53 m, "
                       "0.08-0.16 m inside the closed left cabinet; from 0.15-0.20 m "
                       "before the cabinet front, at the fixed standing height, the "
                       "nearer pinch site gets no nearer than 6-16 cm to it (inverse "
                       "kinematics, seeds 620000-620004), while with the torso pitched "
                       "0.5 rad it reaches it: the task needs the torso-pitch command, "
                       "and the floating-base expert was not written for lack of time",
    "sandwich_remove": "expert not written (time went to pick_box): the sandwich must "
                       "be moved with the spatula, never touched by a gripper",
}
