#!/usr/bin/env python3
"""How robust an expert is on a task that draws nothing at reset.

wall_cupboard_open, wall_cupboard_close and dishwasher_close start every seed in the
same state, so their 100 official seeds are one episode played 100 times, and the
official success rate says nothing about robustness. This probe perturbs the one
thing left, the timing: the expert's script starts DELAY control steps late (the robot
stands meanwhile), for DELAY = 0 .. N-1, and the share of successes is reported.
Delay 0 is the official episode. With ``--drift VX VY WZ`` the robot walks with that
base command (m/s, m/s, rad/s, body frame) during the delay instead of standing, so the
script also starts from a displaced, still moving pelvis (further for longer delays).

    scripts/delay_probe.py TASK [--delays 16] [--first 0] [--floating-base]
                           [--draft] [--cap ENV_STEPS] [--drift VX VY WZ]
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import numpy as np

from bench import layout
from bench.eval import evaluate
from bench.policies.experts import draft, expert
from bench.policies.oracle import WorldState

BASE_SLOTS = [0, 1, 3]  # vx, vy, wz in the raw whole-body action (height is slot 2)


class DelayedStart:
    """An expert whose script starts ``delay`` control steps late: the world state is
    withheld until then, and an expert without one holds the standing command, or, with
    ``drift`` (raw vx, vy, wz), walks with it (the expert's ``slots`` give the layout)."""

    def __init__(self, policy: Any, delay: int, drift: tuple[float, float, float] | None = None):
        self.policy, self.delay, self.steps, self.drift = policy, delay, 0, drift

    def reset(self) -> None:
        """Start a new episode."""
        self.policy.reset()
        self.steps = 0

    def observe_world(self, state: WorldState) -> None:
        """Pass the world state on once the delay has run out (the first action of an
        episode never has one, so delay 0 is the official episode)."""
        if self.steps > self.delay:
            self.policy.observe_world(state)

    def __call__(self, observation: dict[str, Any]) -> Any:
        self.steps += 1
        action = self.policy(observation)
        if self.drift is None or self.steps > self.delay:
            return action
        raw = layout.denormalize(action, self.policy.slots)
        raw[BASE_SLOTS] = self.drift
        return layout.normalize(raw, self.policy.slots).astype(np.float32)


def main() -> None:
    """Run the probe and print one JSON line per delay, then the share of successes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("task")
    parser.add_argument("--delays", type=int, default=16, help="delays 0 .. N-1 (from --first)")
    parser.add_argument("--first", type=int, default=0, help="first delay")
    parser.add_argument("--floating-base", action="store_true")
    parser.add_argument("--draft", action="store_true", help="probe the task's draft expert")
    parser.add_argument("--cap", type=int, default=None,
                        help="episode length in env steps (default: the task's budget)")
    parser.add_argument("--drift", type=float, nargs=3, default=None,
                        metavar=("VX", "VY", "WZ"),
                        help="base command during the delay instead of standing")
    args = parser.parse_args()
    overrides: dict[str, Any] = {"camera_keys": []}
    if args.cap:
        overrides["episode_length"] = args.cap
    if args.floating_base:
        overrides["controller"] = None
    successes = 0
    delays = range(args.first, args.first + args.delays)
    for delay in delays:
        policy = DelayedStart(draft(args.task) if args.draft else expert(args.task), delay,
                              None if args.drift is None else tuple(args.drift))
        result = evaluate(policy, args.task, "delay-probe", overrides, episodes=1,
                          progress=False)["results"][0]
        successes += result["success"]
        print(json.dumps({"delay": delay, "success": result["success"],
                          "fell": result["fell"], "control_steps": result["control_steps"],
                          "final_metrics": result["final_metrics"]}), flush=True)
    print(f"{args.task}: {successes} of {len(delays)} start delays succeed", file=sys.stderr)


if __name__ == "__main__":
    main()
