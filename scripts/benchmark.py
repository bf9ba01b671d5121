"""Throughput of the simulation on one core: physics alone, rendering alone, and the
official env's control step with and without cameras.

Usage: .venv/bin/python scripts/benchmark.py [--task flip_cup] [--steps 300]
Prints a markdown table; docs/benchmarks.md keeps the figures. Real time is 50 control
steps per second. Timings are wall-clock, so compare ratios across runs, not absolutes.
"""

from __future__ import annotations

import argparse
import os
import time

os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core

import numpy as np  # noqa: E402

from bench.env import make  # noqa: E402
from bench.sim.world import CONTROL_DT, G1World  # noqa: E402


def _rate(fn, steps: int) -> float:
    fn()  # warm
    start = time.perf_counter()
    for _ in range(steps):
        fn()
    return steps / (time.perf_counter() - start)


def physics(task: str, steps: int) -> float:
    """Control steps per second of the servos + 20 physics substeps alone, on the robot
    standing in the task scene (the state after reset, restored every 25 steps so the
    contacts stay those of standing)."""
    env = make(task, camera_keys=())
    env.reset(seed=0)
    world = env.world
    standing = (world.data.qpos.copy(), world.data.qvel.copy(), world.data.time)
    targets = np.array(world.data.ctrl[world.motor_index])
    counter = [0]

    def one() -> None:
        counter[0] += 1
        if counter[0] % 25 == 0:
            world.data.qpos[:], world.data.qvel[:], world.data.time = standing
        world.step(targets, world._kp, world._kd, np.zeros(2))

    rate = _rate(one, steps)
    env.close()
    return rate


def rendering(steps: int) -> float:
    """Three-camera frames per second."""
    world = G1World()
    world.reset_to_keyframe()
    rate = _rate(world.render, steps)
    world.close()
    return rate


def env_rate(task: str, steps: int, cameras: bool) -> tuple[float, str]:
    """Control steps per second of env.step with a fixed mid-range action."""
    overrides = {} if cameras else {"camera_keys": ()}
    env = make(task, **overrides)
    env.reset(seed=0)
    action = np.zeros(env.action_dim)
    rate = _rate(lambda: env.step(action), steps)
    backend = env.backend.name
    env.close()
    return rate, backend


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--task", default="flip_cup")
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args()
    real_time = 1.0 / CONTROL_DT
    rows = [("physics alone (servos + 20 x 1 ms), standing", physics(args.task, args.steps),
             "control steps/s"),
            ("rendering alone (3 x 84x84)", rendering(args.steps), "frames/s")]
    with_cams, backend = env_rate(args.task, args.steps, cameras=True)
    without, _ = env_rate(args.task, args.steps, cameras=False)
    rows += [(f"env.step {args.task}, 3 cameras ({backend})", with_cams, "control steps/s"),
             (f"env.step {args.task}, no cameras ({backend})", without, "control steps/s")]
    print("| what | rate | unit | x real time |\n|---|---|---|---|")
    for name, rate, unit in rows:
        ratio = f"{rate / real_time:.1f}" if unit == "control steps/s" else "-"
        print(f"| {name} | {rate:,.0f} | {unit} | {ratio} |")


if __name__ == "__main__":
    main()
