"""Figures for the lower-body controllers (docs/wbc.md): standing, walking, turning,
floating-base tracking. Runs the env as a user would, through make() and normalized
actions; the arm targets and base commands are the only inputs.

Usage: .venv/bin/python scripts/wbc_figures.py [--resets 100] [--stand-seconds 60]
       [--workers 2] [--arm-range front|limits] [--arm-speed 0.25]
Prints markdown tables. The full run takes about 25 minutes on a shared 2-core machine.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from bench import layout
from bench.config import ControllerConfig
from bench.env import make
from bench.falls import FallDetector
from bench.robot import constants as c
from bench.robot.self_collision import ArmCollisionChecker
from bench.sim.world import G1World
from bench.wbc import BaseCommand, resolve_backend

ARMS_NOMINAL = c.KEYFRAME_JOINTS[15:]
# Both hands forward at chest height, elbows slightly bent.
ARMS_REACH = np.array([-0.7, 0.15, 0.0, 0.5, 0.0, 0.0, 0.0, -0.7, -0.15, 0.0, 0.5, 0.0, 0.0, 0.0])
ARM_LIMITS = c.JOINT_LIMITS[15:]
# The manipulation range: the joint limits, except that the shoulders pitch back no
# further than 0.5 rad (hands behind the hips, not raised behind the back).
FRONT_LIMITS = ARM_LIMITS.copy()
FRONT_LIMITS[[0, 7], 1] = 0.5
ARM_RANGES = {"limits": ARM_LIMITS, "front": FRONT_LIMITS}
ARM_SPEED = 0.25  # rad/s, random arm targets move at most this fast per joint (default)
TASK = "reach_target_single"  # 20-dim action, and no furniture to walk into


def _action(env, vx=0.0, vy=0.0, wz=0.0, height=0.74, arms=ARMS_NOMINAL):
    raw = np.concatenate([[vx, vy, height, wz], arms, [0.0, 0.0]])
    return layout.normalize(raw, env.action_layout)


def arm_goals(rng: np.random.Generator, limits: np.ndarray, checker: ArmCollisionChecker | None,
              qpos: np.ndarray, start: np.ndarray):
    """Random arm targets drawn uniformly within ``limits`` (14 x 2), one after another.
    With a ``checker``, a draw is kept only if neither the pose nor the straight path to
    it from the previous target puts an arm into the body or the other arm."""
    while True:
        goal = rng.uniform(limits[:, 0], limits[:, 1])
        if checker is None or not checker.path_collides(qpos, start, goal):
            yield goal
            start = goal


def stand(seed: int, seconds: float, arm_range: str = "front", arm_speed: float = ARM_SPEED,
          collision_free: bool = True) -> dict:
    """The bare robot (no furniture to lean on or push against): a reset and the warmup
    under the embedded WBC, then standing while the arms track slow random targets
    drawn from the seed within ARM_RANGES[arm_range] (collision-free ones unless
    ``collision_free`` is False)."""
    world = G1World()
    world.reset_to_keyframe()
    controller = resolve_backend(ControllerConfig()).controller
    controller.reset(world.robot_state())
    falls = FallDetector()
    rng = np.random.default_rng(seed)
    arms = ARMS_NOMINAL.copy()
    checker = ArmCollisionChecker(world.model) if collision_free else None
    goals = arm_goals(rng, ARM_RANGES[arm_range], checker, world.data.qpos.copy(), arms)
    goal = next(goals)
    stand_command = BaseCommand(height=0.74)
    for step in range(200 + int(seconds * 50)):
        if step >= 200:  # after the warmup
            delta = goal - arms
            if np.abs(delta).max() < 1e-3:
                goal = next(goals)
            arms = arms + np.clip(delta, -arm_speed * 0.02, arm_speed * 0.02)
        state = world.robot_state()
        lower = controller.command(state, stand_command, arms)
        world.step(np.concatenate([lower.position, arms]),
                   np.concatenate([lower.kp, c.ARM_KP, c.ARM_KP]),
                   np.concatenate([lower.kd, c.ARM_KD, c.ARM_KD]), np.zeros(2))
        falls.update(state.base_pos, state.base_quat, step)
    world.close()
    return {"seed": seed, "fell": falls.fell, "fell_at": falls.fell_at}


def locomotion(name: str, arms_name: str, controller=None) -> dict:
    """10 s of one base command after the settled reset; distance, heading, falls."""
    commands = {"forward 0.5 m/s": {"vx": 0.5}, "backward 0.5 m/s": {"vx": -0.5},
                "sideways 0.3 m/s": {"vy": 0.3}, "turn 0.5 rad/s": {"wz": 0.5}}
    arms = ARMS_NOMINAL if arms_name == "nominal" else ARMS_REACH
    overrides = {"camera_keys": ()}
    if controller is not None:
        overrides["controller"] = controller
    env = make(TASK, **overrides)
    env.reset(seed=0)
    start = env.world.robot_state()
    yaw_prev, turned = start.yaw, 0.0
    for _ in range(500):
        env.step(_action(env, arms=arms, **commands[name]))
        yaw = env.world.robot_state().yaw
        turned += (yaw - yaw_prev + np.pi) % (2 * np.pi) - np.pi
        yaw_prev = yaw
    end = env.world.robot_state()
    moved = end.base_pos[:2] - start.base_pos[:2]
    heading = np.array([np.cos(start.yaw), np.sin(start.yaw)])
    left = np.array([-np.sin(start.yaw), np.cos(start.yaw)])
    result = {"command": name, "arms": arms_name, "fell": env.episode_fell(),
              "distance": float(np.linalg.norm(moved)),
              "along_heading": float(moved @ heading), "leftward": float(moved @ left),
              "turned_deg": float(np.degrees(turned)), "backend": env.backend.name}
    env.close()
    return result


def floating_tracking() -> list[dict]:
    """Floating base: commanded vs achieved velocity and height over 2 s each."""
    rows = []
    for name, command, seconds in (("vx 0.4 m/s", {"vx": 0.4}, 2.0),
                                   ("vy -0.3 m/s", {"vy": -0.3}, 2.0),
                                   ("wz 0.6 rad/s", {"wz": 0.6}, 2.0),
                                   ("height 0.55 m", {"height": 0.55}, 2.0)):
        env = make(TASK, camera_keys=(), controller=None)
        env.reset(seed=0)
        start = env.world.robot_state()
        steps = int(seconds * 50)
        for _ in range(steps):
            env.step(_action(env, **command))
        end = env.world.robot_state()
        if "height" in command:
            wanted, got = command["height"], float(end.base_pos[2])
        elif "wz" in command:
            wanted = command["wz"]
            got = float(((end.yaw - start.yaw + np.pi) % (2 * np.pi) - np.pi) / seconds)
        else:
            key = "vx" if "vx" in command else "vy"
            wanted = command[key]
            got = float((end.base_pos[0 if key == "vx" else 1] - start.base_pos[
                0 if key == "vx" else 1]) / seconds)
        rows.append({"command": name, "wanted": wanted, "got": got,
                     "error_pct": 100 * abs(got - wanted) / abs(wanted)})
        env.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--resets", type=int, default=100)
    parser.add_argument("--stand-seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--arm-range", choices=sorted(ARM_RANGES), default="front")
    parser.add_argument("--arm-speed", type=float, default=ARM_SPEED, help="rad/s per joint")
    args = parser.parse_args()
    with ProcessPoolExecutor(args.workers) as pool:
        walks = [pool.submit(locomotion, name, arms) for arms in ("nominal", "reach")
                 for name in ("forward 0.5 m/s", "backward 0.5 m/s", "sideways 0.3 m/s",
                              "turn 0.5 rad/s")]
        stands = list(pool.map(stand, range(620000, 620000 + args.resets),
                               [args.stand_seconds] * args.resets,
                               [args.arm_range] * args.resets,
                               [args.arm_speed] * args.resets))
        walks_done = [w.result() for w in walks]
    floating = floating_tracking()

    falls = [s for s in stands if s["fell"]]
    print(f"## Standing: {args.resets} seeded resets x {args.stand_seconds:.0f} s, arms "
          f"tracking random collision-free targets ({args.arm_range}) at <= {args.arm_speed} "
          "rad/s\n")
    print(f"falls: {len(falls)} of {args.resets}"
          + (f" (seeds {[s['seed'] for s in falls]})" if falls else "") + "\n")
    print(f"## Locomotion, 10 s per command ({walks_done[0]['backend']})\n")
    print("| command | arms | distance (m) | forward (m) | leftward (m) | turned (deg) | fell |")
    print("|---|---|---|---|---|---|---|")
    for w in walks_done:
        print(f"| {w['command']} | {w['arms']} | {w['distance']:.2f} | {w['along_heading']:.2f} "
              f"| {w['leftward']:.2f} | {w['turned_deg']:.0f} | {w['fell']} |")
    print("\n## Floating base tracking, 2 s per command\n")
    print("| command | wanted | got | error % |\n|---|---|---|---|")
    for f in floating:
        print(f"| {f['command']} | {f['wanted']:.3f} | {f['got']:.3f} | {f['error_pct']:.1f} |")


if __name__ == "__main__":
    main()
