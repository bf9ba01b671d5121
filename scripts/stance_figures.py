"""Figures for the embedded default's standing controller (docs/wbc.md): tracking,
robustness with moving arms (and pushes), and stand -> walk -> stand switching.

Usage: .venv/bin/python scripts/stance_figures.py tracking
       .venv/bin/python scripts/stance_figures.py robustness [--resets 100] [--seconds 60]
           [--push-newtons 0] [--push-seconds 0.2] [--workers 2]
       .venv/bin/python scripts/stance_figures.py switching [--seeds 20] [--cycles 5]
Prints markdown tables. The robot runs under the embedded default exactly as an env
does (the same controller object and physics calls), driven with raw commands.
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from bench.config import ControllerConfig
from bench.env import make
from bench.falls import FallDetector, pelvis_tilt_deg
from bench.robot import constants as c
from bench.robot.self_collision import ArmCollisionChecker
from bench.sim.world import G1World
from bench.wbc import BaseCommand, resolve_backend
from bench.wbc.embedded import Mode
from bench.wbc.stance import torso_angles

sys.path.insert(0, str(Path(__file__).parent))
from wbc_figures import ARM_RANGES, ARMS_NOMINAL, ARMS_REACH

GOAL_SECONDS = 5.0  # s between random height and pitch goals
PUSH_EVERY = 5.0  # s between pushes, when pushing
HEIGHTS = (0.45, 0.50, 0.55, 0.60, 0.65, 0.70, 0.74, 0.79)  # m, at pitch 0
PITCHES = (-0.2, 0.0, 0.2, 0.4, 0.6, 0.8)  # rad, at 0.70 m


class Driver:
    """A world and the embedded default, stepped with raw commands."""

    def __init__(self, world: G1World, controller=None):
        """``controller``: one already running (an env's after its warmup), else a new
        embedded default."""
        self.world = world
        if controller is None:
            controller = resolve_backend(ControllerConfig(backend="holosoma_g1")).controller
            controller.reset(world.robot_state())
        self.controller = controller
        self.falls = FallDetector()
        self.steps = 0
        self.effort = 0.0  # worst |torque| / limit over the leg and waist joints

    def step(self, command: BaseCommand, arms: np.ndarray) -> None:
        """One control step; updates the fall latch and the worst effort."""
        world = self.world
        lower = self.controller.command(world.robot_state(), command, arms)
        world.step(np.concatenate([lower.position, arms]),
                   np.concatenate([lower.kp, c.ARM_KP, c.ARM_KP]),
                   np.concatenate([lower.kd, c.ARM_KD, c.ARM_KD]), np.zeros(2))
        state = world.robot_state()
        self.falls.update(state.base_pos, state.base_quat, self.steps)
        torque = np.abs(world.data.actuator_force[world.motor_index[:15]])
        self.effort = max(self.effort, float((torque / c.EFFORT_LIMIT[:15]).max()))
        self.steps += 1

    def pitch(self) -> float:
        """Torso pitch in the world, rad."""
        return torso_angles(self.world.model, self.world.data)[0]


def track(height: float, pitch: float, arms: np.ndarray) -> dict:
    """Bare robot: 4 s of the default command with the keyframe arms (an env's
    warmup), 4 s toward the command with ``arms``, then the mean over the next second."""
    world = G1World()
    world.reset_to_keyframe()
    driver = Driver(world)
    for _ in range(200):
        driver.step(BaseCommand(), ARMS_NOMINAL)
    command = BaseCommand(height=height, torso_pitch=pitch)
    for _ in range(200):
        driver.step(command, arms)
    z, p, tilt = [], [], []
    for _ in range(50):
        driver.step(command, arms)
        z.append(world.data.qpos[2])
        p.append(driver.pitch())
        tilt.append(pelvis_tilt_deg(world.data.qpos[3:7]))
    world.close()
    return {"height": height, "pitch": pitch, "z": float(np.mean(z)), "p": float(np.mean(p)),
            "tilt": float(np.mean(tilt)), "effort": driver.effort, "fell": driver.falls.fell}


def next_arm_goal(rng: np.random.Generator, checker: ArmCollisionChecker, qpos: np.ndarray,
                  arms: np.ndarray) -> np.ndarray:
    """A random manipulation-range target for both arms, the straight path to it from
    ``arms`` clear of the body (as wbc_figures.arm_goals draws them). A crouch and lean
    can bring the thighs up to where the hands already are: then no path from there is
    clear, and only the target pose is checked."""
    touching = checker.collides(qpos, arms)
    limits = ARM_RANGES["front"]
    while True:
        goal = rng.uniform(limits[:, 0], limits[:, 1])
        if not (checker.collides(qpos, goal) if touching
                else checker.path_collides(qpos, arms, goal)):
            return goal


def robustness(seed: int, seconds: float, push_newtons: float, push_seconds: float) -> dict:
    """flip_cup's scene after its seeded reset and warmup: random height and pitch
    goals in the reachable range every GOAL_SECONDS, both arms tracking random
    collision-free manipulation-range targets at 0.25 rad/s, and optionally a push on
    the pelvis in a random horizontal direction every PUSH_EVERY seconds."""
    env = make("flip_cup", camera_keys=())
    env.reset(seed=seed)
    world = env.world
    driver = Driver(world, env.backend.controller)  # continues from the env's warmup
    rng = np.random.default_rng(seed)
    arms = env.arm_targets.copy()
    checker = ArmCollisionChecker(world.model)
    arm_goal = arms.copy()
    command = BaseCommand()
    pelvis = world.model.body("pelvis").id
    push_steps = int(push_seconds * 50)
    catches = 0  # stance -> ppo hand-overs (the capture point left the soles)
    for step in range(int(seconds * 50)):
        if step % int(GOAL_SECONDS * 50) == 0:
            command = BaseCommand(height=float(rng.uniform(*c.STANCE_HEIGHT_RANGE)),
                                  torso_pitch=float(rng.uniform(*c.STANCE_PITCH_RANGE)))
        if np.abs(arm_goal - arms).max() < 1e-3:  # checked against the legs as they are now
            arm_goal = next_arm_goal(rng, checker, world.data.qpos.copy(), arms)
        delta = arm_goal - arms
        arms = arms + np.clip(delta, -0.25 * 0.02, 0.25 * 0.02)
        phase = step % int(PUSH_EVERY * 50)
        if push_newtons and phase == int(PUSH_EVERY * 25):
            angle = rng.uniform(0, 2 * np.pi)
            world.data.xfrc_applied[pelvis, :3] = push_newtons * np.array(
                [np.cos(angle), np.sin(angle), 0.0])
        if phase == int(PUSH_EVERY * 25) + push_steps:
            world.data.xfrc_applied[pelvis, :3] = 0.0
        before = driver.controller.mode
        driver.step(command, arms)
        catches += before is Mode.STAND and driver.controller.mode is Mode.BALANCE
    env.close()
    return {"seed": seed, "fell": driver.falls.fell, "fell_at": driver.falls.fell_at,
            "catches": catches}


RETURN_SECONDS = 10.0  # s allowed to come back to the stance after a walk
RETURN_TOLERANCE = (0.02, 0.05)  # m, rad: "back" means this close, standing


def switching(seed: int, cycles: int) -> list[dict]:
    """Bare robot: per cycle a random stance for 2 s, a random walk for 2 s, then the
    stance again until it is reached (RETURN_TOLERANCE, standing) or RETURN_SECONDS
    pass; how long the return took, and whether the robot fell in that cycle (after a
    fall the next cycle starts from the keyframe)."""
    world = G1World()
    world.reset_to_keyframe()
    driver = Driver(world)
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(cycles):
        stance = BaseCommand(height=float(rng.uniform(*c.STANCE_HEIGHT_RANGE)),
                             torso_pitch=float(rng.uniform(*c.STANCE_PITCH_RANGE)))
        arms = ARMS_REACH if rng.uniform() < 0.5 else ARMS_NOMINAL
        walk = BaseCommand(vx=float(rng.uniform(-0.4, 0.5)), vy=float(rng.uniform(-0.2, 0.2)),
                           wz=float(rng.uniform(-0.5, 0.5)))
        for command, seconds in ((stance, 2.0), (walk, 2.0)):
            for _ in range(int(seconds * 50)):
                driver.step(command, arms)
        returned = None
        for step in range(int(RETURN_SECONDS * 50)):
            driver.step(stance, arms)
            if (driver.controller.mode is Mode.STAND
                    and abs(world.data.qpos[2] - stance.height) <= RETURN_TOLERANCE[0]
                    and abs(driver.pitch() - stance.torso_pitch) <= RETURN_TOLERANCE[1]):
                returned = (step + 1) / 50
                break
        rows.append({"seed": seed, "cycle": len(rows), "fell": driver.falls.fell,
                     "returned_s": returned})
        if driver.falls.fell:  # start the next cycle standing
            world.reset_to_keyframe()
            driver = Driver(world)
    world.close()
    return rows


def print_tracking() -> None:
    cases = ([(h, 0.0, "keyframe") for h in HEIGHTS] + [(0.70, p, "keyframe") for p in PITCHES]
             + [(h, 0.0, "forward") for h in HEIGHTS] + [(0.70, p, "forward") for p in PITCHES])
    with ProcessPoolExecutor(2) as pool:
        rows = list(pool.map(track, [h for h, _, _ in cases], [p for _, p, _ in cases],
                             [ARMS_NOMINAL if a == "keyframe" else ARMS_REACH
                              for _, _, a in cases]))
    print("| arms | command (h, pitch) | pelvis z | torso pitch | error (cm, rad) "
          "| pelvis tilt | max effort | fell |")
    print("|---|---|---|---|---|---|---|---|")
    for (_, _, arms), r in zip(cases, rows, strict=True):
        print(f"| {arms} | {r['height']:.2f}, {r['pitch']:.1f} | {r['z']:.3f} | {r['p']:.3f} "
              f"| {100 * abs(r['z'] - r['height']):.1f}, {abs(r['p'] - r['pitch']):.3f} "
              f"| {r['tilt']:.0f} deg | {r['effort']:.2f} | {r['fell']} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("figure", choices=("tracking", "robustness", "switching"))
    parser.add_argument("--resets", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--push-newtons", type=float, default=0.0)
    parser.add_argument("--push-seconds", type=float, default=0.2)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--cycles", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.figure == "tracking":
        print_tracking()
        return
    with ProcessPoolExecutor(args.workers) as pool:
        if args.figure == "robustness":
            seeds = range(620000, 620000 + args.resets)
            runs = []
            for run in pool.map(robustness, seeds, [args.seconds] * args.resets,
                                [args.push_newtons] * args.resets,
                                [args.push_seconds] * args.resets):
                runs.append(run)  # each reset as it finishes: a cut-short run keeps them
                print(f"reset {run}", file=sys.stderr, flush=True)
            falls = [r for r in runs if r["fell"]]
            catches = sum(r["catches"] for r in runs)
            print(f"robustness: {args.resets} resets x {args.seconds:.0f} s, pushes "
                  f"{args.push_newtons:.0f} N x {args.push_seconds} s: {len(falls)} fell "
                  f"{[(r['seed'], r['fell_at']) for r in falls]}; the stance handed a push "
                  f"to ppo {catches} times in {sum(r['catches'] > 0 for r in runs)} resets")
        else:
            rows = [row for seed_rows in pool.map(switching, range(args.seeds),
                                                  [args.cycles] * args.seeds)
                    for row in seed_rows]
            falls = [(r["seed"], r["cycle"]) for r in rows if r["fell"]]
            back = sorted(r["returned_s"] for r in rows if r["returned_s"] is not None)
            print(f"switching: {len(rows)} stand-walk-stand cycles: {len(falls)} with a fall "
                  f"(seed, cycle) {falls}; "
                  f"{len(back)} back within {RETURN_TOLERANCE[0] * 100:.0f} cm and "
                  f"{RETURN_TOLERANCE[1]} rad of the stance in {RETURN_SECONDS:.0f} s, after "
                  f"median {np.median(back):.1f} s, at most {back[-1]:.1f} s")


if __name__ == "__main__":
    main()
