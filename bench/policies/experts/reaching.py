"""Experts for the reach tasks (bench.tasks.reaching): move the pinch centre onto the
target ball and hold it there. The robot walks only when a target is out of reach from
the spawn point (a far target across the body); the hands go straight to the target
centre (position-only inverse kinematics, so the wrist keeps the posture nearest to
the current one)."""

from __future__ import annotations

from collections.abc import Iterator

from bench.policies.experts.script import Expert

REACH_STEPS = 60  # control steps for the reach (1.2 s)


class ReachTargetSingle(Expert):
    """The left hand to the target; hold."""

    def script(self) -> Iterator[None]:
        target = self.kin.body_pos("target")
        yield from self.step_into_reach({"left": target})
        yield from self.move({"left": (target, None)}, REACH_STEPS)


class ReachTargetMultiModal(Expert):
    """The hand on the target's side (left when it is left of the pelvis) to it; hold."""

    def script(self) -> Iterator[None]:
        target = self.kin.body_pos("target")
        side = "left" if target[1] >= self.kin.pelvis_pose()[1] else "right"
        yield from self.step_into_reach({side: target})
        yield from self.move({side: (target, None)}, REACH_STEPS)


class ReachTargetDual(Expert):
    """Both hands to their targets at once; hold."""

    def script(self) -> Iterator[None]:
        targets = {"left": self.kin.body_pos("target_left"),
                   "right": self.kin.body_pos("target_right")}
        yield from self.step_into_reach(targets)
        yield from self.move({side: (pos, None) for side, pos in targets.items()}, REACH_STEPS)


EXPERTS = {"reach_target_single": ReachTargetSingle,
           "reach_target_multi_modal": ReachTargetMultiModal,
           "reach_target_dual": ReachTargetDual}
