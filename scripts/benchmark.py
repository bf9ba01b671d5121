"""Throughput of the simulation on one core: physics alone, rendering alone, and the
official env's control step with and without cameras; with --graph, also the ROS 2
graph (one process per node, and composed in one process) against the in-process loop.

Usage: .venv/bin/python scripts/benchmark.py [--task flip_cup] [--steps 300] [--graph]
Prints a markdown table; docs/benchmarks.md keeps the figures. Real time is 50 control
steps per second. Timings are wall-clock, so compare ratios across runs, not absolutes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


def env_rate(task: str, steps: int, cameras: bool, floating_base: bool = False,
             stance: bool = False) -> tuple[float, str]:
    """Control steps per second of env.step holding the reset pose (``builtin:hold``:
    the default stance command, which the embedded default serves with holosoma's
    ``ppo``), on the embedded default or (``floating_base``) on the floating base.
    ``stance``: the all-zero normalized action instead, mid-range in every slot (pelvis
    height 0.70 m), which the embedded default serves with its standing controller."""
    from bench.policies.builtin import hold

    overrides = {} if cameras else {"camera_keys": ()}
    env = make(task, **overrides, **({"controller": None} if floating_base else {}))
    env.reset(seed=0)
    action = np.zeros(env.action_dim) if stance else hold(task)({})
    rate = _rate(lambda: env.step(action), steps)
    backend = env.backend.name
    env.close()
    return rate, backend


def graph_rates(task: str, steps: int) -> list[tuple[str, float, str]]:
    """Control steps per second of one episode's steps (reset excluded), through the
    graph as processes, composed, and in process; with and without cameras."""
    from bench.eval.run import run_in_process
    from bench.policies import load_policy

    rows = []
    for cameras in (True, False):
        overrides = {"episode_length": steps * 10, **({} if cameras else {"camera_keys": []})}
        label = "3 cameras" if cameras else "no cameras"
        for mode in ("processes", "composed", "in process"):
            with tempfile.TemporaryDirectory() as tmp:
                if mode == "in process":
                    env = make(task, **overrides)
                    run_in_process(env, load_policy("bench.policies.builtin:hold", task), [0],
                                   Path(tmp), "benchmark")
                    env.close()
                else:
                    command = [sys.executable, "-m", "bench.cli", "launch", "eval",
                               f"task:={task}", "episodes:=1", "seed_start:=0",
                               f"overrides:={json.dumps(overrides)}", f"output_dir:={tmp}"]
                    subprocess.run(command + (["--composed"] if mode == "composed" else []),
                                   check=True, capture_output=True)
                timing = json.loads((Path(tmp) / "timing.json").read_text())["0"]
            rows.append((f"{mode}, {label}", timing["control_steps"] / timing["steps_s"],
                         "control steps/s"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--task", default="flip_cup")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--graph", action="store_true", help="also measure the ROS 2 graph")
    args = parser.parse_args()
    real_time = 1.0 / CONTROL_DT
    rows = [("physics alone (servos + 20 x 1 ms), standing", physics(args.task, args.steps),
             "control steps/s"),
            ("rendering alone (3 x 84x84)", rendering(args.steps), "frames/s")]
    with_cams, backend = env_rate(args.task, args.steps, cameras=True)
    without, _ = env_rate(args.task, args.steps, cameras=False)
    floating, _ = env_rate(args.task, args.steps, cameras=False, floating_base=True)
    standing, _ = env_rate(args.task, args.steps, cameras=False, stance=True)
    rows += [(f"env.step {args.task}, 3 cameras ({backend})", with_cams, "control steps/s"),
             (f"env.step {args.task}, no cameras ({backend})", without, "control steps/s"),
             (f"env.step {args.task}, no cameras ({backend}, standing controller at 0.70 m)",
              standing, "control steps/s"),
             (f"env.step {args.task}, no cameras (floating base)", floating, "control steps/s")]
    if args.graph:
        os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))  # graph processes: all cores
        rows += graph_rates(args.task, args.steps)
    print("| what | rate | unit | x real time |\n|---|---|---|---|")
    for name, rate, unit in rows:
        ratio = f"{rate / real_time:.1f}" if unit == "control steps/s" else "-"
        print(f"| {name} | {rate:,.0f} | {unit} | {ratio} |")


if __name__ == "__main__":
    main()
